"""The journal's refusals and error paths: what it reads as garbage, and what a failure leaves."""

import errno
import fcntl
import os
import zlib

import pytest

from scoreboard import journal
from scoreboard.journal import Journal, JournalError, encode, parse

RECORD = encode(["break A"], 1)


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def whole(body: bytes, seq: int) -> bytes:
    """A record around ``body`` with a correct marker, whatever the body holds."""
    return body + b"=%08x %d\n" % (zlib.crc32(b"%d" % seq, zlib.crc32(body)), seq)


@pytest.mark.parametrize("line", [b"shot\x01pots=1", b"shot\x7f", b"\x1b[2J", b""])
def test_a_checksummed_line_holding_a_control_character_is_garbage(line):
    data = RECORD + whole(line + b"\n", 2)
    replay = parse(data)
    assert replay.lines == ["break A"]
    assert (replay.torn.kept_bytes, replay.torn.reason) == (len(RECORD), "garbage")


def test_replay_stops_at_the_first_garbage_and_keeps_nothing_after_it():
    after = encode(["shot pots=1"], 2)
    replay = parse(RECORD + b"\xff\xfe\n" + after)
    assert replay.lines == ["break A"]
    assert replay.torn.kept_bytes == len(RECORD)
    assert replay.torn.cut_bytes == 3 + len(after)
    assert replay.torn.reason == "garbage"


def test_a_journal_that_cannot_be_opened_raises_and_lets_go_of_the_directory(tmp_path):
    (tmp_path / journal.JOURNAL_NAME).mkdir()  # a folder where the journal file should be
    before = open_fds()
    with pytest.raises(IsADirectoryError):
        Journal(tmp_path)
    assert open_fds() == before
    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # nobody holds the lock any more
    finally:
        os.close(fd)


def test_archiving_match_after_match_leaks_no_descriptor(tmp_path):
    with Journal(tmp_path) as j:
        j.append(["break A"])
        j.archive({})
        before = open_fds()
        for n in range(40):
            j.append([f"players A{n} B"])
            j.archive({"n": n})
        assert open_fds() == before
    assert len(journal.list_archive(tmp_path)) == 41


def test_closing_the_journal_closes_its_file_and_its_lock(tmp_path):
    before = open_fds()
    j = Journal(tmp_path)
    j.append(["break A"])
    j.close()
    assert open_fds() == before
    j.close()  # twice is harmless
    with Journal(tmp_path) as again:  # the directory is free again
        assert again.lines == ["break A"]


def test_a_failed_write_and_its_undo_leak_no_descriptor(tmp_path, monkeypatch):
    with Journal(tmp_path) as j:
        j.append(["break A"])
        before = open_fds()

        def full(fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(journal.os, "write", full)
        with pytest.raises(JournalError, match="cannot write the journal .*No space left"):
            j.append(["shot pots=1"])
        monkeypatch.undo()
        assert open_fds() == before
        j.append(["shot pots=2"])
    assert journal.read_journal(tmp_path).lines == ["break A", "shot pots=2"]


def test_an_archive_the_disk_refuses_is_an_error_and_the_match_stays(tmp_path):
    (tmp_path / journal.ARCHIVE_DIR).write_text("a file where the archive folder goes")
    with Journal(tmp_path) as j:
        j.append(["break A"])
        with pytest.raises(JournalError, match="^cannot archive the journal: "):
            j.archive({})
        j.append(["shot pots=1"])  # still the match in progress
        assert j.lines == ["break A", "shot pots=1"]
    assert journal.read_journal(tmp_path).lines == ["break A", "shot pots=1"]


def test_a_closed_journal_refuses_appends_and_archives(tmp_path):
    j = Journal(tmp_path)
    j.close()
    with pytest.raises(JournalError, match="^the journal is closed$"):
        j.append(["break A"])
    with pytest.raises(JournalError, match="^the journal is closed$"):
        j.archive({})
