"""Six pocket beam sensors on the Pi's own GPIO, counted by the board's counter code.

The counting is `portable.pocket_counter`, the same code the sensor board runs, so a
table gets the same counting whichever way the sensors are wired. gpiozero calls back
on its own thread; callbacks only timestamp edges and `put()`; the loop's owner calls
`tick()` every 10-50 ms, since a ball counts only once the beam has stayed clear.
"""

import threading
import time

from gpiozero import DigitalInputDevice

from scoreboard.inputs.events import Pot, SensorCleared, SensorStuck
from scoreboard.inputs.portable.pocket_counter import CLEARED, POT, STUCK, PocketCounter

# BCM 24 and 25 are left to the SSD1322 display (DC, reset): see hardware/pinmap.toml.
DEFAULT_PINS = (17, 27, 22, 23, 16, 26)
_EVENTS = {POT: Pot, STUCK: SensorStuck, CLEARED: SensorCleared}


class GpioPockets:
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
        on_edge=None,
    ):
        self.put = put
        self.clock = clock
        # Called (on gpiozero's thread) after every edge, so the owner can tick while
        # an input is moving and sleep when it is not.
        self.on_edge = on_edge
        self.pins = tuple(pins)
        self._lock = threading.Lock()
        self._counters = []
        self._devices = []
        for pocket, pin in enumerate(self.pins, start=1):
            counter = PocketCounter(
                chatter_ms=chatter_ms, min_ball_ms=min_ball_ms, stuck_ms=stuck_ms, clear_ms=clear_ms
            )
            # Open-collector receivers need the pull-up and read low when blocked;
            # a push-pull sensor that drives high when blocked gets the pull-down.
            device = DigitalInputDevice(
                pin, pull_up=blocked_when_low, bounce_time=None, pin_factory=pin_factory
            )
            device.when_activated = self._callback(pocket, counter, True)
            device.when_deactivated = self._callback(pocket, counter, False)
            self._counters.append(counter)
            self._devices.append(device)

    def tick(self, now=None):
        """Count balls that have left their beam and report stuck beams."""
        now = self.clock() if now is None else now
        with self._lock:
            found = [
                (pocket, event)
                for pocket, counter in enumerate(self._counters, start=1)
                for event in counter.poll(now * 1000.0)
            ]
        self._put(found)

    def busy(self):
        """True while a tick may still count a ball or find a stuck beam."""
        with self._lock:
            return any(c.busy for c in self._counters)

    def close(self):
        for device in self._devices:
            device.close()
        self._devices = []

    def _callback(self, pocket, counter, blocked):
        def changed():
            with self._lock:
                found = [(pocket, e) for e in counter.edge(blocked, self.clock() * 1000.0)]
            self._put(found)
            if self.on_edge is not None:
                self.on_edge()

        return changed

    def _put(self, found):
        for pocket, (kind, t_ms) in found:
            self.put(_EVENTS[kind](pocket, t_ms / 1000.0))
