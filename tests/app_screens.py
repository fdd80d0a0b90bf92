"""Screens the app tests show their frames on."""

import json

from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.matchlog import replay
from scoreboard.store.journal import read_journal
from scoreboard.table.presenter import SCREEN_ONLY
from scoreboard.table.setup.model import Draft


class JournalCheckingScreen:
    """A screen that, each time it is shown a state, checks the journal already holds it."""

    def __init__(self, state_dir):
        self.state_dir = state_dir
        self.frames = []

    def show(self, snapshot, *, faults=(), hint=None):
        if not any(f["kind"] == "not-saved" for f in faults):  # else it says it is not
            lines = read_journal(self.state_dir).lines
            durable = replay(lines).snapshot()
            if "confirmation" in snapshot:  # the players' presses after a match (issue 34)
                assert snapshot["confirmation"] == confirmation_of(lines).view(), (
                    "a confirmation shown before it was durable"
                )
            setup = snapshot.get("setup")  # the open setup screen: durable in setup.json
            # the setup and the page between frames are the display's own, not the match's
            match = {k: v for k, v in snapshot.items() if k not in (*SCREEN_ONLY, "confirmation")}
            assert durable == match, "shown before it was durable"
            if setup is not None:
                kept = json.loads((self.state_dir / "setup.json").read_text(encoding="utf-8"))
                assert Draft.from_dict(kept["draft"], ()).view() | {"names": None} == setup | {
                    "names": None
                }, "the setup screen shown before it was durable"
        self.frames.append((snapshot, faults, hint))

    @property
    def shown(self):
        """(snapshot, hint) of each frame shown."""
        return [(snapshot, hint) for snapshot, _, hint in self.frames]
