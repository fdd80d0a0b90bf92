"""Benchmark: `scoreboard replay` throughput, including process start, and its memory.

Targets (issue 10): >= 100,000 events/s on a 100k-event log (race 99, 99 frames of 1,000
misses and 8 pots), run as a club runs it: `scoreboard replay LOG` in a new process.
Memory: bench/replay_memory.py. Prints; asserts nothing.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time

SCOREBOARD = os.path.join(os.path.dirname(sys.executable), "scoreboard")


def season_log(frames: int = 99, misses: int = 1000, pots: int = 8) -> list[str]:
    """A race to 99: frame after frame of misses, then the striker pots out (GR-14 alternates)."""
    lines = ["players Olena Taras", "race 99", "break A"]
    for frame in range(frames):
        if frame:
            lines.append("next")
        lines += ["shot"] * misses + ["shot pots=1"] * pots
    return lines


def run_replay(path: str) -> tuple[float, int]:
    """Wall seconds and peak resident KB of one `scoreboard replay` process."""
    start = time.perf_counter()
    child = subprocess.Popen([SCOREBOARD, "replay", path], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - start
    if status:
        sys.exit(f"scoreboard replay {path} failed ({status})")
    return elapsed, usage.ru_maxrss


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        lines = season_log()
        big, path = len(lines), os.path.join(tmp, "season.log")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        times = [run_replay(path)[0] for _ in range(5)]
        print(
            f"replay (including process start): {big:,} events, "
            f"best {min(times):.2f} s, median {statistics.median(times):.2f} s "
            f"-> {big / min(times):,.0f} events/s (target >= 100,000)"
        )


if __name__ == "__main__":
    main()
