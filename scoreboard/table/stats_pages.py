"""The pages shown between frames and at the end of the match: the result, then statistics
(frame scores and times, longest runs, fouls by kind). They turn by themselves every
``[display] page_seconds``; FOUL also turns them, between frames and after the match (it
has nothing else to do there, but for a FOUL on the stroke that ended the frame, which the
panel takes first: GR-22.3). A and B after the match confirm its result (issue 34), so FOUL
never opens the next match's setup: the pages are shown first. Which page is shown is the display's business only: it goes to the
screens as the snapshot's ``page`` and never into the journal.
"""

from scoreboard.core.phase import OVER
from scoreboard.display.screens.between_frames import PAGES
from scoreboard.inputs.events import Button, ButtonPress


class StatsPages:
    def __init__(self, call_later, *, every: float = 0.0, on_turn=lambda: None):
        self.call_later = call_later
        self.every = every  # seconds a page stays before the next (0: only FOUL turns them)
        self.on_turn = on_turn  # redraw after a page turned by itself
        self.index: int | None = None  # None: not between frames
        self._timer = None

    @property
    def current(self) -> str | None:
        return None if self.index is None else PAGES[self.index]

    def follow(self, phase: str) -> None:
        """The phase now shown: the pages start at the result when a frame ends, and stop
        when play goes on (or UNDO takes the frame's end back)."""
        if phase in OVER and self.index is None:
            self.index = 0
            self._schedule()
        elif phase not in OVER and self.index is not None:
            self.index = None
            self._cancel()

    def takes(self, event, phase: str) -> bool:
        """FOUL pressed between frames or after the match turns the page (the press does
        nothing else)."""
        if not (isinstance(event, ButtonPress) and event.button == Button.FOUL):
            return False
        if phase not in OVER:
            return False
        self.follow(phase)
        self._turn()
        return True

    def _turn(self) -> None:
        self.index = (self.index + 1) % len(PAGES)
        self._schedule()

    def _turned_by_time(self) -> None:
        self._timer = None
        if self.index is not None:
            self._turn()
            self.on_turn()

    def _schedule(self) -> None:
        self._cancel()
        if self.every > 0:
            self._timer = self.call_later(self.every, self._turned_by_time)

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
