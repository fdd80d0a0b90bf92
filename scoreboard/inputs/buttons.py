"""The button panel on GPIO: gpiozero inputs feeding the debouncer, events to `put()`.

Buttons close to ground with the Pi's pull-ups on, so pressed reads low. gpiozero
calls back on its own thread; the callbacks only timestamp the edge, run the
debouncer under a lock and `put()` what comes out. The loop's owner calls `tick()`
every few tens of milliseconds so a hold is reported while the button is still down.
"""

import threading
import time

from gpiozero import DigitalInputDevice

from scoreboard.inputs.debounce import ButtonDebouncer

DEFAULT_PINS = {"A": 5, "B": 6, "foul": 13, "undo": 19}
# UNDO held 3 s starts a new match (after a confirmation), so an ordinary hold of it
# must not do anything drastic; the others use the 1 s hold of a manual pot.
DEFAULT_HOLD_TIMES = {"A": 1.0, "B": 1.0, "foul": 1.0, "undo": 3.0}


class Buttons:
    """The four panel buttons; `close()` releases the pins."""

    def __init__(
        self,
        put,
        *,
        pins=None,
        hold_times=None,
        bounce_time=0.02,
        clock=time.monotonic,
        pin_factory=None,
        on_edge=None,
    ):
        self.put = put
        self.clock = clock
        # Called (on gpiozero's thread) after every edge, so the owner can tick while
        # an input is moving and sleep when it is not.
        self.on_edge = on_edge
        self.pins = dict(DEFAULT_PINS if pins is None else pins)
        holds = dict(DEFAULT_HOLD_TIMES)
        holds.update(hold_times or {})
        self._lock = threading.Lock()
        self._debouncers = {}
        self._devices = []
        for button, pin in self.pins.items():
            debouncer = ButtonDebouncer(button, bounce_time=bounce_time, hold_time=holds[button])
            # gpiozero's own bounce_time drops edges, which would hide the final level
            # of a chatter from the debouncer: keep it off and see every edge.
            device = DigitalInputDevice(
                pin, pull_up=True, bounce_time=None, pin_factory=pin_factory
            )
            device.when_activated = self._callback(debouncer, True)
            device.when_deactivated = self._callback(debouncer, False)
            self._debouncers[button] = debouncer
            self._devices.append(device)

    def tick(self, now=None):
        """Report holds that are due; call it from the loop every 10-50 ms."""
        now = self.clock() if now is None else now
        with self._lock:
            events = [e for d in self._debouncers.values() for e in d.tick(now)]
        for event in events:
            self.put(event)

    def busy(self):
        """True while a tick may still produce an event."""
        with self._lock:
            return any(d.busy for d in self._debouncers.values())

    def close(self):
        for device in self._devices:
            device.close()
        self._devices = []

    def _callback(self, debouncer, pressed):
        def changed():
            with self._lock:
                events = debouncer.edge(pressed, self.clock())
            for event in events:
                self.put(event)
            if self.on_edge is not None:
                self.on_edge()

        return changed
