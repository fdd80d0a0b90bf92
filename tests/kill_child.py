"""The appliance under the kill test: plays random inputs as fast as it can until killed.

After each frame it shows, it writes one line to stdout (a single write, so a kill
cannot cut it): the journal's line count, the archive size and the snapshot shown.
"""

import json
import os
import random
import sys

from scoreboard import config as configuration
from scoreboard.app import App
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.journal import list_archive
from scoreboard.loop import ManualClock


class PrintingScreen:
    def __init__(self, state_dir):
        self.state_dir = state_dir
        self.app = None

    def show(self, snapshot, *, faults=(), hint=None):
        archived = len(list_archive(self.state_dir))
        lines = len(self.app.journal.lines) if self.app else -1
        os.write(1, (json.dumps([lines, archived, snapshot]) + "\n").encode())


def main(state_dir: str, seed: int) -> None:
    rng = random.Random(seed)
    clock = ManualClock()
    screen = PrintingScreen(state_dir)
    app = App(
        configuration.default(),
        state_dir=state_dir,
        screens=[screen],
        clock=clock,
        log=lambda message: None,
    )
    screen.app = app
    app.start()
    while True:
        clock.advance(rng.uniform(0.1, 8.0))
        t, roll = clock(), rng.random()
        if roll < 0.3:
            event = Pot(rng.randint(1, 6), t)
        elif roll < 0.65:
            event = ButtonPress(rng.choice("AB"), t)
        elif roll < 0.75:
            event = ButtonHold(rng.choice("AB"), t)
        elif roll < 0.87:
            event = ButtonPress("foul", t)
        elif roll < 0.99:
            event = ButtonPress("undo", t)
        else:
            event = ButtonHold("undo", t)
        app.loop.put(event)
        app.loop.run_pending()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
