"""The journal as the app uses it: every accepted record kept, whatever the disk does.

When the disk takes a record, it is durable (fsync) before the app shows it, as always.
When the state directory cannot take it (full, read-only, no permission, a file where the
folder should be or a folder where the journal should be, an I/O error), the app still
shows the step and play goes on: the record stays here, in memory and in order, the
displays carry a "not saved" fault that says what is wrong, where and what to do, and the
records are written the moment the disk takes them again (`retry`: on a timer of the
loop and before each new event). Only then are board pots in them acked, so the sensor
board keeps its own copy of every ball until it is on disk. A power cut while not saved
loses what the screens marked as not saved, never anything they showed as saved.

Opening follows the same rule: a journal that cannot be opened is read if it can be (the
match goes on from there) or else a new match starts in memory. When the disk comes back,
whatever the journal then holds that the app did not know is archived as set aside, never
overwritten, and the records kept in memory follow.
"""

import errno
import os
import time
from dataclasses import dataclass
from pathlib import Path

from scoreboard.store.journal import (
    JOURNAL_NAME,
    Journal,
    JournalError,
    last_archived,
    lock_state_dir,
    read_journal,
)
from scoreboard.texts.messages import DISK_ADVICE, DISK_SAID

RETRY_SECONDS = 2.0  # how often the loop tries the disk again while records wait
FULL_BELOW_BYTES = 4096  # `diagnose` calls a disk with less than this free full

# What is wrong, by errno; the display and the log word each the same way.
PROBLEMS = {
    errno.ENOSPC: "full",
    errno.EDQUOT: "full",
    errno.EROFS: "read-only",
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.ENOTDIR: "not-a-folder",
    errno.EEXIST: "not-a-folder",
    errno.EISDIR: "folder",
}


@dataclass(frozen=True)
class StorageFault:
    """Why records cannot be written: a `problem` (a key of texts.messages DISK_SAID), the path and the OS's word."""

    problem: str
    path: str
    detail: str

    def __str__(self) -> str:
        return (
            f"{DISK_SAID[self.problem]}: {self.path} ({self.detail}); {DISK_ADVICE[self.problem]}"
        )


def classify(exc: BaseException, path: str | os.PathLike) -> StorageFault:
    """The fault an exception from writing `path` (or its folder) means."""
    cause = exc
    while not isinstance(cause, OSError) and cause.__cause__ is not None:
        cause = cause.__cause__
    if isinstance(exc, JournalError) and "in use" in str(exc):
        return StorageFault("in-use", str(path), str(exc))
    if isinstance(cause, OSError) and cause.errno is not None:
        where = cause.filename if cause.filename else path
        # mkdir over a file says "File exists": the same fault as any file in the folder's way.
        code = errno.ENOTDIR if cause.errno == errno.EEXIST else cause.errno
        return StorageFault(PROBLEMS.get(code, "broken"), str(where), os.strerror(code))
    return StorageFault("broken", str(path), str(exc))


def diagnose(state_dir: str | os.PathLike) -> StorageFault | None:
    """What the running appliance would meet writing its journal, found without writing:
    `scoreboard status` says it in the same words as the appliance's log."""
    folder = Path(state_dir)
    journal = folder / JOURNAL_NAME
    try:
        if not folder.exists():
            if not os.access(_existing_parent(folder), os.W_OK):
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(folder))
            return None
        if not folder.is_dir():
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
        if journal.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(journal))
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(journal))
        if journal.exists():
            os.close(os.open(journal, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC))
        elif not os.access(folder, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(journal))
        disk = os.statvfs(folder)
        if disk.f_bavail * disk.f_frsize < FULL_BELOW_BYTES:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(journal))
    except OSError as exc:
        return classify(exc, journal)
    return None


