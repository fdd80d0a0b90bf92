"""An optional shot clock (issue 11): a time limit per shot with one extension per player per
frame, shown as a bar on the play screen, with beeps where a beeper is fitted.

It is advisory: the rules (RULES.md, FP and GR) set no time limit on a shot, so running out
of time changes nothing by itself; the display and the beeper say so, and the players or a
referee decide what follows (docs/decisions.md). It runs on the app's event loop (simulated
time in tests) and never reaches the journal: a restart starts the shot's time again.

A shot's time runs while a player is at the table in play (after the opening break, which
follows racking): it starts again with every step shown (a pot, a miss, a choice after a
foul, an UNDO), and stops in every other phase. The striker's own button, pressed (it
otherwise only says "hold to pot"), takes his extension: once a frame.
"""

import math

from scoreboard.core.phase import Phase
from scoreboard.inputs.events import ButtonPress


class ShotClock:
    def __init__(
        self,
        call_at,
        clock,
        *,
        seconds: float = 0.0,
        warning: float = 10.0,
        extension: float = 0.0,
        on_tick=lambda: None,
        beep=lambda name: None,
    ):
        self.call_at, self.clock = call_at, clock
        self.seconds, self.warning, self.extension = seconds, warning, extension
        self.on_tick, self.beep = on_tick, beep
        self._key = None  # the step the running shot's time belongs to
        self._ends: float | None = None  # when the shot's time runs out (None: not running)
        self._limit = 0.0
        self._extended: set[tuple[int, str]] = set()  # (frame, side) that used the extension
        self._warned = False
        self._timer = None
        self._striker = None
        self._frame = 0

    @classmethod
    def from_config(cls, config, call_at, clock, **hooks) -> "ShotClock":
        """From the config's [shot_clock]."""
        return cls(
            call_at,
            clock,
            seconds=config.seconds,
            warning=config.warning,
            extension=config.extension,
            **hooks,
        )

    @property
    def on(self) -> bool:
        return self.seconds > 0

    def follow(self, snapshot: dict) -> None:
        """The state being shown: a new step in play starts the shot's time again."""
        if not self.on or snapshot["phase"] != Phase.PLAY:
            self._key = None
            self._stop()
            return
        # A ball joining the open shot changes no count of events (`undo` + the shot again)
        # but the score: the striker's next shot starts after his last ball too.
        score = snapshot["score"]
        key = (snapshot["frame"], snapshot["events"], snapshot["striker"], score["A"], score["B"])
        if key == self._key:
            return
        self._key, self._striker, self._frame = key, snapshot["striker"], snapshot["frame"]
        self._limit = self.seconds
        self._ends = self.clock() + self._limit
        self._warned = False
        self._schedule()

    def takes(self, event, snapshot: dict) -> bool:
        """The striker's own button pressed while his time runs: his extension, once a frame."""
        if not (self._ends is not None and isinstance(event, ButtonPress)):
            return False
        side = snapshot.get("striker")
        if event.button != side or snapshot["phase"] != Phase.PLAY or self.extension <= 0:
            return False
        if (self._frame, side) in self._extended:
            return False  # used: the press says "hold to pot" as before
        self._extended.add((self._frame, side))
        self._ends += self.extension
        self._limit += self.extension
        self._warned = self._warned and self.left() <= self.warning
        self.beep("extension")
        self._schedule()
        return True

    def left(self) -> float:
        return max(0.0, self._ends - self.clock()) if self._ends is not None else 0.0

    def view(self) -> dict | None:
        """For the screens: whole seconds left (rounded up), the limit, whether the striker
        may still extend. None while no shot's time runs."""
        if self._ends is None:
            return None
        return {
            "left": math.ceil(self.left() - 1e-9),
            "limit": math.ceil(self._limit - 1e-9),
            "extension": self.extension > 0 and (self._frame, self._striker) not in self._extended,
        }

    def _tick(self) -> None:
        self._timer = None
        if self._ends is None:
            return
        left = self.left()
        if left <= 1e-9:
            self.beep("time-up")  # the bar stays empty until the next step; nothing else
        else:
            if not self._warned and left <= self.warning + 1e-9:
                self._warned = True
                self.beep("warning")
            self._schedule()
        self.on_tick()

    def _schedule(self) -> None:
        """A tick when the whole seconds left next change: the bar and the figure with them."""
        self._cancel()
        left = self.left()
        if self._ends is None or left <= 0:
            return
        fraction = left - math.floor(left)
        step = fraction if fraction > 1e-9 else 1.0
        self._timer = self.call_at(self.clock() + min(step, left), self._tick)

    def _stop(self) -> None:
        self._ends = None
        self._cancel()

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
