"""The pot ledger on its own: which board pots to take, which are resends, what is acked,
what a board is told at its hello, and what is shown when a pot cannot be placed."""

from scoreboard.inputs.events import BoardHello, Pot
from scoreboard.store.pot_ledger import (
    BOARD_KEEPS,
    DUPLICATE,
    KEPT,
    REFUSE,
    TAKE,
    WAIT,
    PotLedger,
    is_board_pot,
    mark_line,
    parse_mark,
)


def board_pot(serial, prev=None, *, store=7, pocket=1):
    return Pot(pocket, 0.0, "board", serial, store, serial - 1 if prev is None else prev)


def hello(acked, *, store=7, boot=99):
    return BoardHello("pocketboard 2.0", boot, 0.0, False, store, acked)


def wired(*journals):
    """A ledger whose journal puts every record on disk at once, acks and syncs recorded."""
    ledger = PotLedger(*journals)
    ledger.write = lambda lines: on_disk(ledger, lines)
    ledger.acks, ledger.syncs = [], []
    ledger.ack = lambda serial, store: ledger.acks.append((store, serial))
    ledger.sync = lambda boot, held, floor: ledger.syncs.append((held, floor))
    return ledger


def on_disk(ledger, lines):
    """What the app's storage does with a record the disk takes."""
    ledger.take(lines)
    ledger.durable(lines)


def take(ledger, pot):
    """What the app does with a pot: admit it and write its mark (the disk takes it)."""
    if not ledger.admit(pot):
        return False
    on_disk(ledger, ledger.mark(pot))
    return True


def test_marks_in_the_journal_and_the_last_archive_say_what_is_held():
    ledger = PotLedger([mark_line(7, 4)], ["shot pots=1", mark_line(7, 6), mark_line(9, 2)])
    assert ledger.held == {7: 6, 9: 2}
    assert ledger.decide(board_pot(6)) == DUPLICATE
    assert ledger.decide(board_pot(7)) == TAKE
    assert ledger.decide(board_pot(8)) == WAIT  # 7 is not held yet


def test_a_hello_is_answered_with_what_the_journal_holds_and_has_seen():
    ledger = wired([mark_line(7, 8)])
    ledger.hello(hello(6))  # a board whose flash is older than the journal
    assert ledger.syncs == [(8, 8)]
    ledger.decide(board_pot(12, 8))  # seen, then refused for order: never number it again
    ledger.hello(hello(6, boot=100))
    assert ledger.syncs[-1] == (8, 12)


def test_a_store_the_journal_does_not_know_starts_from_the_boards_count():
    ledger = wired()
    ledger.hello(hello(30, store=5))
    assert ledger.syncs == [(30, 30)] and take(ledger, board_pot(31, store=5))


def test_a_journal_behind_the_board_goes_on_from_the_boards_count():
    said = []
    ledger = wired([mark_line(7, 3)])
    ledger.log = said.append
    ledger.hello(hello(10))  # 4-10 were acked by another host, or lost from the journal
    assert ledger.syncs == [(10, 10)] and "ahead of the journal" in said[0]
    assert take(ledger, board_pot(11))
    assert ledger.faults() == []


def test_order_comes_from_prev_not_from_consecutive_serials():
    ledger = wired([mark_line(7, 4)])
    assert ledger.decide(board_pot(9, 4)) == TAKE  # numbered above a floor: a gap is fine
    assert ledger.decide(board_pot(10, 9)) == WAIT  # 9 is not held yet
    assert take(ledger, board_pot(9, 4)) and take(ledger, board_pot(10, 9))
    assert ledger.acks == [(7, 9), (7, 10)]


