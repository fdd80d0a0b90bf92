"""Pairing codes: what a phone types to be let write (issue 12, docs/threat-model.md).

A long press at the table asks for a code; the table shows it (six digits and a QR code).
A code is good once and for :data:`CODE_LIFETIME` seconds; a newer code replaces it.
:data:`MAX_WRONG` wrong codes in a row lock pairing for :data:`LOCK_SECONDS`, the right code
included, so a guesser gets at most ten tries at one code (1 in 100,000). Pure: the clock is
passed in; nothing here touches the network or the disk.
"""

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

CODE_DIGITS = 6
CODE_LIFETIME = 120.0  # seconds
MAX_WRONG = 5
LOCK_SECONDS = 60.0


class PairingRefused(Exception):
    """A code was not taken. ``reason``: ``"locked"``, ``"wrong"`` (no code shown, an
    expired or used one included) or ``"malformed"`` (not six digits: never a guess);
    ``retry_after``: seconds until the lock ends (locked only)."""

    def __init__(self, reason: str, message: str, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.reason, self.retry_after = reason, retry_after


@dataclass(frozen=True)
class Code:
    code: str
    expires: float  # on the pairing's clock


class Pairing:
    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._code: Code | None = None
        self._wrong = 0  # wrong codes in a row
        self._locked_until = float("-inf")

    def new_code(self) -> Code:
        """A fresh code for the table to show; the one before it is no longer good."""
        digits = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
        self._code = Code(digits, self.clock() + CODE_LIFETIME)
        return self._code

    def current(self) -> Code | None:
        """The code the table may show now (None once used or expired)."""
        if self._code is not None and self.clock() >= self._code.expires:
            self._code = None
        return self._code

    def locked_for(self) -> float:
        """Seconds until pairing takes codes again (0: it does now)."""
        return max(0.0, self._locked_until - self.clock())

    def redeem(self, typed: str) -> None:
        """Take ``typed`` as the code shown; once taken it is used up. PairingRefused else."""
        if not (isinstance(typed, str) and len(typed) == CODE_DIGITS and typed.isascii()):
            raise PairingRefused("malformed", f"the code is {CODE_DIGITS} digits")
        if not typed.isdigit():
            raise PairingRefused("malformed", f"the code is {CODE_DIGITS} digits")
        if wait := self.locked_for():
            raise PairingRefused(
                "locked", f"too many wrong codes: try again in {wait:.0f} s", retry_after=wait
            )
        code = self.current()
        if code is not None and hmac.compare_digest(code.code, typed):
            self._code, self._wrong = None, 0
            return
        self._wrong += 1
        if self._wrong >= MAX_WRONG:
            self._wrong, self._locked_until = 0, self.clock() + LOCK_SECONDS
            raise PairingRefused(
                "locked",
                f"{MAX_WRONG} wrong codes: pairing is locked for {LOCK_SECONDS:.0f} s",
                retry_after=LOCK_SECONDS,
            )
        raise PairingRefused(
            "wrong", "wrong or expired code: hold the button at the table for a new one"
        )
