"""Benchmark: UNDO through the real app at event 2,000 (target p99 <= 10 ms). Prints; asserts nothing.

The production path: the UNDO button's press goes through the loop, the panel, the match's
undo, the journal (fsync, on a real disk: see appliance_figures.DISK) and the redraw of a
`dummy` display. Between two timed undos the undone miss is played again, so every undo
takes back the 2,000th event of a long match.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from appliance_figures import DISK, filesystem, percentiles, state_dir  # noqa: E402

from scoreboard import config as configuration  # noqa: E402
from scoreboard.display import create_displays  # noqa: E402
from scoreboard.inputs.events import ButtonPress  # noqa: E402
from scoreboard.table.app import App  # noqa: E402
from scoreboard.table.loop import ManualClock  # noqa: E402

EVENTS = 2000
ROUNDS = 300


def main() -> None:
    cfg = configuration.loads('[match]\nrace = 99\n[sensors]\nsource = "none"\n')
    clock = ManualClock(1000.0)
    screens = create_displays([{"driver": "dummy"}], lang="uk")
    with state_dir() as state:
        app = App(cfg, state_dir=state, screens=screens, clock=clock, log=lambda m: None)
        app.start()

        def press(button):
            clock.advance(1.0)  # past the double-press window: each press counts
            app.loop.put(ButtonPress(button, clock.now))
            app.loop.run_pending()

        press("A")  # GR-8.4: A breaks
        while len(app.match.events) < EVENTS:
            # GR-7.2: the player not at the table presses: the striker missed.
            press("B" if app.match.state.striker == "A" else "A")
        timings = []
        for _ in range(ROUNDS):
            start = time.perf_counter()
            press("undo")
            timings.append(time.perf_counter() - start)
            if len(app.match.events) != EVENTS - 1:
                sys.exit(f"UNDO did not take back event {EVENTS}: {len(app.match.events)} events")
            press("B" if app.match.state.striker == "A" else "A")
        app.close()
    p50, p99 = percentiles(timings)
    kind = filesystem(DISK)[1]
    print(
        f"undo at event {EVENTS:,} through the app (journal fsync on {kind}): "
        f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {max(timings) * 1e3:.2f} ms "
        f"(target p99 <= 10 ms; {statistics.mean(timings) * 1e3:.2f} ms mean)"
    )


if __name__ == "__main__":
    main()
