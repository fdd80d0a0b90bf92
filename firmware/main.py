"""Sensor-board firmware (Raspberry Pi Pico, MicroPython): pins, USB serial and watchdog.

This is the thin hardware layer; the counting, framing and link logic is
`portable.board.Board`, copied to the board as /lib/portable (hardware/README.md).
Anything `@micropython.native` lives here, since the logic must also run on CPython
and on MicroPython ports without a native emitter.
"""

import array
import os
import select
import struct
import sys
import time

import machine
import micropython
from portable.board import Board

# GP numbers of the beam receivers for pockets 1-6 (hardware/pinmap.toml).
SENSOR_PINS = (2, 3, 4, 5, 6, 7)
BLOCKED_WHEN_LOW = True  # open-collector break-beam receivers pull low when blocked
WATCHDOG_MS = 2000
STORE_PATH = "/pocketboard.bin"
# A STOP from the host leaves this file and lets the watchdog reset the board; the next
# boot then stays at the REPL so mpremote can update the files (the rp2 watchdog
# cannot be stopped once started).
REPL_FLAG = "/stay-in-repl"
STORE_DELAY_MS = 500  # write unacked pots to flash only when the host is slow to ack
RING = 64  # edges buffered between main-loop rounds; a power of two

micropython.alloc_emergency_exception_buf(100)

_ring_index = bytearray(RING)
_ring_level = bytearray(RING)
_ring_ticks = array.array("i", [0] * RING)
_head = 0


def _edge_handler(index):
    @micropython.native
    def on_edge(pin):
        # A hard IRQ: no allocation, just note which pin, its level and when.
        global _head
        slot = _head & (RING - 1)
        _ring_index[slot] = index
        _ring_level[slot] = pin.value()
        _ring_ticks[slot] = time.ticks_ms()
        _head = (_head + 1) & 0xFFFF

    return on_edge


class Clock:
    """Milliseconds since boot that never wrap (ticks_ms wraps after about 12 days)."""

    def __init__(self):
        self.last = time.ticks_ms()
        self.ms = 0

    def now(self):
        t = time.ticks_ms()
        self.ms += time.ticks_diff(t, self.last)
        self.last = t
        return self.ms

    def at(self, ticks):
        return self.ms - time.ticks_diff(self.last, ticks)


class FlashStore:
    """The board's saved state in a file, written late and only when beams are quiet.

    With a host acking at once there is nothing to keep, so flash is rarely written;
    a write stops interrupts for tens of milliseconds, so it waits until no beam is
    blocked and no ball is being read.
    """

    def __init__(self, path):
        self.path = path
        self.saved = self.load()
        self.pending = None
        self.since = 0

    def load(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def save(self, data):
        self.pending = data
        self.since = time.ticks_ms()

    def flush(self, quiet):
        if self.pending is None or self.pending == self.saved or not quiet:
            return
        if time.ticks_diff(time.ticks_ms(), self.since) < STORE_DELAY_MS:
            return
        # Write then rename: littlefs renames atomically, so a reset keeps one version.
        with open(self.path + ".new", "wb") as f:
            f.write(self.pending)
        os.rename(self.path + ".new", self.path)
        self.saved, self.pending = self.pending, None


def _blocked(level):
    return (level == 0) == BLOCKED_WHEN_LOW


def _stay_in_repl():
    try:
        os.remove(REPL_FLAG)
        return True
    except OSError:
        return False


def run():
    if _stay_in_repl():
        print("pocketboard: staying at the REPL as asked; reset to count again")
        return
    store = FlashStore(STORE_PATH)
    board = Board(struct.unpack("<I", os.urandom(4))[0], store=store)
    clock = Clock()
    pins = []
    for index, number in enumerate(SENSOR_PINS):
        pin = machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP)
        board.edge(index, _blocked(pin.value()), clock.now())
        pin.irq(
            handler=_edge_handler(index),
            trigger=machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING,
            hard=True,
        )
        pins.append(pin)
    # Host frames are binary and may hold 0x03: Ctrl-C must not stop the program.
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    tail = 0
    while not board.stop_requested:
        wdt.feed()
        # Read the time before draining the edges, so that every edge up to `now`
        # has reached the counters before poll(now) decides a ball has left.
        now = clock.now()
        while tail != _head:
            slot = tail & (RING - 1)
            board.edge(_ring_index[slot], _blocked(_ring_level[slot]), clock.at(_ring_ticks[slot]))
            tail = (tail + 1) & 0xFFFF
        data = b""
        while len(data) < 64 and poller.poll(0):
            data += stdin.read(1)
        if data:
            board.receive(data)
        out = board.poll(now)
        if out:
            stdout.write(out)
        store.flush(board.quiet())
        time.sleep_ms(1)
    with open(REPL_FLAG, "w") as f:
        f.write("1")
    micropython.kbd_intr(3)
    while True:  # the watchdog resets the board into the REPL
        time.sleep_ms(100)


run()
