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
RING = 64  # edges buffered between main-loop rounds; a power of two
BOTH_EDGES = machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING

micropython.alloc_emergency_exception_buf(100)

_ring_index = bytearray(RING)
_ring_level = bytearray(RING)
_ring_flags = bytearray(RING)
_ring_ticks = array.array("i", [0] * RING)
_irqs = []  # each pin's irq object, to read its latched edge flags
_head = 0  # written only by the interrupt handlers
_tail = 0  # written only by the main loop
_overflows = 0  # edges the ring had no room for


def _edge_handler(index):
    @micropython.native
    def on_edge(pin):
        # A hard IRQ: no allocation. Note which pin, its level, which edges fired and
        # when. The edge flags stay latched while interrupts wait (a flash write): both
        # set means the beam was broken and cleared in between, a ball the level alone
        # would miss. A full ring keeps what it has and counts the edge as missed.
        global _head, _overflows
        if (_head - _tail) & 0xFFFF >= RING:
            _overflows += 1
            return
        slot = _head & (RING - 1)
        _ring_index[slot] = index
        _ring_level[slot] = pin.value()
        irq = _irqs[index]  # None for an edge before pin.irq() has returned
        _ring_flags[slot] = 0 if irq is None else irq.flags()
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
    """The board's saved state in a file. The Board decides when it is worth a write
    (only unacked pots the flash lacks, after the host was slow to ack them)."""

    def __init__(self, path):
        self.path = path

    def load(self):
        try:
            with open(self.path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def save(self, data):
        # Write then rename: littlefs renames atomically, so a reset keeps one version.
        with open(self.path + ".new", "wb") as f:
            f.write(data)
        os.rename(self.path + ".new", self.path)


def _blocked(level):
    return (level == 0) == BLOCKED_WHEN_LOW


def _stay_in_repl():
    try:
        os.remove(REPL_FLAG)
        return True
    except OSError:
        return False


def run():
    global _tail
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
        _irqs.append(None)
        _irqs[index] = pin.irq(handler=_edge_handler(index), trigger=BOTH_EDGES, hard=True)
        pins.append(pin)
    # Host frames are binary and may hold 0x03: Ctrl-C must not stop the program.
    micropython.kbd_intr(-1)
    wdt = machine.WDT(timeout=WATCHDOG_MS)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    stall = None  # when the last flash write began, until its edges are read
    missed = 0
    while not board.stop_requested:
        wdt.feed()
        # Read the time before draining the edges, so that every edge up to `now`
        # has reached the counters before poll(now) decides a ball has left.
        now = clock.now()
        while _tail != _head:
            slot = _tail & (RING - 1)
            at = clock.at(_ring_ticks[slot])
            both = _ring_flags[slot] & BOTH_EDGES == BOTH_EDGES
            # Both edges in one interrupt after a flash write: the beam left its level
            # no earlier than the write began.
            since = stall if stall is not None and stall <= at else at
            board.latched(_ring_index[slot], _blocked(_ring_level[slot]), both, at, since)
            _tail = (_tail + 1) & 0xFFFF
        stall = None
        if _overflows != missed:
            board.missed_edges((_overflows - missed) & 0xFFFFFFFF)
            missed = _overflows
            # Edges were lost: take every beam as it is now, so the counters agree.
            for index, pin in enumerate(pins):
                board.edge(index, _blocked(pin.value()), now)
        data = b""
        while len(data) < 64 and poller.poll(0):
            data += stdin.read(1)
        if data:
            board.receive(data)
        out = board.poll(now)
        if out:
            stdout.write(out)
        if board.flash_now(now):
            # Interrupts wait while flash is written; their latched flags keep the edges.
            stall = clock.now()
            try:
                store.save(board.flash_image())
                board.flashed()
            except OSError:
                pass  # flash full or failing: the pots stay in RAM and the write is tried again
        time.sleep_ms(1)
    with open(REPL_FLAG, "w") as f:
        f.write("1")
    micropython.kbd_intr(3)
    while True:  # the watchdog resets the board into the REPL
        time.sleep_ms(100)


run()
