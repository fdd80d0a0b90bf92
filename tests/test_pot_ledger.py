"""The pot ledger on its own: which board pots to take, which are resends, what is acked."""

from scoreboard.inputs.events import Pot
from scoreboard.pot_ledger import (
    BOARD_KEEPS,
    DUPLICATE,
    KEPT,
    TAKE,
    WAIT,
    PotLedger,
    mark_line,
)


def board_pot(serial, store=7, pocket=1):
    return Pot(pocket, 0.0, "board", serial, store)


def test_marks_in_the_journal_and_the_last_archive_say_what_is_held():
    ledger = PotLedger([mark_line(7, 4)], ["shot pots=1", mark_line(7, 6), mark_line(9, 2)])
    assert ledger.held == {7: 6, 9: 2}
    assert ledger.decide(board_pot(6)) == DUPLICATE
    assert ledger.decide(board_pot(7)) == TAKE
    assert ledger.decide(board_pot(8)) == WAIT


def test_a_pot_is_acked_only_once_its_mark_is_durable():
    acked = []
    ledger = PotLedger()
    ledger.ack = lambda serial, store: acked.append((store, serial))
    pot = board_pot(1)
    assert ledger.admit(pot)
    assert ledger.mark(pot) == [mark_line(7, 1)]
    ledger.take(ledger.mark(pot))  # counted, its record kept in memory: the disk refused it
    assert ledger.decide(pot) == KEPT and not ledger.admit(pot) and acked == []
    assert ledger.decide(board_pot(2)) == TAKE  # the next one is not held up
    ledger.durable(ledger.mark(pot))
    assert acked == [(7, 1)]
    assert not ledger.admit(pot) and acked == [(7, 1), (7, 1)]  # a resend: acked again


def test_gpio_pots_and_other_inputs_are_not_the_ledgers():
    ledger = PotLedger()
    assert ledger.mark(Pot(3, 1.0)) == []
    assert not PotLedger.is_board_pot(Pot(3, 1.0))


def test_a_new_match_carries_every_store():
    ledger = PotLedger([mark_line(7, 3), mark_line(8, 11)])
    assert PotLedger(ledger.carry()).held == ledger.held


def test_a_new_match_carries_pots_still_waiting_for_the_disk():
    ledger = PotLedger([mark_line(7, 3)])
    ledger.take([mark_line(7, 5)])
    assert PotLedger(ledger.carry()).held == {7: 5}


def test_a_long_disk_fault_acks_from_memory_before_the_board_runs_out_of_room():
    acked = []
    ledger = PotLedger([mark_line(7, 100)])
    ledger.ack = lambda serial, store: acked.append((store, serial))
    for serial in range(101, 101 + BOARD_KEEPS):
        assert ledger.decide(board_pot(serial)) == TAKE
        ledger.take(ledger.mark(board_pot(serial)))  # the disk refuses each record
        ledger.relieve()
    assert acked == [(7, 100 + BOARD_KEEPS)]  # only once half the board's 64 wait
    assert ledger.decide(board_pot(101)) == KEPT  # still counted once
