"""Link torture: the board logic and the host link over a line that garbles, drops,
duplicates and flips bits, with board resets and cable pulls; prints phantom and lost pots.

Both ends are the real code (portable.board.Board and SensorBoardLink, with its own
in-memory pot ledger) in simulated time. A reset happens between balls, once the board
has stored what it means to store (a ball half through a beam, or one counted a moment
before the power goes, is lost to the physics, not the link: bench/power_cut.py cuts at
any moment and counts those apart); unacked pots survive it in the board's store.
Both figures must be 0.
Run: python bench/link_torture.py [BALLS] [SEED]
"""

import random
import sys
import time

from scoreboard.inputs.events import BoardHello, BoardLost, Pot
from scoreboard.inputs.portable.board import Board, MemoryStore
from scoreboard.inputs.sensorboard import SensorBoardLink
from scoreboard.store.pot_ledger import PotLedger


class Line:
    """One direction of the cable: each write may be dropped, doubled, flipped or padded."""

    def __init__(self, rng, stats):
        self.rng, self.stats, self.buffer, self.cut, self.noisy = rng, stats, b"", False, True

    def send(self, data):
        rng = self.rng
        if self.cut or not data:
            return
        if not self.noisy:
            self.buffer += bytes(data)
            return
        if rng.random() < 0.03:
            self.stats["dropped"] += 1
            return
        if rng.random() < 0.03:
            data = bytearray(data)
            bit = rng.randrange(len(data) * 8)
            data[bit // 8] ^= 1 << (bit % 8)
            self.stats["flipped"] += 1
        if rng.random() < 0.03:
            data = bytes(data) * 2
            self.stats["doubled"] += 1
        if rng.random() < 0.03:
            noise = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 40)))
            data = noise + bytes(data) if rng.random() < 0.5 else bytes(data) + noise
            self.stats["noise"] += 1
        if rng.random() < 0.01:
            data = bytes(data)[: rng.randrange(len(data))]  # a cut frame
            self.stats["cut"] += 1
        self.buffer += bytes(data)

    def take(self, n=None):
        n = len(self.buffer) if n is None else n
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data


class HostEnd:
    """The serial port as pyserial shows it, on top of a Line."""

    def __init__(self, to_host, to_board):
        self.to_host, self.to_board = to_host, to_board

    @property
    def in_waiting(self):
        return len(self.to_host.buffer)

    def read(self, n):
        return self.to_host.take(n)

    def write(self, data):
        self.to_board.send(data)

    def close(self):
        pass


def main(balls=10_000, seed=1):
    rng = random.Random(seed)
    stats = {k: 0 for k in ("dropped", "flipped", "doubled", "noise", "cut")}
    to_host, to_board = Line(rng, stats), Line(rng, stats)
    events, now = [], [0.0]
    link = SensorBoardLink(
        events.append,
        port="sim",
        clock=lambda: now[0],
        read_timeout=0,
        open_serial=lambda path, timeout: HostEnd(to_host, to_board),
        own_ledger=PotLedger,
    )
    store = MemoryStore()
    board = Board(rng.getrandbits(32), store=store)
    dropped_per_pocket, resets, pulls = [0] * 7, 0, 0
    began = time.perf_counter()

    def run(ms, edges=()):
        edges = sorted(edges)
        for _ in range(int(ms / 2)):
            now[0] += 0.002
            t_ms = now[0] * 1000
            while edges and edges[0][0] <= t_ms:
                at, index, blocked = edges.pop(0)
                board.edge(index, blocked, at)
            board.receive(to_board.take())
            to_host.send(board.poll(t_ms))
            board.flush(t_ms)
            link.step()

    run(500)
    for _ in range(balls):
        roll = rng.random()
        if roll < 0.01 and board.quiet() and board.stored():
            board = Board(rng.getrandbits(32), store=store)  # RAM gone, store kept
            resets += 1
        elif roll < 0.015:
            to_host.cut = to_board.cut = True  # the cable is pulled for a while
            pulls += 1
            run(rng.uniform(100, 6000))
            to_host.cut = to_board.cut = False
        pocket = rng.randint(1, 6)
        start = now[0] * 1000 + rng.uniform(2, 20)
        length = rng.uniform(15, 150)
        dropped_per_pocket[pocket] += 1
        run(length + 40, [(start, pocket - 1, True), (start + length, pocket - 1, False)])
    to_host.noisy = to_board.noisy = False  # a clean line to let resends finish
    run(8000)

    got = [0] * 7
    for e in events:
        if isinstance(e, Pot):
            got[e.pocket] += 1
    serials = [(e.store, e.serial) for e in events if isinstance(e, Pot)]
    phantom = sum(max(0, got[p] - dropped_per_pocket[p]) for p in range(1, 7))
    lost = sum(max(0, dropped_per_pocket[p] - got[p]) for p in range(1, 7))
    if len(set(serials)) != len(serials):
        phantom += 1  # a serial put twice would be a bug, however counted
    seconds = time.perf_counter() - began
    print(f"balls dropped: {sum(dropped_per_pocket)}  (seed {seed}, {seconds:.1f} s)")
    print(
        "line: {dropped} writes dropped, {flipped} bit flips, {doubled} doubled, "
        "{noise} noise bursts, {cut} cut".format(**stats)
    )
    print(
        f"board resets: {resets}, seen by host: "
        f"{sum(1 for e in events if isinstance(e, BoardHello) and e.reset)}; "
        f"cable pulls: {pulls}, BoardLost: {sum(1 for e in events if isinstance(e, BoardLost))}"
    )
    print(f"host: {link.decoder.errors} bad frames dropped, {link.duplicates} duplicate pots")
    print(f"phantom pots: {phantom}")
    print(f"lost pots: {lost}")
    return 0 if phantom == lost == 0 else 1


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:3])))