def _existing_parent(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


class Storage:
    """The match in progress as the app has it (`lines`), written to the journal when it can be.

    `append` and `archive` never raise for the disk's sake: they return True when what they
    were given is durable, False when it waits in `pending` (and `fault` says why).
    `on_durable(lines)` is called for each record once it is on disk.
    """

    def __init__(
        self, state_dir: str | os.PathLike, *, clock=time.time, log=print, warn=print
    ) -> None:
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / JOURNAL_NAME
        self.log, self.warn = log, warn
        self.on_durable = lambda lines: None
        self.fault: StorageFault | None = None
        self.lines: list[str] = []
        self.pending: list[tuple[str, object]] = []  # ("append", lines) | ("archive", meta)
        self.bytes_written = 0
        self._clock = clock
        self._journal: Journal | None = None
        self._disk: list[str] | None = None  # what we know the journal holds (None: unknown)
        self._lock = -1
        self._timer = None
        self._ticks = 0
        try:
            # First of all, so a second `scoreboard run` stops (JournalError) before it
            # touches a display.
            self._lock = lock_state_dir(self.state_dir)
        except OSError as exc:
            self._fail(exc)  # taken again with the journal once the folder is usable

    # -- start ---------------------------------------------------------------------------------
    def start(self) -> list[str]:
        """Open the journal (or read what can be read of it); the lines to go on from."""
        if self._open(first=True):
            self.fault = None
            return self.lines
        try:
            self._disk = read_journal(self.state_dir).lines
        except OSError:
            self._disk = None  # unreadable: the app starts a new match in memory
        self.lines = list(self._disk or [])
        return self.lines

    def _open(self, *, first: bool = False) -> bool:
        try:
            if self._lock < 0:
                self._lock = lock_state_dir(self.state_dir)
            journal = Journal(self.state_dir, clock=self._clock, lock=self._lock)
        except (JournalError, OSError) as exc:
            self._fail(exc)
            return False
        self._journal = journal
        if journal.torn:
            self.warn(str(journal.torn))
        if journal.duplicates:
            self.warn(f"journal: {journal.duplicates} repeated record(s) read once")
        if first:
            self._disk, self.lines = list(journal.lines), list(journal.lines)
            return True
        try:
            self._reconcile(journal.lines)
        except (JournalError, OSError) as exc:
            self._fail(exc)
            self._drop_journal()
            return False
        return True

    def _reconcile(self, found: list[str]) -> None:
        """The journal opened again after a fault: take up where the disk really is."""
        known = self._disk
        if known is None and not found:
            self._disk = []
            return
        if known is not None and found[: len(known)] == known:
            extra = found[len(known) :]
            # Records whose write was reported failed may have reached the disk after all.
            while extra and self.pending and self.pending[0][0] == "append":
                record = self.pending[0][1]
                if extra[: len(record)] != record:
                    break
                extra = extra[len(record) :]
                self._done(self.pending.pop(0))
                known = known + record
            if not extra:
                self._disk = known
                return
        if self.pending and self.pending[0][0] == "archive" and not found:
            archived = last_archived(self.state_dir)
            if archived is not None and known is not None and archived.lines() == known:
                self._done(self.pending.pop(0))  # the archive was made before its error
                self._disk = []
                return
        # Something the app did not know is there: keep it, and write the app's after it.
        path = self._journal.archive(
            {"set_aside": "found in the journal when the disk could be written again"}
        )
        self.warn(f"journal: {len(found)} line(s) the scoreboard did not know set aside in {path}")
        if known:
            self.pending.insert(0, ("append", list(known)))
        self._disk = []

    # -- writing -------------------------------------------------------------------------------
    def append(self, lines: list[str]) -> bool:
        """Add a record to the match in progress; True once it is durable."""
        lines = list(lines)
        self.lines.extend(lines)
        self.pending.append(("append", lines))
        return self.retry()

    def archive(self, meta: dict) -> bool:
        """Close the match in progress into the archive and start an empty one."""
        self.lines = []
        self.pending.append(("archive", dict(meta)))
        return self.retry()

    def unarchive(self, number: int) -> bool:
        """Bring archived match ``number`` back as the match in progress; only while every
        record is on disk (else False, and nothing changes)."""
        if self.pending or self.fault is not None or self._journal is None:
            return False
        try:
            self._journal.unarchive(number)
        except (JournalError, OSError) as exc:
            self._fail(exc)
            self._drop_journal()
            return False
        self.lines = list(self._journal.lines)
        return True

    def retry(self) -> bool:
        """Write what waits, in order; True when nothing is left waiting (and the disk is fine)."""
        if not self.pending and self.fault is None:
            return True
        if self._journal is None and not self._open():
            return False
        while self.pending:
            kind, what = self.pending[0]
            before = self._journal.bytes_written
            try:
                if kind == "append":
                    self._journal.append(what)
                else:
                    path = self._journal.archive(what)
            except (JournalError, OSError) as exc:
                self._fail(exc)
                self._drop_journal()  # opened afresh next time: the disk may have changed
                return False
            self.bytes_written += self._journal.bytes_written - before
            if kind == "archive":
                self.log(f"match archived as {path}")
            self._done(self.pending.pop(0))
        if self.fault is not None:
            self.log(f"storage: the journal is written again; all is saved in {self.state_dir}")
            self.fault = None
        return True

    def _done(self, op) -> None:
        kind, what = op
        if kind == "append":
            self._disk = (self._disk or []) + what
            self.on_durable(what)
        else:
            self._disk = []

    def _fail(self, exc: BaseException) -> None:
        fault = classify(exc, self.path)
        if fault != self.fault:  # once per fault in the system journal, not per retry
            self.warn(f"storage: {fault}; play goes on, not saved")
        self.fault = fault

    def _drop_journal(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    # -- the loop ------------------------------------------------------------------------------
    def keep_trying(self, call_later, changed) -> None:
        """While records wait, try again every RETRY_SECONDS on the loop; `changed()` after
        each try (the displays' fault may have turned a page or gone)."""
        if self._timer is not None or (not self.pending and self.fault is None):
            return

        def tick():
            self._timer = None
            self._ticks += 1
            self.retry()
            changed()
            self.keep_trying(call_later, changed)

        self._timer = call_later(RETRY_SECONDS, tick)

    def shown_fault(self) -> dict | None:
        """The fault for the displays, or None when all is saved. Its `page` turns with each
        try, so a small display shows in turn what is wrong, where, and what to do."""
        if self.fault is None and not self.pending:
            return None
        fault = self.fault or StorageFault("broken", str(self.path), "")
        return {
            "kind": "not-saved",
            "problem": fault.problem,
            "path": fault.path,
            "page": self._ticks,  # the display takes it modulo its number of pages
        }

    def close(self) -> None:
        self._drop_journal()
        if self._lock >= 0:
            os.close(self._lock)
            self._lock = -1
