"""OLED burn-in (issue 11): after an idle time the OLEDs dim, later a screen saver moves the
score around the panel; any input wakes them, and a button press that wakes the saver does
nothing else (the player could not see what it would do).

Idle means no input: no button, no ball, no board or sensor news. Timers run on the app's
event loop (ManualClock in tests). While only dimmed the score is still readable, so a
press then acts as usual. The MAX7219 digits for the room do not burn in: left alone.
"""

from scoreboard.inputs.events import (
    BoardHello,
    BoardLost,
    ButtonHold,
    ButtonPress,
    Pot,
    SensorCleared,
    SensorStuck,
)

AWAKE, DIM, SAVER = "awake", "dim", "saver"
SAVER_STEP = 20.0  # seconds between the saver's moves
WAKING = (ButtonPress, ButtonHold, Pot, BoardHello, BoardLost, SensorStuck, SensorCleared)
SWALLOWED = (ButtonPress, ButtonHold)  # a ball always counts, asleep or not


class ScreenSaver:
    """When to dim and when to show the saver; `rest(dim, step)` has the screens do it (the
    presenter: dim to a contrast or None for the configured one, the saver at `step` or None)."""

    def __init__(self, rest, call_later, *, dim_after=300.0, saver_after=900.0, contrast=16):
        self.rest = rest
        self.call_later = call_later
        self.dim_after, self.saver_after, self.dim_contrast = dim_after, saver_after, contrast
        self.state = AWAKE
        self.step = 0
        self._timers = []
        self._schedule()

    @classmethod
    def from_config(cls, display, rest, call_later) -> "ScreenSaver":
        """From the config's [display] (dim_after, saver_after, dim_contrast)."""
        return cls(
            rest,
            call_later,
            dim_after=display.dim_after,
            saver_after=display.saver_after,
            contrast=display.dim_contrast,
        )

    def woken_by(self, event) -> bool:
        """An event reached the app: any input wakes the screens and starts the idle time
        again. True when the event is to go no further: a press that woke the saver."""
        if not isinstance(event, WAKING):
            return False
        asleep = self.state == SAVER
        if self.state != AWAKE:
            self.state = AWAKE
            self.rest(None, None)  # the configured contrast again, the picture again
        self._schedule()
        return asleep and isinstance(event, SWALLOWED)

    def _schedule(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        if self.dim_after > 0 and (self.saver_after <= 0 or self.dim_after < self.saver_after):
            self._timers.append(self.call_later(self.dim_after, self._dim))
        if self.saver_after > 0:
            self._timers.append(self.call_later(self.saver_after, self._saver))

    def _dim(self) -> None:
        self.state = DIM
        self.rest(self.dim_contrast, None)

    def _saver(self) -> None:
        self.state = SAVER
        self.step = 0
        self._move()

    def _move(self) -> None:
        self.rest(self.dim_contrast, self.step)
        self.step += 1
        self._timers.append(self.call_later(SAVER_STEP, self._move))
