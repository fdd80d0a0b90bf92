"""The journal: durable appends, replay, repair of torn or corrupted tails, and the archive."""

import errno
import os
import stat
from pathlib import Path

import pytest

from scoreboard.store import journal
from scoreboard.store.journal import Journal, JournalError, encode, parse, read_journal

RECORDS = [
    ["players Олена Тарас"],
    ["race 2"],
    ["break A"],
    ["shot pots=2"],
    ["undo", "shot foul=push,double-hit pots=1"],  # an amendment: one record, two lines
    ["choose play"],
]


def sample() -> tuple[bytes, list[int]]:
    """The sample journal's bytes and the offset where each record ends."""
    data, ends = b"", []
    for record in RECORDS:
        data += encode(record)
        ends.append(len(data))
    return data, ends


def lines_of(records) -> list[str]:
    return [line for record in records for line in record]


def write_journal(folder: Path, data: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / journal.JOURNAL_NAME).write_bytes(data)
    return folder


@pytest.fixture
def fsyncs(monkeypatch):
    """Every os.fsync call as (is_directory, path), still really syncing."""
    calls = []
    real = os.fsync

    def fsync(fd):
        calls.append((stat.S_ISDIR(os.fstat(fd).st_mode), os.readlink(f"/proc/self/fd/{fd}")))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return calls


def test_appended_records_replay_in_order(tmp_path):
    with Journal(tmp_path) as j:
        assert j.lines == [] and j.torn is None
        for record in RECORDS:
            j.append(record)
        assert j.lines == lines_of(RECORDS)
        size = (tmp_path / "journal.log").stat().st_size
        assert j.bytes_written == size
    with Journal(tmp_path) as j:
        assert j.lines == lines_of(RECORDS)
        assert j.torn is None
        assert j.bytes_written == 0


def test_record_format_is_readable_text_with_its_number_in_the_marker():
    import zlib

    crc = zlib.crc32(b"7", zlib.crc32(b"shot pots=2\n"))
    assert encode(["shot pots=2"], 7) == b"shot pots=2\n=%08x 7\n" % crc
    assert len(encode(["undo", "shot"], 12)) == len(b"undo\nshot\n") + 13
    assert encode(["shot"]) == b"shot\n=%08x\n" % zlib.crc32(b"shot\n")  # unnumbered: as before


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ([], "a journal record needs at least one line"),
        ([""], "not a journal line: ''"),
        (["=deadbeef"], "not a journal line: '=deadbeef'"),
        (["shot\npots=1"], "control character in journal line: 'shot\\npots=1'"),
        (["tab\there"], "control character in journal line: 'tab\\there'"),
        (["nul\x00"], "control character in journal line: 'nul\\x00'"),
        (["del\x7f"], "control character in journal line: 'del\\x7f'"),
    ],
)
def test_lines_a_record_cannot_hold_are_refused_saying_which_and_why(tmp_path, bad, says):
    with Journal(tmp_path) as j, pytest.raises(ValueError) as refused:
        j.append(bad)
    assert str(refused.value) == says
    assert read_journal(tmp_path).lines == []


def test_truncation_at_every_byte_offset_keeps_exactly_the_whole_records(tmp_path):
    data, ends = sample()
    for cut in range(len(data) + 1):
        folder = write_journal(tmp_path / str(cut), data[:cut])
        whole = [end for end in ends if end <= cut]
        kept = whole[-1] if whole else 0
        with Journal(folder) as j:
            assert j.lines == lines_of(RECORDS[: len(whole)]), cut
            if cut == kept:
                assert j.torn is None
            else:
                assert (j.torn.kept_bytes, j.torn.cut_bytes) == (kept, cut - kept)
                assert j.torn.reason == "partial record"
                assert j.torn.saved_to.read_bytes() == data[kept:cut]
            assert (folder / "journal.log").read_bytes() == data[:kept]
            j.append(["next"])  # the repaired journal takes new records cleanly
        replay = read_journal(folder)
        assert replay.lines == lines_of(RECORDS[: len(whole)]) + ["next"]
        assert replay.torn is None


