"""Six pocket beam sensors on the Pi's own GPIO, counted by the board's counter code.

The counting is `portable.pocket_counter`, the same code the sensor board runs, so a
table gets the same counting whichever way the sensors are wired. The loop calls
`tick()` at `due()` (see gpio_lines): a ball counts once the beam has been blocked for
`min_ball_ms`, and a stuck beam takes its pot back.
"""

import time

from scoreboard.config import PinsConfig
from scoreboard.inputs.events import Pot, SensorCleared, SensorStuck
from scoreboard.inputs.gpio_lines import GpioLines, _earliest
from scoreboard.inputs.portable.pocket_counter import (
    CLEARED,
    POT,
    RETRACT,
    STUCK,
    PocketCounter,
)

# The config's default pockets ([pins] pockets, their one home; BCM 24 and 25 are left to the
# SSD1322 display, DC and reset: see hardware/pinmap.toml).
DEFAULT_PINS = PinsConfig().pockets
_EVENTS = {
    POT: Pot,
    STUCK: SensorStuck,
    CLEARED: SensorCleared,
    RETRACT: lambda pocket, t: Pot(pocket, t, retract=True),
}


class GpioPockets(GpioLines):
    """Pockets 1-6 on `pins`; a break-beam receiver pulls its line low when blocked."""

    def __init__(
        self,
        put,
        *,
        pins=DEFAULT_PINS,
        blocked_when_low=True,
        chatter_ms=4,
        min_ball_ms=5,
        stuck_ms=2000,
        clear_ms=1000,
        clock=time.monotonic,
        pin_factory=None,
    ):
        super().__init__(put, clock=clock, pin_factory=pin_factory)
        self.pins = tuple(pins)
        self._counters = []
        for pocket, pin in enumerate(self.pins, start=1):
            counter = PocketCounter(
                chatter_ms=chatter_ms, min_ball_ms=min_ball_ms, stuck_ms=stuck_ms, clear_ms=clear_ms
            )
            # Open-collector receivers need the pull-up and read low when blocked;
            # a push-pull sensor that drives high when blocked gets the pull-down.
            self._watch(pin, pull_up=blocked_when_low, read=self._reader(pocket, counter))
            self._counters.append(counter)

    def tick(self, now):
        """Balls that time has decided and stuck beams, as events."""
        return [
            _EVENTS[kind](pocket, t_ms / 1000.0)
            for pocket, counter in enumerate(self._counters, start=1)
            for kind, t_ms in counter.poll(now * 1000.0)
        ]

    def due(self):
        """When `tick()` could next count a ball or find a stuck beam (seconds), or None."""
        due_ms = _earliest(c.due() for c in self._counters)
        return None if due_ms is None else due_ms / 1000.0

    @staticmethod
    def _reader(pocket, counter):
        def read(blocked, now):
            return [
                _EVENTS[k](pocket, t_ms / 1000.0) for k, t_ms in counter.edge(blocked, now * 1000.0)
            ]

        return read
