"""The host link against the simulated board over a real pseudo-terminal, in simulated time."""

import os
import random

import pytest

from scoreboard.inputs.events import (
    BoardFault,
    BoardHello,
    BoardLost,
    Pot,
    SensorCleared,
    SensorStuck,
)
from scoreboard.inputs.portable import framing, messages
from scoreboard.inputs.sensorboard import SensorBoardLink, find_port
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store.pot_ledger import PotLedger
from scoreboard.table.loop import ManualClock

OWN = {"own_ledger": PotLedger}  # the link keeps its own ledger (no app to ack what is durable)


class Rig:
    """A simulated board on a pty, the host link on its other end, one fake clock."""

    def __init__(self, seed=1, **link):
        self.clock = ManualClock(1000.0)
        self.board, self.path = SimulatedBoard.open_pty(self.clock, seed=seed)
        self.events = []
        self.link = SensorBoardLink(
            self.events.append, port=self.path, clock=self.clock, read_timeout=0, **OWN | link
        )

    def run(self, seconds, step=0.01):
        for _ in range(round(seconds / step)):
            self.clock.now += step
            self.board.step()
            self.link.step()

    def pots(self):
        return [e.pocket for e in self.events if isinstance(e, Pot)]

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]

    def close(self):
        self.link.close()
        self.board.close()


@pytest.fixture
def rig():
    r = Rig()
    r.run(0.3)
    yield r
    r.close()


def test_hello_then_pots_in_order(rig):
    assert rig.link.state == "up"
    assert rig.of(BoardHello)[0].version.startswith("pocketboard")
    for pocket in (1, 4, 4, 6):
        rig.board.drop_ball(pocket, chatter=2)
    rig.run(0.5)
    # The second ball in pocket 4 waits for the first to leave the beam.
    assert rig.pots() == [1, 4, 6, 4]
    assert [e.serial for e in rig.of(Pot)] == [1, 2, 3, 4]
    assert not rig.board.board.outbox  # all acked


def test_pot_time_is_when_the_ball_fell_even_if_sent_late(rig):
    rig.board.unplug()
    fell = rig.clock.now
    rig.board.drop_ball(2)
    rig.run(1.0)
    rig.board.plug()
    rig.run(0.5)
    assert rig.of(Pot)[0].t == pytest.approx(fell, abs=0.02)


def test_unplugged_board_is_lost_within_5_s_and_found_again_without_losing_a_pot(rig):
    rig.board.unplug()
    rig.board.drop_ball(3)  # falls while the cable is out
    rig.run(5.0)
    lost = rig.of(BoardLost)
    assert len(lost) == 1 and lost[0].t - 1000.3 < 5.0
    rig.board.plug()
    rig.run(3.0)
    assert rig.link.state == "up"
    assert rig.pots() == [3]
    assert len(rig.of(BoardHello)) == 2 and not rig.of(BoardHello)[1].reset


def test_board_reset_is_seen_and_kept_pots_arrive_once(rig):
    rig.board.unplug()
    rig.board.drop_ball(5)
    rig.run(0.2)  # counted and stored, never acked
    rig.board.reset()
    rig.board.plug()
    rig.run(1.0)
    assert rig.of(BoardHello)[-1].reset
    assert rig.pots() == [5]


def test_lost_acks_give_resends_but_no_double(rig):
    # The host reads but its acks never reach the board.
    rig.board.board.receive = lambda data: None
    rig.board.drop_ball(1)
    rig.board.drop_ball(2)
    rig.run(2.0)
    assert rig.link.duplicates > 0
    assert rig.pots() == [1, 2]


def test_host_restart_gets_unacked_pots_once(rig):
    rig.link.close()
    rig.board.drop_ball(6)
    rig.run(0.2)  # the host is gone: the board keeps the pot
    again = []
    link = SensorBoardLink(again.append, port=rig.path, clock=rig.clock, read_timeout=0, **OWN)
    for _ in range(100):
        rig.clock.now += 0.01
        rig.board.step()
        link.step()
    link.close()
    assert [e.pocket for e in again if isinstance(e, Pot)] == [6]


def test_stuck_sensor_reported_once_and_cleared(rig):
    rig.board.stick(2)
    rig.run(6.0)
    assert [e.pocket for e in rig.of(SensorStuck)] == [2]
    # Counted on its leading edge, then taken back once stuck: no ball in all.
    assert [(e.pocket, e.retract) for e in rig.of(Pot)] == [(2, False), (2, True)]
    rig.board.unstick(2)
    rig.run(2.0)
    assert [e.pocket for e in rig.of(SensorCleared)] == [2]


