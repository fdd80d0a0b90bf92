"""The host side of the sensor-board link: finds the board, reads it, acks pots, puts events.

One `SensorBoardLink` owns one serial port. Its thread (or a test calling `step()`)
only reads, decodes and `put()`s events; nothing here touches the game state.
What it guarantees (firmware/PROTOCOL.md):
- a pot is put once: serials are widened and deduplicated, and a pot is acked only
  after it has been put, so the board resends until then;
- a reset of the board (new boot id) gives BoardHello(reset=True); pots it kept
  across the reset still arrive, once;
- no valid frame for `lost_after` seconds (heartbeats come every 0.5 s) or a failing
  port gives one BoardLost, then the link reopens the port by itself;
- garbage, cut frames and bit flips are dropped by the framing and never raise.
"""

import contextlib
import glob
import threading
import time

import serial
import serial.tools.list_ports

from scoreboard.inputs.events import BoardHello, BoardLost, Pot, SensorCleared, SensorStuck
from scoreboard.inputs.portable import framing, messages
from scoreboard.inputs.portable.board import POCKETS

# The Raspberry Pi Pico running MicroPython enumerates as 2E8A:0005.
PICO_USB_ID = (0x2E8A, 0x0005)
BY_ID_PATTERN = "/dev/serial/by-id/usb-MicroPython*"


def find_port(port=None, *, usb_id=PICO_USB_ID, by_id=BY_ID_PATTERN):
    """The board's port: the one given, else a /dev/serial/by-id match, else by USB id."""
    if port:
        return port
    for path in sorted(glob.glob(by_id)):
        return path
    for info in serial.tools.list_ports.comports():
        if (info.vid, info.pid) == tuple(usb_id):
            return info.device
    return None


def _open_serial(path, timeout):
    # USB CDC ignores the baud rate; 115200 keeps a USB-UART adapter working too.
    return serial.Serial(path, 115200, timeout=timeout, write_timeout=0.5)