def test_a_flipped_bit_anywhere_cuts_from_the_record_that_holds_it(tmp_path):
    data, ends = sample()
    for offset in range(len(data)):
        record = next(i for i, end in enumerate(ends) if offset < end)
        kept = ends[record - 1] if record else 0
        for bit in range(8):
            damaged = bytearray(data)
            damaged[offset] ^= 1 << bit
            replay = parse(bytes(damaged))
            assert replay.lines == lines_of(RECORDS[:record]), (offset, bit)
            assert replay.torn.kept_bytes == kept, (offset, bit)
    # and the real open saves the damaged tail before cutting it
    damaged = bytearray(data)
    damaged[ends[2] + 1] ^= 0x20
    with Journal(write_journal(tmp_path / "flip", bytes(damaged))) as j:
        assert j.lines == lines_of(RECORDS[:3])
        assert j.torn.saved_to.read_bytes() == bytes(damaged[ends[2] :])


@pytest.mark.parametrize(
    ("garbage", "reason"),
    [
        (b"\x00" * 512, "garbage"),  # a block the filesystem extended but never filled
        (b"\xff\xfe\x80\n", "garbage"),  # not UTF-8
        (b"=deadbeef\n", "bad checksum"),  # a marker with no record
        (b"shot\n=00000000\n", "bad checksum"),
        (b"shot\nundo\n", "partial record"),  # lines whose marker never arrived
        (b"\n", "garbage"),
        (b"=", "partial record"),
    ],
)
def test_garbage_after_the_last_record_is_cut_and_reported(tmp_path, garbage, reason):
    data, _ = sample()
    with Journal(write_journal(tmp_path, data + garbage)) as j:
        assert j.lines == lines_of(RECORDS)
        assert j.torn.reason == reason
        assert (j.torn.kept_bytes, j.torn.cut_bytes) == (len(data), len(garbage))
        assert j.torn.saved_to == tmp_path / "torn" / "0001.tail"
        assert "cut" in str(j.torn) and str(j.torn.saved_to) in str(j.torn)
    assert (tmp_path / "journal.log").read_bytes() == data


def test_a_record_written_but_not_synced_is_lost_whole_on_power_cut(tmp_path):
    with Journal(tmp_path) as j:
        j.append(["race 2"])
        before = (tmp_path / "journal.log").stat().st_size
        j.append(["undo", "shot pots=1"])
        after = (tmp_path / "journal.log").stat().st_size
    data = (tmp_path / "journal.log").read_bytes()
    # A power cut between write() and fsync() keeps any prefix of the record.
    for kept in range(before, after):
        folder = write_journal(tmp_path / f"cut{kept}", data[:kept])
        with Journal(folder) as j:
            assert j.lines == ["race 2"]
            assert (j.torn is None) == (kept == before)


def test_repeated_torn_tails_are_kept_side_by_side(tmp_path):
    data, _ = sample()
    write_journal(tmp_path, data + b"shot po")
    Journal(tmp_path).close()
    (tmp_path / "journal.log").write_bytes(data + b"choo")
    with Journal(tmp_path) as j:
        assert j.torn.saved_to.name == "0002.tail"
    assert (tmp_path / "torn" / "0001.tail").read_bytes() == b"shot po"
    assert (tmp_path / "torn" / "0002.tail").read_bytes() == b"choo"


def test_read_journal_reports_a_torn_tail_without_touching_the_file(tmp_path):
    data, _ = sample()
    write_journal(tmp_path, data + b"shot")
    replay = read_journal(tmp_path)
    assert replay.lines == lines_of(RECORDS)
    assert replay.torn.saved_to is None and replay.torn.cut_bytes == 4
    assert (tmp_path / "journal.log").read_bytes() == data + b"shot"
    assert not (tmp_path / "torn").exists()
    assert read_journal(tmp_path / "missing") == journal.Replay([], None)


def test_creating_the_journal_fsyncs_its_directory_and_appends_fsync_the_file(tmp_path, fsyncs):
    state = tmp_path / "state"
    j = Journal(state)
    assert (True, str(state)) in fsyncs  # the new journal.log entry
    assert (True, str(tmp_path)) in fsyncs  # the new state directory itself
    fsyncs.clear()
    j.append(["race 2"])
    j.append(["undo", "race 3"])
    assert fsyncs == [(False, str(state / "journal.log"))] * 2
    j.close()
    fsyncs.clear()
    Journal(state).close()
    assert fsyncs == []  # reopening an intact journal writes nothing


def test_archiving_fsyncs_both_directories(tmp_path, fsyncs):
    with Journal(tmp_path) as j:
        j.append(["race 2"])
        fsyncs.clear()
        j.archive({"players": ["Olena", "Taras"]})
    dirs = {path for is_dir, path in fsyncs if is_dir}
    assert dirs == {str(tmp_path), str(tmp_path / "archive")}
    assert (False, str(tmp_path / "archive" / "0001.json.tmp")) in fsyncs


