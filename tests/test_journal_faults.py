"""The journal's refusals and error paths: what it reads as garbage, and what a failure leaves."""

import errno
import fcntl
import gc
import os
import zlib
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scoreboard.store import journal
from scoreboard.store.journal import Journal, JournalError, encode, parse

RECORD = encode(["break A"], 1)


@contextmanager
def descriptor_0_closed():
    """Descriptor 0 closed, as a daemon started with stdin closed has it: the next file
    opened gets fd 0. Put back after."""
    saved = os.dup(0)
    os.close(0)
    try:
        yield
    finally:
        os.dup2(saved, 0)
        os.close(saved)


@contextmanager
def journal_on_descriptor_0(state_dir):
    """A journal whose file is fd 0 (its lock taken first, so the file gets the 0)."""
    lock = journal.lock_state_dir(state_dir)
    try:
        with descriptor_0_closed():
            j = Journal(state_dir, lock=lock)
            assert j._fd == 0
            yield j
    finally:
        os.close(lock)


def open_fds() -> int:
    # Collect first: a file object some earlier test left unclosed is closed whenever the
    # garbage collector happens to run, which would move the count without this test's doing.
    gc.collect()
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
    j.close()  # twice is harmless: it closes no descriptor of anyone else's (stdout's 1)
    assert open_fds() == before
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