def test_a_pot_is_acked_only_once_its_mark_is_on_disk():
    ledger = wired()
    pot = board_pot(1)
    assert ledger.admit(pot)
    assert ledger.mark(pot) == [mark_line(7, 1)]
    ledger.take(ledger.mark(pot))  # counted, its record kept in memory: the disk refused it
    assert ledger.decide(pot) == KEPT and not ledger.admit(pot) and ledger.acks == []
    assert ledger.decide(board_pot(2)) == TAKE  # the next one is not held up
    ledger.durable(ledger.mark(pot))
    assert ledger.acks == [(7, 1)]
    assert not ledger.admit(pot) and ledger.acks == [(7, 1), (7, 1)]  # a resend: acked again
    assert ledger.resent == 1 and ledger.faults() == []


def test_the_board_is_told_to_forget_only_what_is_on_disk_but_to_number_above_all_taken():
    ledger = wired([mark_line(7, 3)])
    ledger.take([mark_line(7, 5)])  # 4 and 5 wait in memory for the disk
    ledger.hello(hello(3))
    assert ledger.syncs == [(3, 5)]


def test_a_pot_the_board_lost_before_we_held_it_is_counted_and_shown():
    ledger = wired([mark_line(7, 4)])
    assert ledger.decide(board_pot(6, 5)) == WAIT  # 5 never came; then the board reset
    assert take(ledger, board_pot(9, 4))  # its next boot numbered above what we had seen
    assert ledger.faults() == [{"kind": "board-pots-lost", "count": 1}]


def test_a_bad_pocket_is_refused_recorded_acked_and_blocks_nothing():
    ledger = wired()
    for number, pocket in enumerate((0, 7, 255), start=1):
        bad = board_pot(number, pocket=pocket)
        assert ledger.decide(bad) == REFUSE
        assert not ledger.admit(bad)  # not counted...
        assert ledger.held[7] == number and ledger.acks[-1] == (7, number)  # ...but placed
    assert ledger.mark(board_pot(3, pocket=255)) == [f"{mark_line(7, 3)} refused pocket=255"]
    assert parse_mark(f"{mark_line(7, 3)} refused pocket=255") == ("refused", 7, 3)
    assert take(ledger, board_pot(4))
    assert ledger.faults() == [{"kind": "board-bad-pocket", "count": 3}]


def test_a_refused_pot_the_disk_would_not_take_waits_in_memory_like_any_record():
    ledger = wired()
    ledger.write = ledger.take  # kept in memory: the disk refuses it
    assert not ledger.admit(board_pot(1, pocket=9)) and ledger.acks == []
    assert ledger.decide(board_pot(1, pocket=9)) == KEPT  # its resend is not refused twice
    assert ledger.decide(board_pot(2)) == TAKE
    assert ledger.faults() == [{"kind": "board-bad-pocket", "count": 1}]


def test_gpio_pots_and_other_inputs_are_not_the_ledgers():
    ledger = PotLedger()
    assert ledger.mark(Pot(3, 1.0)) == [] and ledger.mark(None) == []
    assert not is_board_pot(Pot(3, 1.0))


def test_a_new_match_carries_every_store_as_held_not_as_taken():
    ledger = PotLedger([mark_line(7, 3), mark_line(8, 11)])
    carried = ledger.carry()
    assert [parse_mark(line)[0] for line in carried] == ["held", "held"]
    assert PotLedger(carried).held == ledger.held
    # A journal from before this format carried its stores as plain marks.
    assert PotLedger(["# board pot 8:11"]).held == {8: 11}


def test_a_new_match_carries_pots_still_waiting_for_the_disk():
    ledger = PotLedger([mark_line(7, 3)])
    ledger.take([mark_line(7, 5)])
    assert PotLedger(ledger.carry()).held == {7: 5}


def test_a_long_disk_fault_acks_from_memory_before_the_board_runs_out_of_room():
    ledger = wired([mark_line(7, 3)])
    for serial in range(4, 4 + BOARD_KEEPS - 1):
        ledger.take([mark_line(7, serial)])  # kept in memory: the disk refuses
        ledger.relieve()
    assert ledger.acks == []  # the board still has room: it keeps its own copy
    ledger.take([mark_line(7, 4 + BOARD_KEEPS - 1)])
    ledger.relieve()
    assert ledger.acks == [(7, 3 + BOARD_KEEPS)]  # now the host keeps them alone
