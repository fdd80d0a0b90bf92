"""Property tests of the journal: any cut, flip or garbage keeps exactly the whole records before it."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from scoreboard.store.journal import Journal, encode, parse, read_journal

# Match-log-like text, including Cyrillic names; never empty, no control characters, no "=" first.
LINE = st.text(
    st.characters(codec="utf-8", categories=("L", "N", "P", "S", "Zs")), min_size=1, max_size=30
).filter(lambda s: not s.startswith("="))
RECORD = st.lists(LINE, min_size=1, max_size=3)
RECORDS = st.lists(RECORD, min_size=1, max_size=8)


def build(records):
    data, ends = b"", []
    for record in records:
        data += encode(record)
        ends.append(len(data))
    return data, ends


def flat(records):
    return [line for record in records for line in record]


@given(RECORDS)
def test_whole_journals_replay_exactly(records):
    data, _ = build(records)
    assert parse(data).lines == flat(records)
    assert parse(data).torn is None


@settings(max_examples=60)
@given(RECORDS, st.data())
def test_any_truncation_keeps_the_records_before_it_and_saves_the_rest(records, data_):
    data, ends = build(records)
    cut = data_.draw(st.integers(0, len(data)))
    whole = [end for end in ends if end <= cut]
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "journal.log").write_bytes(data[:cut])
        with Journal(tmp) as j:
            assert j.lines == flat(records[: len(whole)])
            saved = j.torn.saved_to.read_bytes() if j.torn else b""
        assert (Path(tmp) / "journal.log").read_bytes() + saved == data[:cut]
        assert read_journal(tmp).torn is None


@pytest.mark.parametrize("journal", ["unnumbered", "numbered"])
@given(records=RECORDS, data_=st.data())
def test_any_single_bit_flip_drops_its_record_and_everything_after(journal, records, data_):
    # Numbered records too: the number is under the checksum like the rest.
    data, ends = (build if journal == "unnumbered" else build_numbered)(records)
    offset = data_.draw(st.integers(0, len(data) - 1))
    bit = data_.draw(st.integers(0, 7))
    damaged = bytearray(data)
    damaged[offset] ^= 1 << bit
    index = next(i for i, end in enumerate(ends) if offset < end)
    replay = parse(bytes(damaged))
    assert replay.lines == flat(records[:index])
    assert replay.torn.kept_bytes == (ends[index - 1] if index else 0)


@given(RECORDS, st.binary(min_size=1, max_size=200))
def test_garbage_after_the_journal_never_costs_a_record(records, garbage):
    assume(not parse(garbage).lines)  # garbage that happens to hold a checksummed record
    data, _ = build(records)
    replay = parse(data + garbage)
    assert replay.lines == flat(records)
    assert (replay.torn.kept_bytes, replay.torn.cut_bytes) == (len(data), len(garbage))


class CrashingAppliance(RuleBasedStateMachine):
    """Appends, power cuts at any byte of the last record, restarts and archives, in any order."""

    def __init__(self):
        super().__init__()
        self.tmp = tempfile.TemporaryDirectory()
        self.state = Path(self.tmp.name)
        self.journal = Journal(self.state)
        self.committed: list[list[str]] = []
        self.archived: list[list[str]] = []
        self.last_size = 0

    @rule(record=RECORD)
    def append(self, record):
        before = (self.state / "journal.log").stat().st_size
        self.journal.append(record)
        self.last_size = (self.state / "journal.log").stat().st_size - before
        self.committed.append(record)

    @rule(lost=st.integers(0, 40))
    def power_cut_and_restart(self, lost):
        # The last record may not have been synced: any part of it can be lost, never more.
        self.journal.close()
        path = self.state / "journal.log"
        size = path.stat().st_size
        full = self.last_size
        lost = min(lost, full)
        with open(path, "r+b") as f:
            f.truncate(size - lost)
        if lost and self.committed:
            self.committed.pop()
        self.last_size = 0
        self.journal = Journal(self.state)
        assert (self.journal.torn is None) == (lost in (0, full))

    @rule()
    def archive(self):
        self.journal.archive({"n": len(self.archived)})
        self.archived.append(flat(self.committed))
        self.committed = []
        self.last_size = 0

    @invariant()
    def replay_matches_what_was_committed(self):
        assert self.journal.lines == flat(self.committed)
        assert read_journal(self.state).lines == flat(self.committed)
        assert [m.lines() for m in self.journal.list_archive()] == self.archived

    def teardown(self):
        self.journal.close()
        self.tmp.cleanup()


TestCrashingAppliance = CrashingAppliance.TestCase
TestCrashingAppliance.settings = settings(max_examples=40, stateful_step_count=20)


def build_numbered(records):
    """As `Journal` writes them: records numbered 1, 2, 3 ..., the number under the CRC."""
    data, ends = b"", []
    for seq, record in enumerate(records, 1):
        data += encode(record, seq)
        ends.append(len(data))
    return data, ends
