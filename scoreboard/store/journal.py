"""The power-cut-safe, append-only journal of the match in progress, and the archive of finished ones.

Format on disk (``<state_dir>/journal.log``): plain UTF-8 text, so ``cat`` shows the match log.
A record is one or more match-log lines followed by an end marker line::

    shot pots=2
    =9c1e2a07
    undo
    shot foul=push pots=1
    =0b5f44d2

The marker is ``=``, the CRC-32 of the record as eight lowercase hex digits, a space and the
record's sequence number in this journal (1, 2, ...); the CRC covers the record's line bytes
(each line with its ``\\n``) and then the number's digits, so neither can change unnoticed.
A record counts only once its marker is on disk, so a multi-line amendment ("undo" + new shot)
is all-or-nothing. The overhead is 12 to 16 bytes a record. Journals written before records were
numbered (a marker of the CRC alone) read as they always did.

The sequence number is the record's identity: a whole record that appears again (a retried
write whose first attempt did reach the disk after all, a copy gone wrong) carries a number
already seen with the same CRC; it is counted in ``duplicates`` and not replayed twice.

Opening replays the file and stops at the first thing that is not a whole, checksummed record
(a partial line, lines without a marker, a marker with the wrong CRC, control bytes or invalid
UTF-8). Everything from there on is copied to ``torn/NNNN.tail``, made durable, and only then cut
off the journal; the cut is reported as a `TornTail`. Nothing after a bad record is kept even if
it looks whole, because the match state is a fold over the log and may not skip an event.

Content lines may not be empty, contain control characters, or start with ``=`` (match-log
lines never do), so a marker cannot be forged by content.

``archive(meta)`` renames the journal to ``archive/NNNN.log`` beside ``archive/NNNN.json`` (the
caller's metadata) and starts an empty journal; each step is a rename made durable with a
directory fsync, so a power cut leaves either the old match in progress or the new empty one.

Only one process may use a state directory: it holds an exclusive ``flock`` on the directory
itself (not on a file in it, which could be deleted to let a second process in).
"""

import contextlib
import fcntl
import json
import os
import re
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from scoreboard.store.durable import fsync_dir, replace_file

JOURNAL_NAME = "journal.log"
ARCHIVE_DIR = "archive"
TORN_DIR = "torn"
MARKER = b"="
_NUMBERED = re.compile(r"^(\d{4,})\.(log|json|tail)$")


class JournalError(Exception):
    """The journal cannot be used: locked by another process, or the disk refused a write."""


@dataclass(frozen=True)
class TornTail:
    """What opening the journal cut off its end, and where those bytes were kept."""

    kept_bytes: int  # the journal's length after the cut: the end of the last whole record
    cut_bytes: int
    reason: str  # "partial record" | "bad checksum" | "garbage"
    saved_to: Path | None  # None when read without repairing (`read_journal`)

    def __str__(self) -> str:
        where = f"; kept in {self.saved_to}" if self.saved_to else ""
        return (
            f"journal: cut {self.cut_bytes} bytes after byte {self.kept_bytes}"
            f" ({self.reason}){where}"
        )


@dataclass(frozen=True)
class Replay:
    """The committed lines of a journal file, in order, and what follows them if not whole."""

    lines: list[str]
    torn: TornTail | None
    duplicates: int = 0  # whole records seen again (same number, same CRC), skipped
    # the highest record number read (0: none, or an unnumbered journal)
    last_seq: int = field(default=0, compare=False)


@dataclass(frozen=True)
class ArchivedMatch:
    """One finished match in ``archive/``: its number, its log file and the caller's metadata."""

    number: int
    log: Path
    meta: dict = field(compare=False)

    def lines(self) -> list[str]:
        return parse(self.log.read_bytes()).lines


