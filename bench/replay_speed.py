"""Benchmark: replay throughput (events/s) and the time of one undo at event 2,000.

Targets (issue 2): >= 50,000 events/s and <= 10 ms. Prints figures; asserts nothing.
"""

import random
import statistics
import time

from scoreboard.match import Match
from scoreboard.matchlog import parse, replay


def synthetic_log(frames: int, *, seed: int = 7) -> list[str]:
    """A long, legal match: misses, pots, fouls with choices and lapses, frame after frame."""
    rng = random.Random(seed)
    lines = ["players Olena Taras", f"race {frames}", "break A"]
    probe = Match()
    replay(lines, probe)
    while probe.phase != "match-over":
        phase, s = probe.phase, probe.state
        if phase == "frame-over":
            line = "next"
        elif phase == "foul":
            line = rng.choice(["choose play", "choose pass"])
        elif phase == "break-foul":
            line = rng.choice(["choose accept-play", "choose accept-pass", "choose rerack-break"])
        else:
            roll = rng.random()
            if roll < 0.55:
                line = "shot"
            elif roll < 0.75:
                line = f"shot pots={rng.randint(1, min(2, s.balls_on_table - 1))}"
            elif roll < 0.97:
                line = f"shot foul={rng.choice(['push', 'no-contact', 'double-hit'])}"
            else:
                line = "lapse" if s.foul and not s.foul.lapsed and phase == "play" else "shot"
        probe.step(parse([line])[0].item)
        lines.append(line)
    return lines


def main() -> None:
    lines = synthetic_log(99)  # D-5: a race to 99 frames, the longest a match can be
    entries = len(lines)
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        replay(lines)
        runs.append(time.perf_counter() - start)
    best = min(runs)
    print(
        f"replay: {entries} events, best of 5 {best * 1000:.1f} ms -> {entries / best:,.0f} events/s "
        "(target >= 50,000)"
    )

    match = replay(lines[:2000])
    items = [e.item for e in parse(lines[:2000])]
    timings = []
    for _ in range(200):
        start = time.perf_counter()
        match.undo()
        timings.append(time.perf_counter() - start)
        match.step(items[-1])  # put it back for the next round
    print(
        f"undo at event {len(match.events)}: median {statistics.median(timings) * 1e3:.4f} ms, "
        f"max {max(timings) * 1e3:.4f} ms (target <= 10 ms)"
    )


if __name__ == "__main__":
    main()
