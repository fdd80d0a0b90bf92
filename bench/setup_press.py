"""Benchmark: a button on the setup screen through the real app (setup.json written, fsynced and
renamed before the screen is drawn on a `dummy` display) and Start (setup.json, then the
journal's new setup record, fsync). Prints; asserts nothing.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from appliance_figures import DISK, filesystem, percentiles, state_dir  # noqa: E402

from scoreboard import config as configuration  # noqa: E402
from scoreboard.display import create_displays  # noqa: E402
from scoreboard.inputs.events import ButtonHold, ButtonPress  # noqa: E402
from scoreboard.table.app import App  # noqa: E402
from scoreboard.table.loop import ManualClock  # noqa: E402

ROUNDS = 300


def main() -> None:
    cfg = configuration.loads('[sensors]\nsource = "none"\n')
    clock = ManualClock(1000.0)
    screens = create_displays([{"driver": "dummy"}], lang="uk")
    with state_dir() as state:
        app = App(cfg, state_dir=state, screens=screens, clock=clock, log=lambda m: None)
        app.start()

        def put(event):
            clock.advance(1.0)  # past the double-press window: each press counts
            start = time.perf_counter()
            app.loop.put(event)
            app.loop.run_pending()
            return time.perf_counter() - start

        moves, starts = [], []
        for _ in range(ROUNDS // 10):
            put(ButtonHold("foul", clock.now + 1))  # the setup, at the lag
            moves += [put(ButtonPress("B", clock.now + 1)) for _ in range(9)]
            moves += [put(ButtonPress("A", clock.now + 1)) for _ in range(9)]
            starts.append(put(ButtonPress("foul", clock.now + 1)))  # Start: this match
            if "setup" in app.shown.snapshot:
                sys.exit("Start did not close the setup screen")
        app.close()
    kind = filesystem(DISK)[1]
    p50, p99 = percentiles(moves)
    print(
        f"setup screen press -> shown (setup.json fsync + rename on {kind}): "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms over {len(moves)} presses"
    )
    p50, p99 = percentiles(starts)
    print(
        f"setup Start -> match shown (setup.json, then the journal's setup record): "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms over {len(starts)} starts"
    )


if __name__ == "__main__":
    main()