def encode(lines: list[str], seq: int | None = None) -> bytes:
    """One record: the lines and their end marker, numbered ``seq`` if given (`Journal` always
    numbers its records). Raises ValueError for a line it cannot hold."""
    if not lines:
        raise ValueError("a journal record needs at least one line")
    body = b""
    for line in lines:
        if not isinstance(line, str) or not line or line.startswith("="):
            raise ValueError(f"not a journal line: {line!r}")
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in line):
            raise ValueError(f"control character in journal line: {line!r}")
        body += line.encode("utf-8") + b"\n"
    if seq is None:
        return body + MARKER + b"%08x\n" % zlib.crc32(body)
    return body + MARKER + b"%08x %d\n" % (zlib.crc32(b"%d" % seq, zlib.crc32(body)), seq)


def parse(data: bytes) -> Replay:
    """Split journal bytes into committed lines and a torn tail (reported, not saved)."""
    lines: list[str] = []
    pending: list[str] = []
    good = pos = 0
    crc = 0
    reason = "partial record"
    seen: dict[int, bytes] = {}  # record number -> its CRC, to know a repeated record
    last_seq = duplicates = 0
    while (end := data.find(b"\n", pos)) >= 0:
        raw = data[pos:end]
        if raw.startswith(MARKER):
            seq = _marker(raw, crc) if pending else None
            if seq is None:
                reason = "bad checksum"
                break
            if seq and seq <= last_seq:
                if seen.get(seq) != raw[1:9]:
                    reason = "record out of order"
                    break
                duplicates += 1  # the same whole record again: it happened once
            else:
                lines += pending
                if seq:
                    seen[seq], last_seq = raw[1:9], seq
            pending, crc, good = [], 0, end + 1
        else:
            text = _decode(raw)
            if text is None:
                reason = "garbage"
                break
            pending.append(text)
            crc = zlib.crc32(raw + b"\n", crc)
        pos = end + 1
    else:
        # A cut mid-line is a torn write, unless the bytes could never have been a line.
        if any(b < 0x20 or b == 0x7F for b in data[pos:]):
            reason = "garbage"
    torn = None if good == len(data) else TornTail(good, len(data) - good, reason, None)
    return Replay(lines, torn, duplicates, last_seq)


def _marker(raw: bytes, crc: int) -> int | None:
    """The record number a marker line ends its record with (0: unnumbered), or None if the
    marker does not match the record."""
    digits = raw[10:]
    if len(raw) == 9:
        return 0 if raw[1:] == b"%08x" % crc else None
    if raw[9:10] != b" " or not digits.isdigit() or digits.startswith(b"0"):
        return None
    return int(digits) if raw[1:9] == b"%08x" % zlib.crc32(digits, crc) else None


