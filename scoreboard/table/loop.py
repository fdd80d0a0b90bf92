"""One event queue consumed by one thread, with timers on the same thread (Klipper's reactor).

Input threads (gpiozero, pyserial) only :meth:`EventLoop.put_input`, the rest (the local
socket's commands) :meth:`EventLoop.put`; everything else runs on the loop. The loop sleeps in
``Queue.get`` until the next event or timer: nothing polls. Events are taken in the order they
were put (an UNDO sent before a ball takes back the step before the ball). A timer never
decides while a player's input put before it is due still waits: the queue is taken up to
that input first, so a hold's timer never makes a press a hold because its release waited in
the queue behind the network's commands (which the socket bounds, bridge/table.py).
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


class _Input:
    """A player's input on the queue: the timers wait for it (see the module's docstring)."""

    __slots__ = ("event",)

    def __init__(self, event) -> None:
        self.event = event


class EventLoop:
    def __init__(self, handler: Callable[[object], None], *, clock=time.monotonic) -> None:
        self.clock = clock
        self._handler = handler
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._inputs = 0  # a player's inputs on the queue, not yet taken
        self._inputs_lock = threading.Lock()
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._stopping = threading.Event()

    # -- any thread ----------------------------------------------------------------------------
    def put(self, event) -> None:
        """Hand an event to the loop; safe from any thread."""
        self._queue.put(event)

    def put_input(self, event) -> None:
        """Hand a player's input (a button's or a sensor's edge, a ball, the board's news) to
        the loop: no timer runs before it is taken; safe from any thread."""
        with self._inputs_lock:
            self._inputs += 1
        self._queue.put(_Input(event))

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
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                continue
            self._take(item)

    def run_pending(self) -> int:
        """Handle every queued event and every timer due by the clock, without waiting."""
        handled = 0
        while True:
            handled += self._run_due_timers()
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return handled
            handled += self._take(item)

    def _take(self, item) -> int:
        if isinstance(item, _Input):
            with self._inputs_lock:
                self._inputs -= 1
            item = item.event
        if item is None:
            return 0
        self._handler(item)
        return 1

    def _inputs_first(self) -> int:
        """The queue up to the last player's input put by now, in order: a timer due now
        must not decide before it. Bounded: inputs put meanwhile wait for the next timer."""
        with self._inputs_lock:
            waiting = self._inputs
        ran = 0
        while waiting > 0 and not self._stopping.is_set():
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if isinstance(item, _Input):
                waiting -= 1
            ran += self._take(item)
        return ran

    def _due(self) -> bool:
        return bool(self._timers) and self._timers[0][0] <= self.clock()

    def _run_due_timers(self) -> int:
        ran = 0
        while self._due():
            ran += self._inputs_first()
            if not self._due():  # what the inputs did may have cancelled it
                break
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
