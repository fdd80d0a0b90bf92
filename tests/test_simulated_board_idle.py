"""The simulated board idles like the appliance (issue 10): asleep until its next heartbeat, a
beam edge, a byte from the host or a call from the table; at its own pace only while busy.
bench/sim_idle.py prints what that saves (`sim idle CPU over N s`)."""

import os
import select
import time
from functools import partial

import helpers

from scoreboard.inputs.portable import framing, messages
from scoreboard.inputs.sensorboard import SensorBoardLink
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store.pot_ledger import PotLedger
from scoreboard.table.loop import ManualClock

HOUR_MS = 3_600_000
# The thread runs in real time: wait for what it does (polled every 10 ms), never a fixed time.
wait_for = partial(helpers.wait_for, every=0.01)


def run(board, link, clock, seconds, step=0.01):
    for _ in range(round(seconds / step)):
        clock.advance(step)
        board.step()
        link.step()


def test_idle_until_the_next_heartbeat_busy_from_a_ball_until_its_pot_is_acked_and_flashed():
    clock, events = ManualClock(100.0), []
    board, path = SimulatedBoard.open_pty(clock, seed=4)
    link = SensorBoardLink(
        events.append, port=path, clock=clock, read_timeout=0, own_ledger=PotLedger
    )
    try:
        assert board._idle_for() is False  # just booted: its hello and its store to write
        run(board, link, clock, 1.0)
        assert link.state == "up" and board.flash_writes == 1
        idle = board._idle_for()
        beat = board.board.heartbeat_ms / 1000
        assert 0 < idle <= beat + 0.001  # asleep until the next heartbeat, at most 0.5 s
        uptime = link.status["uptime_ms"]
        clock.advance(idle)
        board.step()  # the heartbeat goes out then (the pty hands it over in real time)
        wait_for(lambda: link.step() or link.status["uptime_ms"] > uptime, what="the heartbeat")

        start, _ = board.drop_ball(2)
        assert board._idle_for() == (start - clock() * 1000 + 1) / 1000  # wakes for the ball
        board.step()
        assert board._idle_for() is False  # the ball is in the beam
        # Busy until the pot is sent and acked and flash is up to date; then idle again.
        wait_for(lambda: run(board, link, clock, 0.01) or board._idle_for(), what="idle again")
        assert [e.pocket for e in events if type(e).__name__ == "Pot"] == [2]
        assert not board.board.outbox
    finally:
        link.close()
        board.close()


def test_the_thread_sleeps_while_idle_and_a_ball_or_a_byte_from_the_host_wakes_it():
    # A heartbeat an hour apart: only a wake-up can make the board act within the test.
    board, path = SimulatedBoard.open_pty(time.monotonic, seed=5, heartbeat_ms=HOUR_MS)
    host = os.open(path, os.O_RDWR | os.O_NOCTTY)
    board.start()
    try:
        wait_for(lambda: (board._idle_for() or 0) > 60, what="the board idle")
        board.drop_ball(3)
        wait_for(lambda: [entry[1] for entry in board.board.outbox] == [3], what="the ball counted")

        drain(host)
        os.write(host, framing.Encoder().frame(messages.hello_request()))
        # Frames may come before the answer (the unacked pot is resent on the board's own
        # clock): read until the answer is among them, however the bytes are split.
        said = bytearray()
        wait_for(lambda: said.extend(drain(host)) or messages.HELLO in kinds(said), what="a HELLO")
    finally:
        board.close()
        os.close(host)


def kinds(data: bytes) -> list[int]:
    return [payload[0] for _, payload in framing.Decoder().feed(bytes(data))]


def drain(fd) -> bytes:
    data = b""
    while select.select([fd], [], [], 0)[0]:
        data += os.read(fd, 4096)
    return data