def _decode(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text or any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return None
    return text


def read_journal(state_dir: str | os.PathLike) -> Replay:
    """The journal as it is on disk, without locking or repairing it (for `status` and tests)."""
    path = Path(state_dir) / JOURNAL_NAME
    try:
        return parse(path.read_bytes())
    except FileNotFoundError:
        return Replay([], None)


def list_archive(state_dir: str | os.PathLike) -> list[ArchivedMatch]:
    """The archived matches, oldest first. A log whose metadata is unreadable gets ``{}``.

    Reads every match's metadata: for `history`, never on the way to the first frame."""
    folder = Path(state_dir) / ARCHIVE_DIR
    if not folder.is_dir():
        return []
    matches = []
    for log in folder.glob("*.log"):
        if not (m := _NUMBERED.match(log.name)):
            continue
        matches.append(ArchivedMatch(int(m.group(1)), log, _read_meta(log)))
    return sorted(matches, key=lambda a: a.number)


def last_archived(state_dir: str | os.PathLike, *, keep_index=False) -> ArchivedMatch | None:
    """The newest archived match, found through ``archive/last`` (one small file) however
    long the archive is; a missing or stale index falls back to listing the folder, and with
    ``keep_index`` writes the index so the next time is quick again."""
    folder = Path(state_dir) / ARCHIVE_DIR
    number = _indexed_number(folder)
    if number is None:
        number = _listed_number(folder, ".log")
        if number and keep_index:
            _write_index(folder, number)
    if not number:
        return None
    log = folder / f"{number:04d}.log"
    return ArchivedMatch(number, log, _read_meta(log))


def _read_meta(log: Path) -> dict:
    """An archived match's metadata; ``{}`` if it is missing, unreadable or not an object."""
    try:
        meta = json.loads(log.with_suffix(".json").read_bytes())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


class Journal:
    """The match in progress: replayed and repaired on opening, then appended record by record.

    ``lines`` holds every committed line, in order, and grows with each `append`; ``torn`` says
    what opening cut off (or None); ``duplicates`` how many repeated records replay skipped;
    ``bytes_written`` counts the bytes appended since opening. Only one process may hold a
    state directory's journal at a time: pass the fd of `lock_state_dir` as ``lock`` to keep
    holding the directory while journals are closed and opened again (it is then the
    caller's to close), or let the journal take it.
    """

    def __init__(self, state_dir: str | os.PathLike, *, clock=time.time, lock: int | None = None):
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / JOURNAL_NAME
        self.bytes_written = 0
        self._clock = clock
        self._fd = -1
        self._cut_failed = False  # a failed write left bytes the cut after it could not remove
        self._own_lock = lock is None
        self._lock = lock_state_dir(self.state_dir) if lock is None else lock
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    def _open(self) -> None:
        created = not self.path.exists()
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        if created:
            fsync_dir(self.state_dir)
        with open(self._fd, "rb", closefd=False) as f:
            data = f.read()
        replay = parse(data)
        self.lines = replay.lines
        self.duplicates = replay.duplicates
        self._seq = replay.last_seq
        self.torn = None if replay.torn is None else self._set_aside(data, replay.torn)
        self._size = len(data) if replay.torn is None else replay.torn.kept_bytes

    def _set_aside(self, data: bytes, torn: TornTail) -> TornTail:
        # Save the tail durably before cutting it, so a power cut in between loses nothing.
        saved = _write_durably(self.state_dir / TORN_DIR, ".tail", data[torn.kept_bytes :])
        os.ftruncate(self._fd, torn.kept_bytes)
        os.fsync(self._fd)
        return TornTail(torn.kept_bytes, torn.cut_bytes, torn.reason, saved)

    def append(self, lines: list[str]) -> None:
        """Add one record of one or more lines; returns once it is on disk (after fsync)."""
        lines = list(lines)
        record = encode(lines, self._seq + 1)
        if self._fd < 0:
            raise JournalError("the journal is closed")
        try:
            if self._cut_failed:
                self._cut()  # what the last failed write left goes first, or nothing goes
            written = 0
            while written < len(record):
                written += os.write(self._fd, record[written:])
            os.fsync(self._fd)
        except OSError as exc:
            self._undo_partial_write()
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from exc
        self._seq += 1
        self._size += len(record)
        self.bytes_written += len(record)
        self.lines.extend(lines)

    def _undo_partial_write(self) -> None:
        # A half-written record would swallow the next one on replay; cut it now. If even
        # that fails, the next append cuts it before writing (and fails if it still cannot),
        # so the records already safe are never followed by a fragment.
        try:
            self._cut()
        except OSError:
            self._cut_failed = True

    def _cut(self) -> None:
        os.ftruncate(self._fd, self._size)
        os.fsync(self._fd)
        self._cut_failed = False

    def archive(self, meta: dict) -> Path:
        """Move the journal to ``archive/NNNN.log`` with ``meta`` beside it; start an empty one."""
        if self._fd < 0:
            raise JournalError("the journal is closed")
        folder = self.state_dir / ARCHIVE_DIR
        meta = {"archived_at": _iso(self._clock()), **meta}
        text = json.dumps(meta, ensure_ascii=False, indent=1).encode("utf-8")
        try:
            if self._cut_failed:
                self._cut()  # never archive a fragment
            meta_path = _write_durably(folder, ".json", text)
            log_path = meta_path.with_suffix(".log")
            os.rename(self.path, log_path)
            fsync_dir(folder)
            os.close(self._fd)
            self._fd = -1
            self._open()  # creates the empty journal and fsyncs the state directory
        except OSError as exc:
            raise JournalError(f"cannot archive the journal: {exc}") from exc
        _write_index(folder, int(log_path.stem))
        return log_path

    def unarchive(self, number: int) -> None:
        """Put archived match ``number`` back as the journal in progress, in place of this one
        (UNDO right after an accidental new match). One rename: a power cut leaves either."""
        if self._fd < 0:
            raise JournalError("the journal is closed")
        folder = self.state_dir / ARCHIVE_DIR
        try:
            os.close(self._fd)
            self._fd = -1
            os.rename(folder / f"{number:04d}.log", self.path)
            fsync_dir(self.state_dir)
            (folder / f"{number:04d}.json").unlink(missing_ok=True)
            fsync_dir(folder)
            _write_index(folder, _listed_number(folder, ".log"))
            self._open()
        except OSError as exc:
            raise JournalError(f"cannot bring back archived match {number}: {exc}") from exc

    def list_archive(self) -> list[ArchivedMatch]:
        return list_archive(self.state_dir)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        if self._own_lock and self._lock >= 0:
            os.close(self._lock)
        self._lock = -1

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _make_dirs(path: Path) -> None:
    """Create ``path`` and any missing parents, fsyncing each parent that gained an entry."""
    if path.is_dir():
        return
    _make_dirs(path.parent)
    path.mkdir(exist_ok=True)
    fsync_dir(path.parent)


def lock_state_dir(state_dir: str | os.PathLike) -> int:
    """Create the state directory if need be and lock it for this process: the fd to keep.

    The lock is an exclusive ``flock`` on the directory itself, so no file someone deletes
    lets a second process in. JournalError if another process holds it; OSError if the
    directory cannot be made or opened (a file in its place, a read-only parent ...)."""
    path = Path(state_dir)
    _make_dirs(path)
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise JournalError(f"{path} is in use by another scoreboard process") from None
    return fd


INDEX_NAME = "last"  # in archive/: the number of the newest archived match


def _last_number(folder: Path, suffix: str) -> int:
    """The highest ``NNNN<suffix>`` in ``folder`` (0: none)."""
    number = _indexed_number(folder)
    return _listed_number(folder, suffix) if number is None else number


def _indexed_number(folder: Path) -> int | None:
    """The archive's index, if what it says is there and nothing after it is (else None)."""
    try:
        number = int((folder / INDEX_NAME).read_text(encoding="ascii"))
        if (folder / f"{number:04d}.log").exists() and not any(
            (folder / f"{number + 1:04d}{s}").exists() for s in (".log", ".json")
        ):
            return number
    except (OSError, ValueError):
        pass
    return None


def _listed_number(folder: Path, suffix: str) -> int:
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return 0
    return max(
        (int(m.group(1)) for n in names if (m := _NUMBERED.match(n)) and n.endswith(suffix)),
        default=0,
    )


def _write_index(folder: Path, number: int) -> None:
    # Only a shortcut: if it cannot be written, finding the newest match lists the folder.
    tmp = folder / (INDEX_NAME + ".tmp")
    try:
        tmp.write_bytes(b"%d" % number)
        os.rename(tmp, folder / INDEX_NAME)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)  # nothing left behind in the archive


def _write_durably(folder: Path, suffix: str, data: bytes) -> Path:
    """Write ``data`` to the next free ``folder/NNNN<suffix>`` via a temporary file and rename."""
    _make_dirs(folder)
    path = folder / f"{_last_number(folder, '') + 1:04d}{suffix}"
    replace_file(path, data)
    return path