def test_repairing_a_torn_tail_syncs_the_saved_copy_before_cutting(tmp_path, fsyncs):
    data, _ = sample()
    write_journal(tmp_path, data + b"shot")
    Journal(tmp_path).close()
    order = [path for _, path in fsyncs]
    saved = order.index(str(tmp_path / "torn" / "0001.tail.tmp"))
    assert order.index(str(tmp_path / "torn")) > saved
    assert order.index(str(tmp_path / "journal.log")) > order.index(str(tmp_path / "torn"))


def test_archive_moves_the_match_and_starts_an_empty_journal(tmp_path):
    with Journal(tmp_path, clock=lambda: 0) as j:
        j.append(["players Olena Taras"])
        first = j.archive({"winner": "A", "players": ["Olena", "Taras"]})
        assert first == tmp_path / "archive" / "0001.log"
        assert j.lines == [] and read_journal(tmp_path).lines == []
        j.append(["players Ivan Petro"])
        j.append(["race 3"])
        j.archive({"winner": "B", "archived_at": "kept as given"})
        j.append(["players next"])
        matches = j.list_archive()
    assert [m.number for m in matches] == [1, 2]
    assert matches[0].meta == {
        "archived_at": "1970-01-01T00:00:00Z",
        "winner": "A",
        "players": ["Olena", "Taras"],
    }
    assert matches[1].meta["archived_at"] == "kept as given"
    assert matches[0].lines() == ["players Olena Taras"]
    assert matches[1].lines() == ["players Ivan Petro", "race 3"]
    assert read_journal(tmp_path).lines == ["players next"]


def test_archive_survives_a_crash_that_left_only_the_metadata(tmp_path):
    (tmp_path / "archive").mkdir()
    (tmp_path / "archive" / "0001.json").write_text("{}")  # power cut before the rename
    (tmp_path / "archive" / "0002.json.tmp").write_text("{")
    with Journal(tmp_path) as j:
        j.append(["race 1"])
        assert j.archive({}) == tmp_path / "archive" / "0002.log"
        assert [m.number for m in j.list_archive()] == [2]


def test_unreadable_archive_metadata_still_lists_the_match(tmp_path):
    with Journal(tmp_path) as j:
        j.append(["race 1"])
        j.archive({})
    (tmp_path / "archive" / "0001.json").write_text("not json")
    (tmp_path / "archive" / "notes.log").write_text("not ours")
    [match] = journal.list_archive(tmp_path)
    assert match.meta == {} and match.lines() == ["race 1"]
    assert journal.list_archive(tmp_path / "nothing") == []


def test_a_second_process_cannot_open_the_same_journal(tmp_path):
    first = Journal(tmp_path)
    with pytest.raises(JournalError, match="in use"):
        Journal(tmp_path)
    first.close()
    Journal(tmp_path).close()


def test_short_writes_still_make_whole_records(tmp_path, monkeypatch):
    real = os.write
    monkeypatch.setattr(os, "write", lambda fd, data: real(fd, bytes(data[:3])))
    with Journal(tmp_path) as j:
        j.append(["undo", "shot foul=push pots=1"])
    assert read_journal(tmp_path) == journal.Replay(["undo", "shot foul=push pots=1"], None)


def test_a_failed_write_leaves_no_partial_record_behind(tmp_path, monkeypatch):
    real = os.write
    with Journal(tmp_path) as j:
        j.append(["race 2"])

        def disk_full(fd, data):
            real(fd, bytes(data[:5]))
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", disk_full)
        with pytest.raises(JournalError, match="No space left"):
            j.append(["shot pots=1"])
        assert j.lines == ["race 2"]
        monkeypatch.setattr(os, "write", real)
        j.append(["shot pots=2"])
    assert read_journal(tmp_path) == journal.Replay(["race 2", "shot pots=2"], None)


def test_a_failed_fsync_is_an_error_and_the_record_is_not_counted(tmp_path, monkeypatch):
    real = os.fsync
    failures = iter([True])

    def flaky(fd):
        if next(failures, False):
            raise OSError(errno.EIO, "Input/output error")
        real(fd)

    with Journal(tmp_path) as j:
        j.append(["race 2"])
        monkeypatch.setattr(os, "fsync", flaky)
        with pytest.raises(JournalError, match="Input/output"):
            j.append(["shot pots=1"])
        assert j.lines == ["race 2"]
    assert read_journal(tmp_path).lines == ["race 2"]


