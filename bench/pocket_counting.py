"""Counting benchmark: 100,000 simulated drops with chatter and gaps; prints missed and doubled.

Balls break a beam for 15-150 ms; each edge may chatter (flickers under 3.3 ms); the
gap to the next ball is random, and one drop in five is a second ball right behind
the first (a clear gap of 5-12 ms). The counter is polled at random 1-10 ms intervals,
as the board's main loop or the host's tick would. Both figures must be 0.
Run: python bench/pocket_counting.py [DROPS] [SEED]
"""

import random
import sys
import time

from scoreboard.inputs.portable.pocket_counter import POT, PocketCounter


def one_pocket(drops, rng):
    """Drive one counter through `drops` balls; return (expected starts, counted starts)."""
    counter = PocketCounter()
    t, edges, starts = 100.0, [], []
    for _ in range(drops):
        length = rng.uniform(15, 150)
        starts.append(t)
        edges.append((t, True))
        for _ in range(rng.choice((0, 0, 1, 2, 4))):
            at = t + rng.uniform(0.2, 3.0)
            edges += [(at, False), (at + rng.uniform(0.05, 0.8), True)]
            at = t + length + rng.uniform(0.2, 2.4)
            edges += [(at, True), (at + rng.uniform(0.05, 0.8), False)]
        edges.append((t + length, False))
        # Flickers end within 3.3 ms of the ball; then a clear gap before the next one.
        back_to_back = rng.random() < 0.2
        t += length + 3.3 + (rng.uniform(5, 12) if back_to_back else rng.uniform(5, 3000))
    edges.sort()
    counted, poll_at, i = [], 0.0, 0
    while i < len(edges) or poll_at < t + 50:
        if i < len(edges) and edges[i][0] <= poll_at:
            counted += [s for k, s in counter.edge(edges[i][1], edges[i][0]) if k == POT]
            i += 1
            continue
        counted += [s for k, s in counter.poll(poll_at) if k == POT]
        poll_at += rng.uniform(1, 10)
    return starts, counted


def main(drops=100_000, seed=1):
    rng = random.Random(seed)
    began = time.perf_counter()
    missed = doubled = total = 0
    for pocket in range(6):
        share = drops // 6 + (1 if pocket < drops % 6 else 0)
        expected, counted = one_pocket(share, rng)
        total += len(expected)
        exp_set, got = set(expected), {}
        for s in counted:
            got[s] = got.get(s, 0) + 1
        missed += sum(1 for s in exp_set if s not in got)
        doubled += sum(n - 1 for n in got.values()) + sum(1 for s in got if s not in exp_set)
    seconds = time.perf_counter() - began
    print(f"drops: {total}  (seed {seed}, {seconds:.1f} s)")
    print(f"missed: {missed}")
    print(f"doubled: {doubled}")
    return 0 if missed == doubled == 0 else 1


if __name__ == "__main__":
    sys.exit(main(*map(int, sys.argv[1:3])))