def fail_after_half_a_record(monkeypatch):
    """The next write puts half its bytes on disk, and the one after finds the disk full."""
    real_write = os.write

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    def half(fd, data):
        monkeypatch.setattr(journal.os, "write", full)
        return real_write(fd, data[: len(data) // 2])

    monkeypatch.setattr(journal.os, "write", half)


def test_a_record_half_written_when_the_disk_fills_is_cut_back_to_every_record_before_it(
    tmp_path, monkeypatch
):
    path = tmp_path / journal.JOURNAL_NAME
    with Journal(tmp_path) as j:
        j.append(["break A"])
        j.append(["shot pots=1"])
        j.append(["shot"])
        before = path.read_bytes()
        fail_after_half_a_record(monkeypatch)
        with pytest.raises(JournalError, match="No space left"):
            j.append(["shot pots=2"])
        assert path.read_bytes() == before  # the half record is gone, and only it
        monkeypatch.undo()
        j.append(["shot pots=3"])
    assert journal.read_journal(tmp_path).lines == ["break A", "shot pots=1", "shot", "shot pots=3"]


def test_after_a_torn_tail_is_set_aside_a_half_written_record_is_cut_back_to_the_good_records(
    tmp_path, monkeypatch
):
    # The journal opened on a torn tail is shorter than the file was: a failed write
    # afterwards cuts back to the good records, never to the old length (zeros, then the
    # next record after them, unreadable).
    path = tmp_path / journal.JOURNAL_NAME
    good = encode(["break A"], 1) + encode(["shot pots=1"], 2)
    path.write_bytes(good + encode(["shot"], 3)[:-4])
    with Journal(tmp_path) as j:
        assert j.torn is not None and path.read_bytes() == good
        fail_after_half_a_record(monkeypatch)
        with pytest.raises(JournalError, match="No space left"):
            j.append(["shot pots=2"])
        assert path.read_bytes() == good
        monkeypatch.undo()
        j.append(["shot pots=3"])
    assert journal.read_journal(tmp_path).lines == ["break A", "shot pots=1", "shot pots=3"]


@pytest.mark.parametrize("marker", [b"=00000000", b"=%08x 2" % zlib.crc32(b"2")])
def test_an_end_marker_with_no_lines_before_it_is_no_record_and_the_replay_stops_there(marker):
    # Its checksum matches an empty record (unnumbered, or numbered 2), but a record has a line.
    first = encode(["break A"], 1)
    replay = parse(first + marker + b"\n" + encode(["shot"], 3))
    assert replay.lines == ["break A"]
    assert (replay.torn.kept_bytes, replay.torn.reason) == (len(first), "bad checksum")


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


def test_a_torn_tail_says_what_was_cut_and_where_it_was_kept(tmp_path):
    torn = journal.TornTail(10, 5, "garbage", None)
    assert str(torn) == "journal: cut 5 bytes after byte 10 (garbage)"
    kept = journal.TornTail(10, 5, "bad checksum", tmp_path / "torn" / "0001.tail")
    assert str(kept) == (
        f"journal: cut 5 bytes after byte 10 (bad checksum); kept in {tmp_path}/torn/0001.tail"
    )


def test_archive_metadata_is_indented_utf8_text_with_the_time_it_was_archived(tmp_path):
    with Journal(tmp_path, clock=lambda: 86400.0) as j:
        j.append(["players Олена Тарас"])
        log = j.archive({"players": "Олена Тарас"})
    assert (
        log.with_suffix(".json").read_bytes()
        == ('{\n "archived_at": "1970-01-02T00:00:00Z",\n "players": "Олена Тарас"\n}').encode()
    )
    newest = journal.last_archived(tmp_path)
    assert newest.meta == {"archived_at": "1970-01-02T00:00:00Z", "players": "Олена Тарас"}
    assert journal.list_archive(tmp_path)[0].meta == newest.meta


@pytest.mark.parametrize("text", [b"[1, 2]", b'"a string"', b"{not json", b"\xff\xfe"])
def test_archive_metadata_that_is_not_a_json_object_reads_as_empty(tmp_path, text):
    with Journal(tmp_path) as j:
        j.append(["break A"])
        log = j.archive({})
    log.with_suffix(".json").write_bytes(text)
    assert journal.last_archived(tmp_path).meta == {}
    assert journal.list_archive(tmp_path)[0].meta == {}


def test_after_a_failed_write_is_undone_each_record_is_one_fsync_again(tmp_path, monkeypatch):
    synced = []
    real_fsync, real_write = os.fsync, os.write
    with Journal(tmp_path) as j:
        j.append(["break A"])

        def full(fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", full)
        with pytest.raises(JournalError):
            j.append(["shot pots=1"])
        monkeypatch.setattr(os, "write", real_write)
        monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))
        j.append(["shot pots=2"])
        j.append(["shot"])
    assert len(synced) == 2  # no cut left to redo: one fsync a record


def test_a_journal_on_descriptor_0_works(tmp_path):
    # A daemon started with stdin closed gets fd 0 for the first file it opens.
    with journal_on_descriptor_0(tmp_path) as j:
        j.append(["break A"])
        j.archive({})
        j.append(["break B"])
        j.close()
    assert journal.read_journal(tmp_path).lines == ["break B"]
    assert journal.last_archived(tmp_path).lines() == ["break A"]


def test_records_are_numbered_one_by_one_from_1(tmp_path):
    with Journal(tmp_path) as j:
        j.append(["break A"])
        j.append(["shot pots=1", "shot"])
    assert (tmp_path / journal.JOURNAL_NAME).read_bytes() == (
        encode(["break A"], 1) + encode(["shot pots=1", "shot"], 2)
    )


def test_a_new_journal_that_cannot_be_made_after_an_archive_leaves_it_closed(tmp_path, monkeypatch):
    real_open = os.open
    with Journal(tmp_path) as j:
        j.append(["break A"])

        def refuse_the_new_journal(path, *args, **kwargs):
            if os.fspath(path).endswith(journal.JOURNAL_NAME):
                raise OSError(errno.EROFS, "Read-only file system")
            return real_open(path, *args, **kwargs)

        monkeypatch.setattr(os, "open", refuse_the_new_journal)
        with pytest.raises(JournalError, match="^cannot archive the journal: .*Read-only"):
            j.archive({})
        monkeypatch.setattr(os, "open", real_open)
        # The match went to the archive; with no journal open, nothing is written anywhere.
        with pytest.raises(JournalError, match="^the journal is closed$"):
            j.append(["break B"])
    assert journal.last_archived(tmp_path).lines() == ["break A"]


def test_files_the_journal_writes_are_rw_r__r_and_a_stale_temporary_is_overwritten(tmp_path):
    folder = tmp_path / journal.ARCHIVE_DIR
    folder.mkdir(parents=True)
    (folder / "0001.json.tmp").write_bytes(b"x" * 4096)  # left by a power cut
    old = os.umask(0o022)
    try:
        with Journal(tmp_path, clock=lambda: 0.0) as j:
            j.append(["break A"])
            log = j.archive({})
            j.append(["break B"])
            second = j.archive({})  # no stale temporary this time: the file is made anew
    finally:
        os.umask(old)
    assert log.with_suffix(".json").read_bytes() == b'{\n "archived_at": "1970-01-01T00:00:00Z"\n}'
    for made in (second.with_suffix(".json"), tmp_path / journal.JOURNAL_NAME):
        assert oct(made.stat().st_mode & 0o777) == oct(0o644), made


def archived_twice_and_a_new_match(state_dir) -> Journal:
    j = Journal(state_dir)
    j.append(["break A"])
    j.archive({})
    j.append(["break B"])
    j.archive({})
    j.append(["players X Y"])  # the accidental new match
    return j


def test_unarchive_brings_the_match_back_in_place_of_the_new_one_and_the_index_follows(tmp_path):
    with archived_twice_and_a_new_match(tmp_path) as j:
        j.unarchive(2)
        assert j.lines == ["break B"]
        j.append(["shot pots=1"])  # play goes on in the match brought back
    assert journal.read_journal(tmp_path).lines == ["break B", "shot pots=1"]
    assert [a.number for a in journal.list_archive(tmp_path)] == [1]
    folder = tmp_path / journal.ARCHIVE_DIR
    assert not (folder / "0002.json").exists()
    assert (folder / journal.INDEX_NAME).read_bytes() == b"1"
    assert journal.last_archived(tmp_path).lines() == ["break A"]


def test_unarchive_of_a_match_whose_metadata_is_gone_still_brings_it_back(tmp_path):
    with archived_twice_and_a_new_match(tmp_path) as j:
        (tmp_path / journal.ARCHIVE_DIR / "0002.json").unlink()
        j.unarchive(2)
        assert j.lines == ["break B"]


def test_unarchive_of_a_match_not_in_the_archive_is_an_error_and_leaves_the_journal_closed(
    tmp_path,
):
    with archived_twice_and_a_new_match(tmp_path) as j:
        with pytest.raises(JournalError, match="^cannot bring back archived match 7: "):
            j.unarchive(7)
        # Its file was closed on the way: nothing is written anywhere after the failure.
        with pytest.raises(JournalError, match="^the journal is closed$"):
            j.append(["break B"])
        with pytest.raises(JournalError, match="^the journal is closed$"):
            j.unarchive(2)


def test_a_closed_journal_refuses_to_unarchive(tmp_path):
    j = archived_twice_and_a_new_match(tmp_path)
    j.close()
    with pytest.raises(JournalError, match="^the journal is closed$"):
        j.unarchive(2)
    assert [a.number for a in journal.list_archive(tmp_path)] == [1, 2]


def test_a_journal_on_descriptor_0_can_bring_back_an_archived_match(tmp_path):
    with journal_on_descriptor_0(tmp_path) as j:
        j.append(["break A"])
        j.archive({})
        j.append(["players X Y"])
        j.unarchive(1)
        j.append(["shot pots=1"])
        j.close()
    assert journal.read_journal(tmp_path).lines == ["break A", "shot pots=1"]


def archive_files(state_dir) -> dict[str, bytes]:
    folder = state_dir / journal.ARCHIVE_DIR
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_finding_the_newest_match_without_keep_index_writes_nothing_to_the_archive(tmp_path):
    # `status` and `history` only read: a missing index is not mended unless asked.
    with Journal(tmp_path) as j:
        for n in range(2):
            j.append([f"race {n + 1}"])
            j.archive({"n": n})
    (tmp_path / journal.ARCHIVE_DIR / journal.INDEX_NAME).unlink()
    before = archive_files(tmp_path)
    assert journal.last_archived(tmp_path).number == 2
    assert archive_files(tmp_path) == before
    assert journal.last_archived(tmp_path, keep_index=True).number == 2
    assert archive_files(tmp_path) == {**before, journal.INDEX_NAME: b"2"}


def test_an_index_the_disk_will_not_take_leaves_no_temporary_in_the_archive(tmp_path):
    # A directory where the index goes: the rename fails, the match is archived all the same,
    # and the archive holds only the matches (the index is only a shortcut).
    with Journal(tmp_path) as j:
        j.append(["race 1"])
        (tmp_path / journal.ARCHIVE_DIR / journal.INDEX_NAME).mkdir(parents=True)
        (tmp_path / journal.ARCHIVE_DIR / journal.INDEX_NAME / "x").write_bytes(b"")
        j.archive({})
    assert sorted(archive_files_but_the_index(tmp_path)) == ["0001.json", "0001.log"]
    assert journal.last_archived(tmp_path).lines() == ["race 1"]


def test_a_folder_where_the_index_temporary_goes_is_no_error_and_the_match_is_archived(tmp_path):
    # Neither written nor removable: the index is only a shortcut, so archiving goes on.
    with Journal(tmp_path) as j:
        j.append(["race 1"])
        (tmp_path / journal.ARCHIVE_DIR / (journal.INDEX_NAME + ".tmp") / "x").mkdir(parents=True)
        j.archive({})
    assert journal.last_archived(tmp_path).lines() == ["race 1"]


def archive_files_but_the_index(state_dir) -> list[str]:
    folder = state_dir / journal.ARCHIVE_DIR
    return [p.name for p in folder.iterdir() if p.name != journal.INDEX_NAME]


def test_with_a_good_index_the_newest_match_is_found_without_listing_the_archive(
    tmp_path, monkeypatch
):
    with Journal(tmp_path) as j:
        for n in range(3):
            j.append([f"race {n + 1}"])
            j.archive({"n": n})
    monkeypatch.setattr(os, "listdir", lambda path=".": pytest.fail(f"listed {path}"))
    newest = journal.last_archived(tmp_path)
    assert (newest.number, newest.lines(), newest.meta["n"]) == (3, ["race 3"], 2)


def test_with_a_good_index_the_next_match_is_archived_without_listing_the_archive(
    tmp_path, monkeypatch
):
    with Journal(tmp_path) as j:
        j.append(["race 1"])
        j.archive({})
        j.append(["race 2"])
        monkeypatch.setattr(os, "listdir", lambda path=".": pytest.fail(f"listed {path}"))
        assert j.archive({}).name == "0002.log"
        monkeypatch.undo()
    assert archive_files(tmp_path)[journal.INDEX_NAME] == b"2"
    assert journal.last_archived(tmp_path).lines() == ["race 2"]


@given(st.integers(2, 10**6), st.integers(2, 10**6))
def test_a_record_renumbered_after_its_crc_was_taken_is_a_bad_checksum(seq, other):
    assume(other != seq)
    good = encode(["shot pots=1"], seq)
    renumbered = good.replace(b" %d\n" % seq, b" %d\n" % other)
    replay = parse(RECORD + renumbered)
    assert replay.lines == ["break A"]
    assert (replay.torn.kept_bytes, replay.torn.reason) == (len(RECORD), "bad checksum")


@pytest.mark.parametrize("tail", [b"_2", b"\t2", b"02", b" 02", b" 2x", b" +2", b" ", b"  2"])
def test_a_marker_is_the_crc_a_space_and_the_number_in_plain_decimal_without_leading_zeros(tail):
    # Even with its CRC right for the digits it carries, no other spelling is a record's end.
    body = b"shot pots=1\n"
    digits = tail[1:]
    data = RECORD + body + b"=%08x" % zlib.crc32(digits, zlib.crc32(body)) + tail + b"\n"
    replay = parse(data)
    assert replay.lines == ["break A"]
    assert (replay.torn.kept_bytes, replay.torn.reason) == (len(RECORD), "bad checksum")


def test_closing_a_journal_on_descriptor_0_closes_descriptor_0(tmp_path):
    # fd 0 is a file like any other: a journal holding it must let it go, or it leaks.
    with journal_on_descriptor_0(tmp_path) as j:
        j.close()
        with pytest.raises(OSError) as closed:
            os.fstat(0)
        assert closed.value.errno == errno.EBADF


def test_closing_a_journal_whose_own_lock_is_descriptor_0_closes_descriptor_0(tmp_path):
    with descriptor_0_closed():
        j = Journal(tmp_path)  # takes the lock itself: the directory is opened first, as fd 0
        assert j._lock == 0
        j.close()
        with pytest.raises(OSError) as closed:
            os.fstat(0)
        assert closed.value.errno == errno.EBADF
    with Journal(tmp_path):  # and the directory is free again
        pass


def fds_in(folder: Path) -> set[int]:
    """This process's descriptors open on files in `folder`."""
    found = set()
    for name in os.listdir("/proc/self/fd"):
        with suppress(OSError):  # the listing's own descriptor, closed by now
            if os.readlink(f"/proc/self/fd/{name}").startswith(f"{folder}/"):
                found.add(int(name))
    return found


def test_closing_a_journal_twice_closes_no_one_elses_descriptor(tmp_path):
    j = Journal(tmp_path)
    its_own = fds_in(tmp_path)  # the journal and its lock
    j.close()
    # Files opened now get the lowest free numbers, so soon the ones the journal freed: a
    # second close that still believed in its old numbers would close them.
    others: list[int] = []
    try:
        while not its_own <= set(others):
            assert len(others) <= max(its_own), "the freed numbers are never given again"
            others.append(os.open(tmp_path / f"other-{len(others)}", os.O_RDWR | os.O_CREAT))
        j.close()
        for fd in others:
            os.fstat(fd)  # still open (EBADF if the journal closed it)
    finally:
        for fd in others:
            with suppress(OSError):
                os.close(fd)


def test_a_state_folder_another_process_makes_at_the_same_moment_is_no_error(tmp_path, monkeypatch):
    # Two processes starting together on a fresh card both find the folders missing; the one
    # that makes them second must still get to the lock (or its refusal), not FileExistsError.
    real_mkdir = Path.mkdir

    def the_other_process_was_first(self, *args, **kwargs):
        os.mkdir(self)
        return real_mkdir(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", the_other_process_was_first)
    with Journal(tmp_path / "var" / "scoreboard") as j:
        j.append(["break A"])
        j.archive({})
    monkeypatch.undo()
    assert journal.last_archived(tmp_path / "var" / "scoreboard").lines() == ["break A"]


def test_a_file_in_the_state_folders_place_once_made_is_refused_not_locked(tmp_path, monkeypatch):
    # The folder was there when made, then something put a file in its place: the lock is
    # taken only on a directory, and nothing stays open.
    place = tmp_path / "state"
    place.write_text("not a folder")
    monkeypatch.setattr(journal, "_make_dirs", lambda path: None)
    before = open_fds()
    with pytest.raises(NotADirectoryError):
        journal.lock_state_dir(place)
    assert open_fds() == before


def archived(state_dir, count: int) -> Path:
    with Journal(state_dir) as j:
        for n in range(count):
            j.append([f"race {n + 1}"])
            j.archive({"n": n})
    return state_dir / journal.ARCHIVE_DIR


def test_an_index_naming_a_match_no_longer_in_the_archive_is_not_believed(tmp_path):
    folder = archived(tmp_path, 3)
    for s in (".log", ".json"):
        (folder / f"0003{s}").unlink()  # taken out by hand; the index still says 3
    assert journal.last_archived(tmp_path).lines() == ["race 2"]


def test_an_index_in_anything_but_ascii_digits_is_not_believed(tmp_path):
    # The table writes the index in ASCII digits; a "3" in another script (here Arabic-Indic,
    # which int() would take) is not its writing, so the archive is listed instead. With a
    # gap after match 3 the index would otherwise pass its checks and name the wrong match.
    folder = archived(tmp_path, 5)
    for s in (".log", ".json"):
        (folder / f"0004{s}").unlink()
    (folder / journal.INDEX_NAME).write_text("\u0663", encoding="utf-8")
    assert journal.last_archived(tmp_path).lines() == ["race 5"]


def test_an_index_one_behind_a_match_whose_metadata_is_gone_is_stale(tmp_path):
    folder = archived(tmp_path, 3)
    (folder / journal.INDEX_NAME).write_text("2")  # a power cut before the index was written
    (folder / "0003.json").unlink()
    assert journal.last_archived(tmp_path).lines() == ["race 3"]


def test_a_power_cut_between_an_archives_metadata_and_its_log_numbers_alike_with_the_index(
    tmp_path,
):
    # The index is only a shortcut: with it or without it, the next archive takes the same number
    # and the metadata left alone by the cut is never written over.
    for state, keep_index in (("with", True), ("without", False)):
        folder = archived(tmp_path / state, 2)
        (folder / "0003.json").write_bytes(b'{"cut": true}')  # the log never got there
        if not keep_index:
            (folder / journal.INDEX_NAME).unlink()
        with Journal(tmp_path / state) as j:
            j.append(["race 3"])
            assert j.archive({}).name == "0004.log"
        assert (folder / "0003.json").read_bytes() == b'{"cut": true}'