def test_a_failed_cut_after_a_failed_write_does_not_wedge_the_journal(tmp_path, monkeypatch):
    real_write, real_fsync = os.write, os.fsync
    disk = {"broken": True}

    def write(fd, data):
        if disk["broken"]:
            real_write(fd, bytes(data[:4]))  # a fragment reaches the file
            raise OSError(errno.EIO, "Input/output error")
        return real_write(fd, data)

    def fsync(fd):
        if disk["broken"]:
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    with Journal(tmp_path) as j:
        j.append(["race 2"])
        monkeypatch.setattr(os, "write", write)
        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "ftruncate", lambda fd, size: fsync(fd))  # the cut fails too
        for _ in range(2):
            with pytest.raises(JournalError, match="Input/output"):
                j.append(["race 3"])
        monkeypatch.undo()  # the disk is well again: the fragment goes, the record goes in
        j.append(["race 4"])
        assert j.lines == ["race 2", "race 4"]
    assert read_journal(tmp_path) == journal.Replay(["race 2", "race 4"], None)


def test_a_repeated_whole_record_is_detected_and_not_replayed_twice(tmp_path):
    with Journal(tmp_path) as j:
        for record in RECORDS:
            j.append(record)
    data = (tmp_path / "journal.log").read_bytes()
    _, ends = sample()
    # record 4 (a shot) again right after itself, and record 2 again at the end
    sizes = [len(journal.encode(r, n)) for n, r in enumerate(RECORDS, 1)]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    fourth = data[starts[3] : starts[3] + sizes[3]]
    second = data[starts[1] : starts[1] + sizes[1]]
    doubled = data[: starts[4]] + fourth + data[starts[4] :] + second
    (tmp_path / "journal.log").write_bytes(doubled)
    replay = read_journal(tmp_path)
    assert replay.lines == lines_of(RECORDS) and replay.duplicates == 2 and replay.torn is None
    with Journal(tmp_path) as j:
        assert j.lines == lines_of(RECORDS) and j.duplicates == 2
        j.append(["next"])  # numbered after the highest: read back once
    assert read_journal(tmp_path).lines == lines_of(RECORDS) + ["next"]


def test_a_record_with_a_used_number_but_other_content_is_cut(tmp_path):
    data = journal.encode(["race 2"], 1) + journal.encode(["race 3"], 2)
    forged = journal.encode(["race 9"], 2)
    replay = parse(data + forged)
    assert replay.lines == ["race 2", "race 3"] and replay.torn.reason == "record out of order"


def test_journals_written_before_records_were_numbered_still_read(tmp_path):
    old = journal.encode(["race 2"]) + journal.encode(["break A"])
    with Journal(write_journal(tmp_path, old)) as j:
        assert j.lines == ["race 2", "break A"] and j.torn is None
        j.append(["shot pots=1"])
    assert read_journal(tmp_path).lines == ["race 2", "break A", "shot pots=1"]


def test_the_lock_is_on_the_directory_so_deleting_a_lock_file_lets_no_one_in(tmp_path):
    first = Journal(tmp_path)
    for name in os.listdir(tmp_path):
        if name != journal.JOURNAL_NAME:
            os.remove(tmp_path / name)
    with pytest.raises(JournalError, match="in use"):
        Journal(tmp_path)
    first.close()
    Journal(tmp_path).close()


def test_the_newest_archived_match_is_found_through_the_index(tmp_path):
    with Journal(tmp_path) as j:
        for n in range(3):
            j.append([f"race {n + 1}"])
            j.archive({"n": n})
    assert (tmp_path / "archive" / "last").read_text() == "3"
    assert journal.last_archived(tmp_path).lines() == ["race 3"]
    (tmp_path / "archive" / "last").write_text("2")  # stale: 0003 exists after it
    assert journal.last_archived(tmp_path).number == 3
    (tmp_path / "archive" / "last").write_text("garbage")
    assert journal.last_archived(tmp_path).number == 3
    assert journal.last_archived(tmp_path, keep_index=True).number == 3
    assert (tmp_path / "archive" / "last").read_text() == "3"  # mended for the next start
    assert journal.last_archived(tmp_path / "none") is None
