"""One event queue consumed by one thread, with timers on the same thread (Klipper's reactor).

Input threads (gpiozero, pyserial) only :meth:`EventLoop.put`; everything else runs on the
loop. The loop sleeps in ``Queue.get`` until the next event or timer: nothing polls.
Tests drive it with a :class:`ManualClock` and :meth:`EventLoop.run_pending`, never sleeping.
"""

import heapq
import itertools
import queue
import threading
import time
from collections.abc import Callable


class ManualClock:
    """A clock that moves only when told to: simulated time for tests and benchmarks."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Timer:
    """A scheduled call; :meth:`cancel` stops it from running."""

    __slots__ = ("due", "callback", "cancelled")

    def __init__(self, due: float, callback: Callable[[], None]) -> None:
        self.due, self.callback, self.cancelled = due, callback, False

    def cancel(self) -> None:
        self.cancelled = True


class EventLoop:
    def __init__(self, handler: Callable[[object], None], *, clock=time.monotonic) -> None:
        self.clock = clock
        self._handler = handler
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._stopping = threading.Event()

    # -- any thread ----------------------------------------------------------------------------
    def put(self, event) -> None:
        """Hand an event to the loop; safe from any thread."""
        self._queue.put(event)

    def stop(self) -> None:
        self._stopping.set()
        self._queue.put(None)  # wake the loop

    # -- the loop's thread ---------------------------------------------------------------------
    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(due, callback)
        heapq.heappush(self._timers, (due, next(self._order), timer))
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.clock() + delay, callback)

    def run_forever(self) -> None:
        """Run until :meth:`stop`: sleep until an event arrives or a timer is due."""
        while not self._stopping.is_set():
            self._run_due_timers()
            timeout = self.until_next_timer()
            try:
                event = self._queue.get(timeout=timeout)
            except queue.Empty:
                continue
            if event is not None:
                self._handler(event)

    def run_pending(self) -> int:
        """Handle every queued event and every timer due by the clock, without waiting."""
        handled = 0
        while True:
            handled += self._run_due_timers()
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                return handled
            if event is not None:
                self._handler(event)
                handled += 1

    def _run_due_timers(self) -> int:
        ran = 0
        while self._timers and self._timers[0][0] <= self.clock():
            _, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.callback()
                ran += 1
        return ran

    def until_next_timer(self) -> float | None:
        """Seconds until the next timer is due (0: one is due now), None with none set."""
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        if not self._timers:
            return None
        return max(0.0, self._timers[0][0] - self.clock())
