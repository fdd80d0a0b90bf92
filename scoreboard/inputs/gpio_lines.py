"""What buttons and GPIO beam sensors share: input lines on gpiozero whose edges go, timestamped,
straight onto the loop's queue, and a pure counter that reads them on the loop's thread.

One path from the edge to the match: gpiozero calls back on its own thread, and the callback
only stamps the edge and `put()`s it (a `LineEdge`). The loop hands it back to `take()`,
which runs the pure counter (a debouncer, a pocket counter) and returns what the edge means.
Time alone also decides (a hold, a beam that has stayed blocked): the loop calls `tick(now)`
at `due()`, the moment a tick could next decide something, until it is None: no polling,
no lock (the counters are only ever touched on the loop's thread).
"""

from dataclasses import dataclass

from gpiozero import DigitalInputDevice


@dataclass(frozen=True, slots=True, eq=False)
class LineEdge:
    """An input line changed to `active` at `t` (the loop's clock, read at the edge)."""

    lines: "GpioLines"
    index: int
    active: bool
    t: float


class GpioLines:
    def __init__(self, put, *, clock, pin_factory=None):
        self.put = put
        self.clock = clock
        self._pin_factory = pin_factory
        self._devices = []
        self._readers = []

    def _watch(self, pin, *, pull_up, read):
        """Watch `pin`; `read(active, now)` returns the events an edge gives."""
        # gpiozero's own bounce_time drops edges, which would hide the final level of a
        # chatter from our counters: keep it off and see every edge.
        device = DigitalInputDevice(
            pin, pull_up=pull_up, bounce_time=None, pin_factory=self._pin_factory
        )
        index = len(self._readers)
        self._readers.append(read)
        device.when_activated = lambda: self.put(LineEdge(self, index, True, self.clock()))
        device.when_deactivated = lambda: self.put(LineEdge(self, index, False, self.clock()))
        self._devices.append(device)

    def take(self, edge: LineEdge) -> list:
        """On the loop: what the edge means (events), read by the line's counter."""
        return self._readers[edge.index](edge.active, edge.t)

    def close(self):
        for device in self._devices:
            device.close()
        self._devices = []


def _earliest(times):
    """The earliest of some times, None ones left out; None if there are none."""
    times = [t for t in times if t is not None]
    return min(times) if times else None