def test_garbage_cut_frames_and_bit_flips_never_raise_nor_make_a_pot(rig):
    rng = random.Random(7)
    enc = framing.Encoder()
    for i in range(300):
        junk = rng.choice(
            [
                bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 80))),
                enc.frame(messages.pot(rng.getrandbits(32), 0, rng.randint(1, 6), 0))[:-4],
            ]
        )
        if i % 3 == 0:  # a whole pot frame with one bit flipped
            held = rig.link.ledger.held[rig.link._store_id]
            bad = bytearray(enc.frame(messages.pot(held + 1, held, 1, 0)))
            bit = rng.randrange(len(bad) * 8)
            bad[bit // 8] ^= 1 << (bit % 8)
            junk = bytes(bad)
        os.write(rig.board.fd, junk)
        rig.run(0.02)
    rig.run(0.5)
    assert rig.pots() == []
    assert rig.link.state == "up" and not rig.of(BoardLost)
    rig.board.drop_ball(4)
    rig.run(0.5)
    assert rig.pots() == [4]


def test_pot_before_any_hello_is_not_taken_blind():
    link_events = []
    master, slave = os.openpty()
    try:
        clock = ManualClock(1000.0)
        link = SensorBoardLink(
            link_events.append, port=os.ttyname(slave), clock=clock, read_timeout=0, **OWN
        )
        link.step()
        os.write(master, framing.Encoder().frame(messages.pot(1, 0, 1, 0)))
        clock.now += 0.1
        link.step()
        assert link_events == []
        link.close()
    finally:
        os.close(master)
        os.close(slave)


def test_find_port_prefers_explicit_then_by_id(tmp_path):
    (tmp_path / "usb-MicroPython_Board_in_FS_mode_e66-if00").touch()
    assert find_port("/dev/ttyX") == "/dev/ttyX"
    found = find_port(by_id=str(tmp_path / "usb-MicroPython*"))
    assert found.endswith("e66-if00")
    assert find_port(by_id=str(tmp_path / "nothing*"), usb_id=(0xFFFF, 0xFFFF)) is None


def test_missing_port_retries_without_raising():
    clock, events = ManualClock(1000.0), []
    link = SensorBoardLink(
        events.append, port="/dev/does-not-exist", clock=clock, read_timeout=0, **OWN
    )
    for _ in range(30):
        clock.now += 0.1
        link.step()
    assert link.state == "searching" and events == []


def test_board_whose_store_lags_the_host_continues_numbering_from_the_host(rig):
    rig.board.drop_ball(1)
    rig.run(0.3)
    old_flash = rig.board.store.data  # as if the last writes never reached flash
    rig.board.drop_ball(2)
    rig.board.drop_ball(3)
    rig.run(0.5)
    rig.board.store.data = old_flash
    rig.board.reset()
    rig.run(0.5)
    rig.board.drop_ball(4)
    rig.run(0.5)
    assert rig.pots() == [1, 2, 3, 4]
    assert [e.serial for e in rig.of(Pot)] == [1, 2, 3, 4]


def test_with_ack_when_durable_the_board_keeps_a_pot_until_the_app_says_so():
    r = Rig(ack_when_durable=True)
    r.board.drop_ball(3)
    r.run(0.5)
    # Nothing is numbered until the app's ledger answers the hello.
    (hello,) = r.of(BoardHello)
    assert r.of(Pot) == [] and r.board.board.outbox[0][0] is None
    r.link.sync(hello.boot_id, 0, 0)
    r.run(1.0)
    # Kept on the board, and put again with each resend until the app has it durably
    # (its write may have failed); the app's ledger drops the copies it already holds.
    assert {(e.pocket, e.serial, e.prev) for e in r.of(Pot)} == {(3, 1, 0)}
    assert len(r.of(Pot)) > 1 and len(r.board.board.outbox) == 1
    # The host dies before the journal has it: a new host gets the same pot again.
    r.link.close()
    again = SensorBoardLink(
        r.events.append, port=r.path, clock=r.clock, read_timeout=0, ack_when_durable=True
    )
    r.link = again
    before = len(r.of(Pot))
    r.run(0.3)
    again.sync(hello.boot_id, 0, 0)
    r.run(1.0)
    assert len(r.of(Pot)) > before and {(e.pocket, e.serial) for e in r.of(Pot)} == {(3, 1)}
    store = r.of(Pot)[-1].store
    assert store == hello.store and r.of(Pot)[0].store == store
    again.acknowledge(1, store + 1)  # another board's store: not this one's pot
    r.run(0.5)
    assert len(r.board.board.outbox) == 1
    again.acknowledge(1, store)  # now it is in the journal
    r.run(0.2)
    settled = len(r.of(Pot))
    r.run(1.0)
    assert not r.board.board.outbox and len(r.of(Pot)) == settled  # no more copies
    r.close()


def test_a_board_on_another_protocol_version_is_a_fault_not_a_silent_board():
    clock, events = ManualClock(1000.0), []
    board, path = SimulatedBoard.open_pty(clock, seed=2, version="pocketboard 1.0")
    link = SensorBoardLink(events.append, port=path, clock=clock, read_timeout=0, **OWN)
    for _ in range(30):
        clock.now += 0.01
        board.step()
        link.step()
    assert [(e.kind, e.count) for e in events if isinstance(e, BoardFault)] == [("firmware", 0)]
    link.close()
    board.close()
