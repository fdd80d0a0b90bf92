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
    frames = [enc.frame(messages.pot(n, n % 6 + 1, n)) for n in range(40)]
    got = dec.feed(b"\x00\xff junk" + b"".join(frames))
    assert [messages.parse(p)[1] for _, p in got][-39:] == list(range(1, 40))
    frame = frames[3]
    for bit in range(len(frame) * 8):
        bad = bytearray(frame)
        bad[bit // 8] ^= 1 << (bit % 8)
        assert framing.Decoder().feed(bytes(bad)) == [], bit


class Host:
    """Just enough of the host to talk to a Board: answers hellos, acks pots in order."""

    def __init__(self):
        self.enc, self.dec = framing.Encoder(), framing.Decoder()
        self.last, self.boot, self.pots = 0, None, []

    def take(self, data):
        out = b""
        for _, payload in self.dec.feed(data):
            msg = messages.parse(payload)
            if msg[0] == messages.HELLO:
                self.boot = msg[1]
                self.last = max(self.last, msg[3])
                out += self.enc.frame(messages.ack(self.boot, self.last))
            elif msg[0] == messages.POT and self.boot is not None:
                if (msg[1] - self.last) & 0xFFFF == 1:
                    self.last += 1
                    self.pots.append(msg[2])
                out += self.enc.frame(messages.ack(self.boot, self.last))
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

    run(10)
    for pocket in (1, 2, 3):
        board.edge(pocket - 1, True, now)
        run(30)
        board.edge(pocket - 1, False, now)
        run(30)
    assert host.pots == [1, 2, 3], host.pots
    assert not board.outbox
    # A pot counted while the host is away survives a reset and arrives once.
    board.edge(5, True, now)
    board.edge(5, False, now + 40)
    board.poll(now + 50)
    board = Board(99, store=store)
    run(100)
    assert host.pots == [1, 2, 3, 6], host.pots


test_counting()
test_framing()
test_board_link()
print("micropython logic tests passed")
