"""One event queue consumed by one thread, with timers on the same thread (Klipper's reactor).

Input threads (gpiozero, pyserial) only :meth:`EventLoop.put_input`, the rest (the local
socket's commands) :meth:`EventLoop.put`; everything else runs on the loop. The loop sleeps in
``Queue.get`` until the next event or timer: nothing polls. A player's input always goes
first: every input put is taken before the next timer and before the next other event, so a
button or a ball never waits behind the network, and a timer (a hold, a shot's end) never
decides at a moment an input already put says otherwise (a release queued for 2 s behind a
flood of commands is still a press, not a hold).
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


_WAKE = object()  # put on the queue with each input: wakes a loop asleep in get()


class EventLoop:
    def __init__(self, handler: Callable[[object], None], *, clock=time.monotonic) -> None:
        self.clock = clock
        self._handler = handler
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._inputs: queue.SimpleQueue = queue.SimpleQueue()  # a player's: taken first
        self._timers: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._stopping = threading.Event()

    # -- any thread ----------------------------------------------------------------------------
    def put(self, event) -> None:
        """Hand an event to the loop; safe from any thread."""
        self._queue.put(event)

    def put_input(self, event) -> None:
        """Hand a player's input (a button's or a sensor's edge, a ball, the board's news) to
        the loop, to be taken before any other event or timer; safe from any thread."""
        self._inputs.put(event)
        self._queue.put(_WAKE)  # a loop asleep in get() wakes for it

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
            self._run_inputs()
            self._run_due_timers()
            timeout = self.until_next_timer()
            try:
                event = self._queue.get(timeout=timeout)
            except queue.Empty:
                continue
            self._run_inputs()  # what a player did before this event goes first
            if event is not None and event is not _WAKE:
                self._handler(event)

    def run_pending(self) -> int:
        """Handle every queued event and every timer due by the clock, without waiting."""
        handled = 0
        while True:
            handled += self._run_inputs()
            handled += self._run_due_timers()
            try:
                event = self._queue.get_nowait()
            except queue.Empty:
                if self._inputs.empty():
                    return handled
                continue
            handled += self._run_inputs()
            if event is not None and event is not _WAKE:
                self._handler(event)
                handled += 1

    def _run_inputs(self) -> int:
        ran = 0
        while True:
            try:
                event = self._inputs.get_nowait()
            except queue.Empty:
                return ran
            self._handler(event)
            ran += 1

    def _run_due_timers(self) -> int:
        ran = 0
        while True:
            ran += self._run_inputs()  # an input put before a timer is due goes first
            if not (self._timers and self._timers[0][0] <= self.clock()):
                return ran
            _, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.callback()
                ran += 1

    def until_next_timer(self) -> float | None:
        """Seconds until the next timer is due (0: one is due now), None with none set."""
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        if not self._timers:
            return None
        return max(0.0, self._timers[0][0] - self.clock())
