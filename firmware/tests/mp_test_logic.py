"""The sensor-board logic under real MicroPython: counting, framing and the board's link."""

import sys

from portable import framing, messages
from portable.board import Board, MemoryStore
from portable.pocket_counter import CLEARED, POT, STUCK, PocketCounter

assert sys.implementation.name == "micropython", sys.implementation.name


class Lcg:
    """A tiny seeded generator: the same numbers on every port."""

    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return self.state % n


def run_counter(edges, end):
    counter = PocketCounter()
    events = []
    for t, blocked in edges:
        events += counter.edge(blocked, t)
        events += counter.poll(t)
    for t in range(edges[-1][0], end):
        events += counter.poll(t)
    return events


def test_counting():
    assert run_counter([(100, True), (115, False)], 200) == [(POT, 100)]
    assert run_counter([(100, True), (250, False)], 400) == [(POT, 100)]
    chatter = [(100, True), (101, False), (102, True), (140, False), (141, True), (142, False)]
    assert run_counter(chatter, 300) == [(POT, 100)]
    two = [(100, True), (140, False), (146, True), (186, False)]
    assert run_counter(two, 300) == [(POT, 100), (POT, 146)]
    assert run_counter([(100, True), (102, False)], 200) == []
    stuck = run_counter([(100, True), (5000, False)], 7000)
    assert [k for k, _ in stuck] == [STUCK, CLEARED], stuck
    # Many random balls with chatter: each counts exactly once.
    rng, t, edges, starts = Lcg(7), 100, [], []
    for _ in range(300):
        length = 15 + rng.below(136)
        starts.append(t)
        edges.append((t, True))
        for _ in range(rng.below(3)):
            at = t + 1 + rng.below(3)
            edges += [(at, False), (at, True)]
        edges.append((t + length, False))
        t += length + 6 + rng.below(200)
    assert run_counter(edges, t + 100) == [(POT, s) for s in starts]


def test_framing():
    assert framing.crc16(b"123456789") == 0x6F91
    enc, dec = framing.Encoder(), framing.Decoder()
    frames = [enc.frame(messages.pot(n, n - 1, n % 6 + 1, n)) for n in range(40)]
    got = dec.feed(b"\x00\xff junk" + b"".join(frames))
    assert [messages.parse(p)[1] for _, p in got][-39:] == list(range(1, 40))
    frame = frames[3]
    for bit in range(len(frame) * 8):
        bad = bytearray(frame)
        bad[bit // 8] ^= 1 << (bit % 8)
        assert framing.Decoder().feed(bytes(bad)) == [], bit


class Host:
    """Just enough of the host to talk to a Board: answers hellos with what it holds,
    takes a pot once it holds the one before, acks what it holds."""

    def __init__(self):
        self.enc, self.dec = framing.Encoder(), framing.Decoder()
        self.held, self.boot, self.pots = 0, None, []

    def take(self, data):
        out = b""
        for _, payload in self.dec.feed(data):
            msg = messages.parse(payload)
            if msg[0] == messages.HELLO:
                self.boot = msg[1]
            elif msg[0] == messages.POT and self.boot is not None:
                serial, prev, pocket = msg[1], msg[2], msg[3]
                if serial > self.held and prev <= self.held:
                    self.held = serial
                    self.pots.append(pocket)
            else:
                continue
            out += self.enc.frame(messages.ack(self.boot, self.held, self.held))
        return out


def test_board_link():
    store, host = MemoryStore(), Host()
    board = Board(1234, store=store)
    now = 0

    def run(ms):
        nonlocal now
        for _ in range(ms):
            now += 1
            board.receive(host.take(board.poll(now)))
            board.flush(now)

    run(10)
    for pocket in (1, 2, 3):
        board.edge(pocket - 1, True, now)
        run(30)
        board.edge(pocket - 1, False, now)
        run(30)
    assert host.pots == [1, 2, 3], host.pots
    assert not board.outbox
    run(100)
    assert store.writes == 1, store.writes  # the new store id only: acks came at once
    old = store.data
    # A pot counted while the host is away is written to flash, survives a reset and
    # arrives once.
    board.edge(5, True, now)
    board.edge(5, False, now + 40)
    board.poll(now + 50)
    board.flush(now + 200)
    board = Board(99, store=store)
    run(100)
    assert host.pots == [1, 2, 3, 6], host.pots
    # A flash older than the host: new balls are numbered above what the host holds.
    store.data = old
    board = Board(7, store=store)
    run(100)
    board.edge(0, True, now)
    run(30)
    board.edge(0, False, now)
    run(30)
    assert host.pots == [1, 2, 3, 6, 1], host.pots
    assert board.outbox == [] and board.acked == 5, board.acked


def test_ball_during_a_flash_write():
    board = Board(5)
    board.latched(2, True, False, 100, 100)  # an ordinary ball
    board.poll(130)
    board.latched(2, False, False, 140, 140)
    board.poll(200)
    # Interrupts waited through a write from 250 to 300; both edge flags latched and
    # the level is clear again: the ball that came and went still counts, once.
    board.latched(2, False, True, 300, 250)
    board.poll(400)
    # A ball that broke the beam during a write (read at its end, 502) and left 2 ms
    # later is a ball, not a spike: it broke the beam no later than the write began.
    board.latched(4, True, False, 502, 460)
    board.latched(4, False, False, 504, 504)
    # A flicker latched inside a ball is chatter, not a second ball.
    board.latched(1, True, False, 600, 600)
    board.latched(1, True, True, 660, 620)
    board.latched(1, False, False, 700, 700)
    board.poll(800)
    assert sorted(e[1] for e in board.outbox) == [2, 3, 3, 5], board.outbox


test_counting()
test_framing()
test_board_link()
test_ball_during_a_flash_write()
print("micropython logic tests passed")
