"""Button debouncing and press/hold classification over timestamped edges; pure, no GPIO.

A level counts once it has been stable for `bounce_time`: a contact that chatters
settles into one change, a spike shorter than that is nothing. A settled press
becomes a ButtonHold once it has lasted `hold_time` (reported by `tick()` while it is
still held, or at the release at the latest) and then gives no ButtonPress on release;
a shorter one becomes a ButtonPress when its release settles. So a press gives exactly
one event, never a press and a hold, never two.
"""

from scoreboard.inputs.events import ButtonHold, ButtonPress


class ButtonDebouncer:
    """One button. Feed `edge(pressed, t)` with every raw change and `tick(now)` often."""

    def __init__(self, button, *, bounce_time=0.02, hold_time=1.0):
        self.button = button
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.pressed = False  # the settled level
        self._raw = False
        # When the raw level last changed and when the settled press began: None until an
        # edge and a settled press set them (nothing reads them before).
        self._raw_since = self._pressed_at = None
        self._held = False

    def due(self):
        """When a tick could next produce an event (seconds), or None: nothing is pending."""
        times = []
        if self._raw != self.pressed:
            times.append(self._raw_since + self.bounce_time)
        elif self.pressed and not self._held:
            times.append(self._pressed_at + self.hold_time)
        return min(times) if times else None

    def edge(self, pressed, t):
        """The raw contact changed to `pressed` at `t` (seconds); returns events now known."""
        events = self.tick(t)
        if pressed != self._raw:
            self._raw = pressed
            self._raw_since = t
        return events

    def tick(self, now):
        """Settle the raw level if it has been stable long enough; report a hold if due."""
        events = []
        if self._raw != self.pressed and now >= self._raw_since + self.bounce_time:
            # The change happened when the contact last moved, not when we noticed.
            events += self._settle(self._raw, self._raw_since)
        # While a release is still settling, the press lasted until the contact opened,
        # not until now: a 0.99 s press is not made a hold by its release bounce.
        held_until = now if self._raw else self._raw_since
        if self.pressed and not self._held and held_until >= self._pressed_at + self.hold_time:
            self._held = True
            events.append(ButtonHold(self.button, self._pressed_at + self.hold_time))
        return events

    def _settle(self, pressed, t):
        self.pressed = pressed
        if pressed:
            self._pressed_at = t
            self._held = False
            return []
        # A press that lasted the hold time is a hold already: `edge()` ticks at the release's
        # own time before taking it, and that tick reports the hold.
        return [] if self._held else [ButtonPress(self.button, t)]
