"""What the table does for phones, on the app's loop thread (docs/threat-model.md).

- **Pairing**: UNDO held, then FOUL pressed while its question shows (panel.py), asks the
  net process for a code (:meth:`PhoneControl.ask_code`); the net process makes one and has
  the table show it (:meth:`show_code`) with a QR code of its page, until it is used, runs
  out, or any button is pressed (that press does nothing else). The code is drawn on the OLEDs only: it
  never goes into the state the socket, the web pages or MQTT send out.
- **An OK at the table**: a phone's change to a match in play (UNDO) waits as a request
  (:meth:`ask_ok`) the display shows; a press of A or B does it, FOUL or UNDO refuses it,
  and a ball, a hold or :data:`REQUEST_SECONDS` without a press drop it (the match it was
  asked for has changed, or nobody at the table agreed). Those presses do nothing else.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

from scoreboard.inputs.events import Button, ButtonHold, ButtonPress, Pot

CODE_SECONDS = 120.0  # the longest a code is shown (the net process says how long it is good)
REQUEST_SECONDS = 30.0
OK_BUTTONS = (Button.A, Button.B)


@dataclass(frozen=True)
class Request:
    """A phone's change waiting for an OK press: what (a hint key's end), who, and the
    change itself, ``run() -> (ok, message)``."""

    what: str
    phone: str
    run: Callable[[], tuple[bool, str]]


class PhoneControl:
    """`presenter` says the hints and draws the code; `listeners` are the table's observers
    (the one with ``pairing_asked()`` is the socket to the net process)."""

    def __init__(self, presenter, call_later, *, listeners, drop_question, log=print) -> None:
        self.presenter = presenter
        self.call_later = call_later
        self.listeners = listeners
        self.drop_question = drop_question
        self.log = log
        self.code: tuple[str, str] | None = None  # (code, url) while the OLEDs show it
        self.request: Request | None = None
        self._code_timer = None
        self._request_timer = None

    # -- pairing ------------------------------------------------------------------------------
    def ask_code(self) -> None:
        """UNDO held, then FOUL: ask whoever listens on the socket (the net process) for a code."""
        listeners = [o for o in self.listeners if hasattr(o, "pairing_asked")]
        if not listeners:
            self.presenter.set_hint("phone-no-network")
            return
        for listener in listeners:
            listener.pairing_asked()
        self.presenter.set_hint("phone-code-asked")

    def show_code(self, code: str, url: str = "", seconds: float = CODE_SECONDS) -> None:
        """Show ``code`` (six digits) and a QR code of ``url`` for ``seconds`` at most."""
        if not (isinstance(code, str) and len(code) == 6 and code.isascii() and code.isdigit()):
            raise ValueError(f"a pairing code is six digits, not {code!r}")
        seconds = float(seconds)
        if not math.isfinite(seconds):
            raise ValueError(f"a code is shown for some seconds, not {seconds!r}")
        seconds = min(max(seconds, 0.0), CODE_SECONDS)
        self.code = (code, str(url or ""))
        self._cancel_code_timer()
        self._code_timer = self.call_later(seconds, self.hide_code)
        self.presenter.hint = None  # "asking for a code" is answered
        self.presenter.pair(self.code)

    def hide_code(self) -> None:
        self._cancel_code_timer()
        if self.code is not None:
            self.code = None
            self.presenter.pair(None)

    def paired(self) -> None:
        """The code was used: the phone is paired; the display says so once."""
        self.hide_code()
        self.presenter.set_hint("phone-paired")
        self.presenter.show()

    # -- an OK at the table -------------------------------------------------------------------
    def ask_ok(self, what: str, phone: str, run: Callable[[], tuple[bool, str]]) -> str:
        """A phone asks for a change to the match in play: it waits for a press."""
        self._end_request()
        self.drop_question()  # the request takes the question's place on the screen
        self.request = Request(what, phone, run)
        self.presenter.set_hint(f"phone-{what}", seconds=REQUEST_SECONDS)
        self._request_timer = self.call_later(REQUEST_SECONDS, self._expire)
        self.presenter.show()
        return "waiting for OK at the table"

    # -- the table's inputs (app.handle, before the panel) ------------------------------------
    def takes(self, event) -> bool:
        """Whether ``event`` was for the pairing code or a phone's request (it does nothing
        else then); a ball always counts, and drops a request made for the match before it."""
        pressed = isinstance(event, ButtonPress | ButtonHold)
        if self.code is not None and pressed:
            self.hide_code()
            return True
        if self.request is None:
            return False
        if isinstance(event, Pot):
            self._end_request(hint=None)
            return False
        if not pressed:
            return False
        request = self._end_request(hint=None)
        if isinstance(event, ButtonPress) and event.button in OK_BUTTONS:
            ok, message = request.run()
            self.log(f"phone {request.phone}: {request.what} at the table's OK: {message}")
        else:
            self.presenter.set_hint("phone-refused")
            self.log(f"phone {request.phone}: {request.what} refused at the table")
        return True

    # -- helpers --------------------------------------------------------------------------------
    def _expire(self) -> None:
        self._request_timer = None
        if self.request is not None:
            self._end_request(hint=None)
            self.presenter.show()

    def _end_request(self, *, hint: str | None = None) -> Request | None:
        request, self.request = self.request, None
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None
        if request is not None and _key(self.presenter.hint) == f"phone-{request.what}":
            self.presenter.hint = hint
        return request

    def _cancel_code_timer(self) -> None:
        if self._code_timer is not None:
            self._code_timer.cancel()
            self._code_timer = None


def _key(hint) -> str | None:
    return hint[0] if isinstance(hint, tuple) else hint
