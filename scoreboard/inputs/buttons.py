"""The button panel on GPIO: gpiozero inputs feeding the debouncer, events to `put()`.

Buttons close to ground with the Pi's pull-ups on, so pressed reads low. The loop
calls `tick()` at `due()` (see gpio_lines), so a hold is reported while the button is
still down and a press once its release has settled.
"""

import time

from scoreboard.config import PinsConfig, TimingsConfig
from scoreboard.inputs.debounce import ButtonDebouncer
from scoreboard.inputs.events import Button
from scoreboard.inputs.gpio_lines import GpioLines, _earliest

# The config's defaults, their one home ([pins], [timings]); the appliance passes its own.
_PINS, _TIMINGS = PinsConfig(), TimingsConfig()
DEFAULT_PINS = {
    Button.A: _PINS.player_a,
    Button.B: _PINS.player_b,
    Button.FOUL: _PINS.foul,
    Button.UNDO: _PINS.undo,
}
# UNDO held 3 s asks for a new match, so an ordinary hold of it must not do anything
# drastic; the others use the 1 s hold of a manual pot.
DEFAULT_HOLD_TIMES = {
    Button.A: _TIMINGS.hold_time,
    Button.B: _TIMINGS.hold_time,
    Button.FOUL: _TIMINGS.hold_time,
    Button.UNDO: _TIMINGS.undo_hold_time,
}


class Buttons(GpioLines):
    """The four panel buttons; `close()` releases the pins."""

    def __init__(
        self,
        put,
        *,
        pins=None,
        hold_times=None,
        bounce_time=_TIMINGS.button_debounce,
        clock=time.monotonic,
        pin_factory=None,
    ):
        super().__init__(put, clock=clock, pin_factory=pin_factory)
        self.pins = dict(DEFAULT_PINS if pins is None else pins)
        holds = dict(DEFAULT_HOLD_TIMES)
        holds.update(hold_times or {})
        self._debouncers = {}
        for button, pin in self.pins.items():
            debouncer = ButtonDebouncer(button, bounce_time=bounce_time, hold_time=holds[button])
            self._watch(pin, pull_up=True, read=debouncer.edge)
            self._debouncers[button] = debouncer

    def tick(self, now):
        """Holds that are due and presses whose release has settled, as events."""
        return [event for d in self._debouncers.values() for event in d.tick(now)]

    def due(self):
        """When `tick()` could next report something (seconds), or None."""
        return _earliest(d.due() for d in self._debouncers.values())
