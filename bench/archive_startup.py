"""Benchmark: start-up time of the appliance with a long archive of finished matches.

Issue 9: with 20,000 archived matches start-up took 5.1 s; it must not grow with the
archive (<= 0.5 s). Builds the archive as a club's years would leave it (a match log and
its metadata per match, on the real filesystem), then times the production path: `App`
opening the state directory, replaying the journal and drawing nothing (no screens).
Run from any checkout: `python bench/archive_startup.py [MATCHES]`. Prints figures only.
"""

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scoreboard import config as configuration
from scoreboard.store.journal import encode
from scoreboard.table.app import App

MATCH = ["players Olena Taras", "race 1", "target 8", "option jumped-ball=foul", "break A"]
META = {
    "players": {"A": "Olena", "B": "Taras"},
    "started": "2026-01-01T19:00:00Z",
    "ended": "2026-01-01T19:40:00Z",
    "finished": True,
    "winner": "A",
    "frames": {"A": 1, "B": 0},
    "frame_scores": [[8, 5]],
    "fouls": {"A": {"push": 1}, "B": {}},
    "longest_run": {"A": 3, "B": 2},
}


def build(state: Path, matches: int) -> None:
    folder = state / "archive"
    folder.mkdir(parents=True)
    log = encode(MATCH + ["shot pots=2", "shot", "shot pots=1"])
    meta = json.dumps(META, indent=1)
    for number in range(1, matches + 1):
        (folder / f"{number:04d}.log").write_bytes(log)
        (folder / f"{number:04d}.json").write_text(meta)


def start_up(state: Path) -> float:
    t = time.perf_counter()
    app = App(configuration.default(), state_dir=state, screens=[], log=lambda m: None)
    elapsed = time.perf_counter() - t
    app.close()
    return elapsed


def measure(state: Path, matches: int, how: str) -> None:
    times = [start_up(state) for _ in range(5)]
    print(
        f"start-up with {matches} archived matches{how}: median {statistics.median(times):.3f} s, "
        f"max {max(times):.3f} s over {len(times)} starts"
    )


def main(matches: int) -> None:
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:
        state = Path(tmp) / "state"
        build(state, matches)
        # A store from before the index: the first start lists the folder and writes it.
        print(f"first start, no archive/last yet: {start_up(state):.3f} s")
        measure(state, matches, " and archive/last")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20_000)
