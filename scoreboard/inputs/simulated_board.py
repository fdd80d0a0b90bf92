"""A simulated sensor board: the firmware's logic on the far end of a pseudo-terminal.

Tests and `scoreboard sim` use it in place of a Pico. It runs the very `Board` class the
firmware runs; only the pins, the flash and the USB port are simulated. Time comes from
`clock` (seconds), so a test advances a fake clock and calls `step()`; `start()` runs it
on a thread against a real clock for the simulator. That thread steps every `interval`
while the board is busy (a ball in a beam, pots not acked, flash to write) and otherwise
sleeps until the next heartbeat, beam edge, byte from the host or call from the table,
as the appliance's loop does (an idle simulator costs next to no CPU).

Flash is modelled as on the RP2040: a write stops the board for `flash_ms` (interrupts
wait; each pin's edge flags stay latched and fire once when it ends, with the pin's
level then, as firmware/main.py reads them), and it is atomic (littlefs writes a new
file and renames it): a power cut during it leaves the old contents.
"""

import contextlib
import os
import random
import select
import threading
import tty

from scoreboard.inputs.portable.board import POCKETS, Board, MemoryStore


class SimulatedBoard:
    """The far end of a serial link, counting balls that `drop_ball()` lets fall."""

    def __init__(
        self,
        port_fd,
        clock,
        *,
        ball_ms=40,
        gap_ms=30,
        flash_ms=(20, 60),
        seed=None,
        board_class=Board,
        **board_options,
    ):
        self.fd = port_fd
        os.set_blocking(port_fd, False)
        self.clock = clock
        self.ball_ms = ball_ms
        self.gap_ms = gap_ms
        self.flash_ms = flash_ms
        self.board_class = board_class
        self.board_options = board_options
        self.random = random.Random(seed)
        self.store = MemoryStore()  # the board's flash: survives reset()
        self.plugged = True
        self.powered = True
        self.resets = 0
        self.flash_writes = 0
        self._flashing = None  # (ends at ms, started at ms, image) while flash is written
        self._latched = {}  # pin index -> edge flags (1 blocked, 2 cleared) during a write
        self._edges = []  # (t_ms, pocket index, blocked), kept sorted
        self._free_at = [float("-inf")] * POCKETS  # when each beam is free for a next ball
        self._level = [False] * POCKETS
        self._lock = threading.Lock()
        self._thread = None
        self._stop = threading.Event()
        self._wake = None  # a pipe the table's calls write to, to wake the idle thread
        self._keep = []
        self.board = self._boot()

    @classmethod
    def open_pty(cls, clock, **options):
        """A board on a new pty pair; returns (board, path of the host's end)."""
        master, slave = os.openpty()
        # Raw, so the terminal layer neither echoes nor rewrites bytes before pyserial
        # sets its own mode.
        tty.setraw(slave)
        board = cls(master, clock, **options)
        # Keep the host's end open here too: with no slave open, reads on the master fail.
        board._keep.append(slave)
        return board, os.ttyname(slave)

    def close(self):
        self.stop()
        wake, self._wake = self._wake or (), None
        for fd in [self.fd, *self._keep, *wake]:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._keep = []

    # -- the table ---------------------------------------------------------------------

    def drop_ball(self, pocket, *, duration_ms=None, chatter=0):
        """A ball falls through pocket `pocket` (1-6) now, or once the beam is free.

        `chatter` adds that many short flickers of the beam at each end of the ball.
        Returns when (ms) the ball breaks the beam and when it leaves it.
        """
        with self._changing():
            index = pocket - 1
            start = max(self._now_ms(), self._free_at[index] + self.gap_ms)
            end = start + (self.ball_ms if duration_ms is None else duration_ms)
            edges = [(start, True), (end, False)]
            for _ in range(chatter):
                # A flicker just inside the ball and a blip just after it, both well
                # under the counter's chatter time.
                at = start + self.random.uniform(0.5, 5)
                edges += [(at, False), (at + 0.3, True)]
                at = end + self.random.uniform(0.5, 2.5)
                edges += [(at, True), (at + 0.3, False)]
            self._free_at[index] = end + (3 if chatter else 0)
            for t_ms, blocked in sorted(edges):
                self._edges.append((t_ms, index, blocked))
            self._edges.sort()
            return start, end

    def stick(self, pocket):
        """Something blocks the beam of `pocket` until `unstick()`."""
        with self._changing():
            self._schedule_level(pocket - 1, True)

    def unstick(self, pocket):
        with self._changing():
            self._schedule_level(pocket - 1, False)

    # -- the board ---------------------------------------------------------------------

    def unplug(self):
        """The cable goes: nothing more reaches the host; the board keeps counting."""
        self.plugged = False
        self._poke()

    def plug(self):
        self.plugged = True
        self._poke()

    def reset(self):
        """A power cut or watchdog reset: RAM is lost, the store (flash) is kept."""
        self.power_off()
        self.power_on()

    def power_off(self):
        """The power goes: a flash write under way leaves the old file; balls go unseen."""
        with self._changing():
            self.powered = False
            self._flashing, self._latched = None, {}

    def power_on(self):
        """A new boot from what flash holds."""
        with self._changing():
            self.powered = True
            self.resets += 1
            self.board = self._boot()
            now = self._now_ms()
            for index in range(POCKETS):
                if self._level[index]:
                    self.board.edge(index, True, now)

    @property
    def writing_flash(self):
        """A flash write is under way (the board is stopped)."""
        return self._flashing is not None

    def step(self):
        """Feed due beam edges and host bytes to the board and send what it has to say."""
        with self._lock:
            now = self._now_ms()
            if not self.powered:
                self._beams(now, None)
                self._read()  # bytes to a board that is off are gone
                return
            if self._flashing is not None:
                self._beams(min(now, self._flashing[0]), self._latched)  # interrupts wait
                if now < self._flashing[0]:
                    return
                self._end_flash_write()
            self._beams(now, None)
            data = self._read()
            if self.plugged and data:
                self.board.receive(data)
            out = self.board.poll(now)
            if self.plugged and out:
                self._write(out)
            if self.board.flash_now(now):
                low, high = self.flash_ms
                image = self.board.flash_image()
                self._flashing = (now + self.random.uniform(low, high), now, image)

    def _beams(self, now, latch):
        while self._edges and self._edges[0][0] <= now:
            t_ms, index, blocked = self._edges.pop(0)
            self._level[index] = blocked
            if latch is not None:
                latch[index] = latch.get(index, 0) | (1 if blocked else 2)
            elif self.powered:
                self.board.edge(index, blocked, t_ms)

    def _end_flash_write(self):
        ends, started, image = self._flashing
        self._flashing = None
        self.store.save(image)
        self.flash_writes += 1
        self.board.flashed()
        # The latched interrupts fire now, once per pin: its flags and its level now.
        for index, flags in sorted(self._latched.items()):
            self.board.latched(index, self._level[index], flags == 3, ends, started)
        self._latched = {}

    def start(self, interval=0.005):
        """Step on a thread of its own (real time) until `stop()`: every `interval` while
        the board is busy, else asleep until something is due or happens."""
        self._stop.clear()
        if self._wake is None:  # closed by close(), so a call racing stop() never writes
            self._wake = os.pipe()  # into a descriptor number used again since
            for fd in self._wake:
                os.set_blocking(fd, False)
        self._thread = threading.Thread(
            target=self._run, args=(interval,), name="simulated-board", daemon=True
        )
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._poke()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _run(self, interval):
        while not self._stop.is_set():
            self.step()
            idle = self._idle_for()
            if idle is False:
                self._stop.wait(interval)  # busy: at the board's own pace, as before
                continue
            # Idle: until the next heartbeat or beam edge, a byte from the host, or a call
            # from the table (`_poke`).
            ready, _, _ = select.select([self.fd, self._wake[0]], [], [], idle)
            if self._wake[0] in ready:
                with contextlib.suppress(BlockingIOError):
                    os.read(self._wake[0], 4096)

    def _idle_for(self):
        """False while the board is busy; else how long (s) nothing is due (None: forever)."""
        with self._lock:
            if self._flashing is not None:
                return False
            due = [self._edges[0][0]] if self._edges else []
            if self.powered:
                beat = self.board.idle_until()
                if beat is None:
                    return False
                due.append(beat)
            if not due:
                return None
            # A millisecond late rather than early: early would wake for nothing.
            return max(0.0, (min(due) - self._now_ms() + 1) / 1000)

    @contextlib.contextmanager
    def _changing(self):
        """The table or the board changes, under the lock; then the idle thread wakes."""
        with self._lock:
            yield
        self._poke()

    def _poke(self):
        wake = self._wake
        if wake is not None:
            with contextlib.suppress(OSError):
                os.write(wake[1], b".")

    # -- inside ------------------------------------------------------------------------

    def _boot(self):
        return self.board_class(self.random.getrandbits(32), store=self.store, **self.board_options)

    def _now_ms(self):
        return self.clock() * 1000.0

    def _schedule_level(self, index, blocked):
        at = max(self._now_ms(), self._free_at[index])
        self._free_at[index] = at if blocked else at + self.gap_ms
        self._edges.append((at, index, blocked))
        self._edges.sort()

    def _read(self):
        chunks = []
        while True:
            try:
                chunk = os.read(self.fd, 4096)
            except (BlockingIOError, OSError):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)

    def _write(self, data):
        # A full line drops bytes, as a real one can; resends cover pots.
        with contextlib.suppress(OSError):
            os.write(self.fd, data)
