"""The players confirm a finished match's result at the table (issue 34; core/confirmation.py).

When the match is over, each player presses his own button to confirm the result the
display shows; each press is written to the journal before the display shows it. Until both
have pressed, every correction works as in play (UNDO, a late FOUL on the winning stroke),
and a correction asks them again. Both presses close the result: it is final at the table,
and only then (or once `[timings] confirm_result` has passed without both, the result then
marked *timed out*) does the table take the next match, the club's next game included.
"""

from scoreboard.core.confirmation import (
    TIMED_OUT_COMMENT,
    Confirmation,
    confirm_line,
    confirmation_of,
)
from scoreboard.core.phase import Phase
from scoreboard.table.step_words import name_of, said


class ResultConfirm:
    """`recorder` writes the presses; `closed()` is called once a result closes (both pressed,
    or the time ran out), to take what waits for the table."""

    def __init__(self, recorder, *, call_later, seconds: float, closed, show, busy=None) -> None:
        self.recorder = recorder
        self.call_later = call_later
        self.seconds = seconds  # how long the players have to confirm
        self.on_closed = closed
        self.show = show
        self.busy = busy or (lambda: False)  # a FOUL step waits to be taken: not yet
        self._timer = None
        self._steps: int | None = None  # the match's steps when the time started

    @property
    def match(self):
        return self.recorder.match

    def state(self) -> Confirmation | None:
        """What the journal holds now, in match-over; None in any other phase."""
        if self.match.phase != Phase.MATCH_OVER:
            return None
        return confirmation_of(self.recorder.storage.lines)

    def open(self) -> bool:
        """The match is over and its result still waits for the players."""
        state = self.state()
        return state is not None and state.closed is None

    def final(self) -> bool:
        """The match is over and its result closed: nothing at the table changes it."""
        state = self.state()
        return state is not None and state.closed is not None

    def follow(self) -> None:
        """Called after every step: the time to confirm starts when a match ends (again, after
        a correction), and stops when play goes on."""
        steps = self.match.steps  # an amend (a ball joining the winning stroke) is a step too
        if not self.open():
            self._stop()
            return
        if self._timer is not None and self._steps == steps:
            return
        self._stop()
        self._steps = steps
        self._timer = self.call_later(self.seconds, self._time_up)

    def press(self, side: str):
        """Player `side` confirms the result shown: the hint the display then says."""
        state = self.state()
        if state is None or state.closed is not None:
            return None
        if state.by(side):
            other = "B" if side == "A" else "A"
            return said("confirm-waits", name=name_of(self.match, other))
        self.recorder.write([confirm_line(side)])
        if self.final():
            self._stop()
            self.on_closed()
            return "result-confirmed"
        return said("confirmed-by", name=name_of(self.match, side))

    def _time_up(self) -> None:
        self._timer = None
        if self.busy():  # a FOUL step waits (it may change the result): once it is taken
            self._timer = self.call_later(1.0, self._time_up)
            return
        if self.open() and self.match.steps == self._steps:
            self.recorder.write([TIMED_OUT_COMMENT])
            self.on_closed()
            self.show()

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
