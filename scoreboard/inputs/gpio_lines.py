"""What buttons and GPIO beam sensors share: input lines on gpiozero, each edge timestamped,
read by a pure counter under a lock, and what comes out handed to `put()`.

gpiozero calls back on its own thread, so the callbacks do no more than that. Time alone
also decides (a hold, a ball that has left the beam): `on_edge` tells the owner, after
every edge, that an input moved, and the owner calls `tick()` at `due()`, the moment a
tick could next decide something, until it is None: no polling.
"""

import threading

from gpiozero import DigitalInputDevice


class GpioLines:
    def __init__(self, put, *, clock, pin_factory=None, on_edge=None):
        self.put = put
        self.clock = clock
        self.on_edge = on_edge
        self._pin_factory = pin_factory
        self._lock = threading.Lock()
        self._devices = []

    def _watch(self, pin, *, pull_up, read):
        """Watch `pin`; `read(active, now)` returns the events an edge gives."""
        # gpiozero's own bounce_time drops edges, which would hide the final level of a
        # chatter from our counters: keep it off and see every edge.
        device = DigitalInputDevice(
            pin, pull_up=pull_up, bounce_time=None, pin_factory=self._pin_factory
        )
        device.when_activated = self._edge(read, True)
        device.when_deactivated = self._edge(read, False)
        self._devices.append(device)

    def _edge(self, read, active):
        def changed():
            # put() under the lock too, so events of two lines reach the queue in order.
            with self._lock:
                for event in read(active, self.clock()):
                    self.put(event)
            if self.on_edge is not None:
                self.on_edge()

        return changed

    def _tick_all(self, poll, now):
        with self._lock:
            for event in poll(self.clock() if now is None else now):
                self.put(event)

    def close(self):
        for device in self._devices:
            device.close()
        self._devices = []


def _earliest(times):
    """The earliest of some times, None ones left out; None if there are none."""
    times = [t for t in times if t is not None]
    return min(times) if times else None