class SensorBoardLink:
    """Reads one sensor board and puts Pot, BoardHello, BoardLost, SensorStuck, SensorCleared."""

    def __init__(
        self,
        put,
        *,
        port=None,
        usb_id=PICO_USB_ID,
        by_id=BY_ID_PATTERN,
        clock=time.monotonic,
        lost_after=2.5,
        retry_every=1.0,
        hello_every=0.5,
        read_timeout=0.05,
        open_serial=_open_serial,
        ack_when_durable=False,
    ):
        self.put = put
        self.port = port
        self.usb_id = usb_id
        self.by_id = by_id
        self.clock = clock
        self.lost_after = lost_after
        self.retry_every = retry_every
        self.hello_every = hello_every
        self.read_timeout = read_timeout
        self.open_serial = open_serial
        self.state = "searching"  # searching: no port open; waiting: no hello yet; up
        self.path = None
        self.status = {}  # the last hello and heartbeat, for a monitor
        self.decoder = framing.Decoder()
        self.encoder = framing.Encoder()
        self.accepted = 0
        self.duplicates = 0
        self._serial = None
        self._next_try = float("-inf")
        self._last_frame = 0.0
        self._last_ask = float("-inf")
        self._store_id = None
        self._boot_id = None
        self._last = 0  # the highest pot serial put, widened
        # With ack_when_durable the board keeps a pot until the app says it is in the
        # journal (`acknowledge`), so a host that dies in between loses nothing; the app
        # drops a resent pot it already holds by its (store, serial).
        self.ack_when_durable = ack_when_durable
        self._acked = 0  # the highest serial acked to the board
        self._send_lock = threading.Lock()  # acks come from the loop's thread too
        self._ack_lock = threading.Lock()
        self._stuck = 0
        self._thread = None
        self._stop = threading.Event()

    # -- driving -----------------------------------------------------------------------

    def step(self, now=None):
        """One round: (re)open the port if due, read what is there, run the timeouts."""
        if self._serial is None:
            now = self.clock() if now is None else now
            if now < self._next_try or not self._open(now):
                return
        try:
            data = self._serial.read(max(1, self._serial.in_waiting))
        except (serial.SerialException, OSError) as exc:
            self._drop(self.clock() if now is None else now, f"port failed: {exc}")
            return
        now = self.clock() if now is None else now
        if data:
            self._feed(data, now)
        if self._serial is None:
            return
        if self.state == "waiting" and now - self._last_ask >= self.hello_every:
            self._ask_hello(now)
        if now - self._last_frame >= self.lost_after:
            self._drop(now, f"no heartbeat for {now - self._last_frame:.1f} s")

    def start(self):
        """Run `step()` on a thread of its own until `stop()`."""
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sensorboard", daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self.close()

    def close(self):
        if self._serial is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                self._serial.close()
            self._serial = None

    def stop_firmware(self):
        """Ask the board to leave its program for the REPL, so mpremote can update it."""
        self._send(messages.stop())

    def _run(self):
        while not self._stop.is_set():
            self.step()
            if self._serial is None:
                self._stop.wait(0.1)

    # -- the port ----------------------------------------------------------------------

    def _open(self, now):
        self._next_try = now + self.retry_every
        path = find_port(self.port, usb_id=self.usb_id, by_id=self.by_id)
        if path is None:
            return False
        try:
            self._serial = self.open_serial(path, self.read_timeout)
        except (serial.SerialException, OSError, ValueError):
            self._serial = None
            return False
        self.path = path
        self.state = "waiting"
        self.decoder.buf = b""  # half a frame from the last connection is no use
        self._last_frame = now
        self._ask_hello(now)
        return self._serial is not None

    def _drop(self, now, reason):
        self.close()
        if self.state == "up":
            self.put(BoardLost(now, reason))
        self.state = "searching"
        self._next_try = now + self.retry_every

    def _send(self, payload):
        if self._serial is None:
            return
        # The read side notices a dead port; a write may just have timed out.
        with self._send_lock, contextlib.suppress(serial.SerialException, OSError, AttributeError):
            self._serial.write(self.encoder.frame(payload))

    def _ask_hello(self, now):
        self._last_ask = now
        self._send(messages.hello_request())

    # -- messages ----------------------------------------------------------------------

    def _feed(self, data, now):
        for _seq, payload in self.decoder.feed(data):
            self._last_frame = now
            msg = messages.parse(payload)
            if msg is None:
                continue
            if msg[0] == messages.HELLO:
                self._hello(now, *msg[1:])
            elif msg[0] == messages.HEARTBEAT:
                self._heartbeat(now, *msg[1:])
            elif msg[0] == messages.POT:
                self._pot(now, *msg[1:])

    def _hello(self, now, boot_id, store_id, acked, version):
        reset = self._boot_id is not None and boot_id != self._boot_id
        if store_id != self._store_id:
            # A board we have not seen (or whose store was wiped): its acked serial is
            # where it left off with whatever host it talked to before.
            with self._ack_lock:
                self._store_id = store_id
                self._last = self._acked = acked
        else:
            with self._ack_lock:
                self._last = max(self._last, acked)
                self._acked = max(self._acked, acked)
        again = self.state == "up" and boot_id == self._boot_id
        self._boot_id = boot_id
        self.state = "up"
        self.status.update(version=version, boot_id=boot_id, store_id=store_id)
        if not again:  # a board repeats its hello until it hears our ack
            self.put(BoardHello(version, boot_id, now, reset))
        self._send_ack()

    def _heartbeat(self, now, boot_id, uptime_ms, stuck, blocked, pending, dropped):
        if self.state != "up" or boot_id != self._boot_id:
            # A board we have no hello from (or a new boot whose hello was lost): ask.
            self.state = "waiting"
            if now - self._last_ask >= self.hello_every:
                self._ask_hello(now)
            return
        self.status.update(
            uptime_ms=uptime_ms, stuck=stuck, blocked=blocked, pending=pending, dropped=dropped
        )
        if pending:
            # The board still holds pots: maybe our last ack was lost. Repeat it.
            self._send_ack()
        changed = stuck ^ self._stuck
        self._stuck = stuck
        for index in range(POCKETS):
            if changed & (1 << index):
                kind = SensorStuck if stuck & (1 << index) else SensorCleared
                self.put(kind(index + 1, now))

    def _pot(self, now, serial16, pocket, age_ms):
        if self.state != "up":
            return  # no baseline to widen against yet; the board resends after the hello
        ahead = (serial16 - self._last) & 0xFFFF
        if ahead == 1 and 1 <= pocket <= POCKETS:
            self._last += 1
            self.accepted += 1
            self.put(Pot(pocket, now - age_ms / 1000, "board", self._last, self._store_id))
            if not self.ack_when_durable:
                self._acked = self._last
        elif ahead == 0 or ahead >= 0x8000:
            serial = self._last - ((self._last - serial16) & 0xFFFF)
            if self.ack_when_durable and serial > self._acked and 1 <= pocket <= POCKETS:
                # Put but not yet durable (the app's write may have failed): again; the
                # app keeps board pots in order and drops one it already holds.
                self.put(Pot(pocket, now - age_ms / 1000, "board", serial, self._store_id))
            else:
                self.duplicates += 1
        # Ahead by more than one: an earlier pot was lost on the line. Acking the last
        # one in order makes the board resend from there (go-back-N).
        self._send_ack()

    def acknowledge(self, serial, store=None):
        """The app holds pot `serial` of board store `store` durably: the board may forget it.

        Called from the loop's thread; an ack for another store (a board swapped since)
        is ignored."""
        with self._ack_lock:
            if (store is not None and store != self._store_id) or serial <= self._acked:
                return
            self._acked = serial
        self._send_ack()

    def _send_ack(self):
        self._send(messages.ack(self._boot_id, self._acked))
