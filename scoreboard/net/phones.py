"""The phones paired with this table: who may write (issue 12, docs/threat-model.md).

A paired phone holds a random session token in an HttpOnly cookie; this file keeps only its
SHA-256, so a copy of the state directory lets no one in. ``<state_dir>/phones.json``
(the net service runs as the table's user, with the state directory writable) is
written whole through a temporary file, fsync and rename, so a power cut leaves the old list
or the new one, and it survives a restart. A phone is good for :data:`LIFETIME` (30 days)
from pairing, or until revoked (`scoreboard phones --revoke ID`, or from a paired phone).
The net process and the command line both change the file: each change reads it afresh
under an flock on ``phones.lock`` beside it, and a lookup reads it again when it changed.
"""

import fcntl
import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path

from scoreboard.store.durable import replace_file

LIFETIME = 30 * 24 * 3600.0  # seconds a pairing is good for
FILE_NAME = "phones.json"
NAME_LENGTH = 40


@dataclass(frozen=True)
class Phone:
    id: str  # short, for people: `scoreboard phones --revoke ID`
    name: str
    paired: float  # wall-clock seconds (time.time)
    expires: float
    token_sha256: str

    def public(self) -> dict:
        """What a phone list shows: never the token's hash."""
        return {"id": self.id, "name": self.name, "paired": self.paired, "expires": self.expires}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: object, default: str) -> str:
    """A phone's name as given, printable and short; ``default`` when there is none."""
    text = "".join(c for c in str(name or "") if c.isprintable()).strip()[:NAME_LENGTH]
    return text or default


class Phones:
    def __init__(
        self,
        state_dir: str | os.PathLike,
        *,
        clock: Callable[[], float] = time.time,
        lifetime: float = LIFETIME,
    ) -> None:
        self.path = Path(state_dir) / FILE_NAME
        self.clock, self.lifetime = clock, lifetime
        self._seen: tuple | None = None  # the file's (inode, size, mtime) when last read
        self._phones: dict[str, Phone] = {}

    # -- reading ---------------------------------------------------------------------------------
    def find(self, token: str | None) -> Phone | None:
        """The paired, unexpired phone holding ``token``, or None."""
        if not token:
            return None
        wanted = token_hash(token)
        try:
            phones = self._fresh()
        except PhonesDamaged:
            return None  # nobody is let in on a list that cannot be read
        for phone in phones.values():
            if secrets.compare_digest(phone.token_sha256, wanted):
                return phone if phone.expires > self.clock() else None
        return None

    def list(self) -> list[Phone]:
        """The phones paired now (expired ones left out), oldest first."""
        now = self.clock()
        return sorted(
            (p for p in self._fresh().values() if p.expires > now), key=lambda p: p.paired
        )

    # -- changing --------------------------------------------------------------------------------
    def add(self, name: object = "") -> tuple[str, Phone]:
        """Pair a phone: its new token (for its cookie, never kept here) and its entry."""
        token = secrets.token_urlsafe(32)
        with self._changing() as phones:
            phone_id = secrets.token_hex(3)
            while phone_id in phones:
                phone_id = secrets.token_hex(3)
            now = self.clock()
            phone = Phone(
                phone_id,
                clean_name(name, f"phone {phone_id}"),
                now,
                now + self.lifetime,
                token_hash(token),
            )
            phones[phone_id] = phone
        return token, phone

    def revoke(self, phone_id: str) -> bool:
        """Unpair a phone at once (its cookie lets it in no more); False if there is none."""
        with self._changing() as phones:
            return phones.pop(phone_id, None) is not None

    # -- the file --------------------------------------------------------------------------------
    def _fresh(self) -> dict[str, Phone]:
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            self._seen, self._phones = None, {}
            return self._phones
        seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        if seen != self._seen:
            self._phones, self._seen = self._read(), seen
        return self._phones

    def _read(self) -> dict[str, Phone]:
        try:
            entries = json.loads(self.path.read_text(encoding="utf-8"))["phones"]
            return {e["id"]: Phone(**e) for e in entries}
        except FileNotFoundError:
            return {}
        except (ValueError, KeyError, TypeError) as exc:
            # Never guess who may write: a damaged list pairs nobody until a phone pairs again.
            raise PhonesDamaged(f"{self.path}: {exc}") from exc

    @contextmanager
    def _changing(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            self._keep_owner(fd)
            fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                phones = self._read()
            except PhonesDamaged:
                phones = {}
            now = self.clock()
            phones = {i: p for i, p in phones.items() if p.expires > now}
            yield phones
            self._write(phones)
            self._seen = None  # read it again next time
        finally:
            os.close(fd)

    def _write(self, phones: dict[str, Phone]) -> None:
        data = json.dumps({"phones": [asdict(p) for p in phones.values()]}, indent=1)
        replace_file(self.path, data.encode(), mode=0o600, before_rename=self._keep_owner)

    def _keep_owner(self, fd: int) -> None:
        """Root (`sudo scoreboard phones --revoke`) leaves the files to the folder's owner, the
        net service's user, which could no longer read a file of root's (mode 0600)."""
        if os.geteuid() == 0:
            folder = os.stat(self.path.parent)
            os.fchown(fd, folder.st_uid, folder.st_gid)


class PhonesDamaged(Exception):
    """phones.json cannot be read as a list of phones."""
