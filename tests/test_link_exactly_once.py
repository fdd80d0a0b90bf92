"""Board pots exactly once through the appliance's real wiring: the simulated board on a pty,
the link, the app's pot ledger and the journal on disk, whichever side restarts."""

import dataclasses
import os

import pytest
from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.inputs.events import ButtonHold, ButtonPress
from scoreboard.inputs.sensorboard import SensorBoardLink
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store.journal import Journal, encode, list_archive, read_journal
from scoreboard.store.pot_ledger import PotLedger, parse_mark
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance


class Table:
    """The board, the host (that may be off) and one clock; `run()` steps them all."""

    def __init__(self, state_dir):
        self.state_dir = state_dir
        self.clock = ManualClock(1000.0)
        self.board, self.port = SimulatedBoard.open_pty(self.clock, seed=5)
        cfg = configuration.default()
        self.config = dataclasses.replace(
            cfg, sensors=dataclasses.replace(cfg.sensors, source="board")
        )
        self.host = None
        self.host_on()

    def host_on(self):
        self.host = Appliance(
            self.config,
            state_dir=str(self.state_dir),
            screens=[],
            pin_factory=MockFactory(),
            board_port=self.port,
            clock=self.clock,
            log=lambda message: None,
        )
        self.host.link.read_timeout = 0
        self.host.app.start()

    def host_off(self):
        self.host.close()  # only descriptors close, as when the power goes
        self.host = None

    def run(self, seconds, step=0.002):
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            self.board.step()
            if self.host is not None:
                self.host.link.step(self.clock())
                self.host.loop.run_pending()

    def press(self, button):
        self.host.loop.put(ButtonPress(button, self.clock()))
        self.run(0.05)

    def balls(self, *pockets):
        for pocket in pockets:
            self.board.drop_ball(pocket)
            self.run(0.3)

    def marks(self):
        logs = [read_journal(self.state_dir).lines]
        logs += [archived.lines() for archived in list_archive(self.state_dir)]
        return [
            m[1:] for lines in logs for line in lines if (m := parse_mark(line)) and m[0] == "take"
        ]

    def faults(self):
        return self.host.app.shown.faults

    def close(self):
        if self.host is not None:
            self.host.close()
        self.board.close()


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    t.run(0.3)
    t.press("A")  # A breaks
    yield t
    t.close()


def test_a_cut_of_both_right_after_balls_loses_no_new_ball(table):
    # Issue 9: the board acked at once writes no flash, so after a cut of both it comes
    # back with an older count than the journal's. It must number above the journal.
    table.balls(1, 2, 3, 4, 5, 6)
    assert table.board.store.data is not None and len(table.board.store.data) == 12  # no pots
    table.host_off()
    table.board.reset()
    table.host_on()
    table.run(0.5)
    table.balls(2, 3)
    marks = table.marks()
    assert len(marks) == 8 and len(set(marks)) == 8
    assert table.host.app.match.snapshot()["score"]["A"] == 8


def test_a_journal_behind_the_board_goes_on_from_the_board_across_matches(table, tmp_path):
    # The board's acks went to another host (say `scoreboard sensors` while the service
    # was stopped): the journal never had those pots. Later pots must still count.
    table.balls(1)
    table.host_off()
    monitor = SensorBoardLink(
        lambda event: None,
        port=table.port,
        clock=table.clock,
        read_timeout=0,
        own_ledger=PotLedger,
    )
    for _ in range(3):
        table.board.drop_ball(4)
        for _ in range(150):
            table.clock.advance(0.002)
            table.board.step()
            monitor.step()
    monitor.close()
    assert table.board.board.acked == 4
    table.host_on()
    table.run(0.5)
    table.balls(5, 6)
    assert [serial for _, serial in table.marks()] == [1, 5, 6]
    table.host.loop.put(ButtonHold("undo", table.clock()))
    table.host.loop.put(ButtonPress("undo", table.clock() + 0.1))  # a new match
    table.run(0.2)
    table.press("B")
    table.balls(2)
    assert sorted(serial for _, serial in table.marks()) == [1, 5, 6, 7]
    assert table.host.app.match.snapshot()["score"]["B"] == 1


def test_a_host_cut_inside_a_journal_write_loses_nothing(table, monkeypatch):
    table.balls(1)

    def torn(journal, lines):
        os.write(journal._fd, encode(list(lines), journal._seq + 1)[:7])  # then the cut
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(Journal, "append", torn)
        table.board.drop_ball(2)
        with pytest.raises(KeyboardInterrupt):
            table.run(0.3)
    table.host_off()
    table.host_on()  # the torn tail is cut; the board resends the pot it still holds
    table.run(0.5)
    assert [serial for _, serial in table.marks()] == [1, 2]
    assert table.host.app.match.snapshot()["score"]["A"] == 2


@pytest.mark.parametrize("pocket", [0, 7, 255])
def test_a_bad_pocket_number_is_refused_counted_shown_and_blocks_nothing(table, pocket):
    table.balls(1)
    table.board.board._pot(pocket, table.clock() * 1000)  # a frame as valid as any
    table.run(0.3)
    table.balls(2)
    assert table.host.app.match.snapshot()["score"]["A"] == 2
    assert {"kind": "board-bad-pocket", "count": 1} in table.faults()
    assert not table.board.board.outbox  # acked, so the board resends it no more
    assert [serial for _, serial in table.marks()] == [1, 3]
    lines = read_journal(table.state_dir).lines
    assert any(line.endswith(f"refused pocket={pocket}") for line in lines)


def test_a_ball_during_a_flash_write_counts(table):
    table.host_off()  # no acks: the board writes its pots to flash
    table.board.drop_ball(1)
    for _ in range(500):
        table.run(0.002)
        if table.board.writing_flash:
            break
    assert table.board.writing_flash
    table.board.drop_ball(3, duration_ms=15)  # breaks the beam and leaves during the write
    table.run(0.5)
    table.host_on()
    table.run(0.5)
    assert table.host.app.match.snapshot()["score"]["A"] == 2


def test_the_boards_own_losses_are_shown(table):
    table.board.board.missed_edges(3)  # the firmware's edge ring overflowed
    table.run(0.6)
    assert {"kind": "board-edges-missed", "count": 3} in table.faults()
    table.board.board.dropped = 2  # its outbox was full
    table.board.board.missed_edges(0)
    table.run(0.6)
    assert {"kind": "board-pots-dropped", "count": 2} in table.faults()
