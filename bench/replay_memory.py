"""Benchmark: peak memory of `scoreboard replay` for a 10k and a 100k event log.

Runs the real command in a child process per log and reads that child's peak RSS
(`os.wait4`), so the figure is what a user's `scoreboard replay LOG` costs. The logs are
one long legal match (mostly misses, so a race to 99 lasts) with an undo now and then.
Prints figures; asserts nothing.
"""

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from scoreboard.core.match import Match
from scoreboard.core.matchlog import parse_line


def long_log(events: int, *, seed: int = 11) -> list[str]:
    """``events`` legal lines: misses, pots, fouls with choices, lapses and undos."""
    rng = random.Random(seed)
    lines = ["players Olena Taras", "race 99", "break A"]
    probe = Match()
    for line in lines:
        probe.step(parse_line(line))
    while len(lines) < events:
        phase, s = probe.phase, probe.state
        if phase == "frame-over":
            line = "next"
        elif phase == "foul":
            line = rng.choice(["choose play", "choose pass"])
        elif phase == "break-foul":
            line = rng.choice(["choose accept-play", "choose accept-pass"])
        elif phase == "match-over":
            raise SystemExit("the match ended early: lower the pot rate")
        else:
            roll = rng.random()
            if roll < 0.003 and s.balls_on_table > 1:
                line = "shot pots=1"
            elif roll < 0.005:
                line = f"shot foul={rng.choice(['push', 'no-contact', 'double-hit'])}"
            elif roll < 0.015 and probe.events:
                line = "undo"
            else:
                line = "shot"
        probe.step(parse_line(line))
        lines.append(line)
    return lines


def peak_rss_kb(log: Path) -> int:
    """Peak resident memory of one `scoreboard replay LOG` run, in KiB."""
    child = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "replay", str(log)], stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise SystemExit(f"scoreboard replay {log} failed ({child.returncode})")
    return usage.ru_maxrss  # KiB on Linux


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        figures = {}
        for events in (1_000, 10_000, 100_000):
            log = Path(tmp) / f"{events}.log"
            log.write_text("\n".join(long_log(events)) + "\n")
            figures[events] = peak_rss_kb(log)
            print(f"replay memory: {events:,} events, peak RSS {figures[events] / 1024:.1f} MiB")
        per_event = (figures[100_000] - figures[10_000]) * 1024 / 90_000
        print(f"replay memory: {per_event:.0f} bytes per event from 10k to 100k events")


if __name__ == "__main__":
    main()
