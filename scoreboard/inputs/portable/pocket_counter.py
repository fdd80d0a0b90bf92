"""Counts balls through one pocket's beam from timestamped edges: chatter, gaps, stuck beams.

Pure and clock-free: the caller passes times in milliseconds (ints on the board,
floats on the host). Runs on the sensor board and on the host (GPIO sensors).

A ball breaks the beam for roughly 15 ms (fast) to 150 ms (slow). The beam is read
as a series of blocked spans:
- a clear gap shorter than `chatter_ms` is chatter inside one ball, so the spans join;
- a joined span shorter than `min_ball_ms` is a spike, not a ball;
- a ball counts on its leading edge, the moment the beam has been blocked for
  `min_ball_ms` (so the display shows it while the ball is still in the beam), or, if
  the beam cleared sooner but the span lasted `min_ball_ms`, once it has stayed clear for
  `chatter_ms`; a span is counted once, and two balls with a clear gap are two;
- a beam blocked for `stuck_ms` is a stuck sensor: reported once and the pocket is
  ignored until the beam has stayed clear for `clear_ms`. A stuck beam is never a ball:
  if its span was already counted, a `RETRACT` (with the span's start) takes it back.
The sensor sits where a ball is already captured (GR-22.5), so a counted ball stays down.
"""

POT = "pot"
STUCK = "stuck"
CLEARED = "cleared"
RETRACT = "retract"  # the pot counted at this time was a stuck beam, not a ball


class PocketCounter:
    """One pocket's counter; `edge()` and `poll()` return lists of (kind, t_ms)."""

    def __init__(self, *, chatter_ms=4, min_ball_ms=5, stuck_ms=2000, clear_ms=1000):
        self.chatter_ms = chatter_ms
        self.min_ball_ms = min_ball_ms
        self.stuck_ms = stuck_ms
        self.clear_ms = clear_ms
        self.blocked = False  # the raw beam, as last seen
        self.stuck = False
        self._start = None  # start of the blocked span being read, if any
        self._clear_at = None  # when the beam last cleared
        self._counted = False  # the span being read was counted on its leading edge

    def due(self):
        """When `poll()` could next decide something (ms), or None: nothing is pending."""
        if self._start is None or (self.blocked and self.stuck):
            return None
        if self.blocked:
            return self._start + (self.stuck_ms if self._counted else self.min_ball_ms)
        return self._clear_at + self._gap()

    def edge(self, blocked, t_ms):
        """The beam changed to `blocked` at `t_ms`; repeated levels are ignored."""
        if blocked == self.blocked:
            return []
        self.blocked = blocked
        if not blocked:
            self._clear_at = t_ms
            return []
        events = []
        if self._start is not None and t_ms >= self._clear_at + self._gap():
            events = self._finish()
        if self._start is None:
            self._start, self._counted = t_ms, False
        return events

    def poll(self, now_ms):
        """Decide what time alone decides: a ball that has left, a beam that is stuck."""
        if self._start is None:
            return []
        if self.blocked:
            if not self.stuck and now_ms >= self._start + self.stuck_ms:
                self.stuck = True
                return [(STUCK, now_ms)] + self._retract()
            if not self._counted and not self.stuck and now_ms >= self._start + self.min_ball_ms:
                self._counted = True  # the leading edge: blocked long enough to be a ball
                return [(POT, self._start)]
            return []
        if now_ms >= self._clear_at + self._gap():
            return self._finish()
        return []

    def idle(self):
        """The beam is clear and no ball is half read."""
        return self._start is None and not self.blocked

    def _gap(self):
        # A stuck beam must stay clear much longer before the pocket counts again, so
        # a failing sensor flickering on and off does not turn into pots.
        return self.clear_ms if self.stuck else self.chatter_ms

    def _retract(self):
        """A stuck beam's span is no ball: take back the pot its leading edge counted."""
        counted, self._counted = self._counted, False
        return [(RETRACT, self._start)] if counted else []

    def _finish(self):
        start, end = self._start, self._clear_at
        if self.stuck:
            self._start, self.stuck = None, False
            return [(CLEARED, end + self.clear_ms)]
        if end - start >= self.stuck_ms:
            # Blocked for the stuck time but no poll saw it: still a fault, not a ball, and
            # the pocket is ignored until the beam has stayed clear for clear_ms, as when a
            # poll sees it (the span stays open; `_gap()` is now clear_ms).
            self.stuck = True
            return [(STUCK, start + self.stuck_ms)] + self._retract()
        counted, self._start, self._counted = self._counted, None, False
        if counted or end - start < self.min_ball_ms:
            return []
        return [(POT, start)]
