"""Screens the app tests show their frames on."""

from scoreboard.journal import read_journal
from scoreboard.matchlog import replay


class JournalCheckingScreen:
    """A screen that, each time it is shown a state, checks the journal already holds it."""

    def __init__(self, state_dir):
        self.state_dir = state_dir
        self.frames = []

    def show(self, snapshot, *, faults=(), hint=None):
        if not any(f["kind"] == "not-saved" for f in faults):  # else it says it is not
            durable = replay(read_journal(self.state_dir).lines).snapshot()
            assert durable == snapshot, "shown before it was durable"
        self.frames.append((snapshot, faults, hint))

    @property
    def shown(self):
        """(snapshot, hint) of each frame shown."""
        return [(snapshot, hint) for snapshot, _, hint in self.frames]
