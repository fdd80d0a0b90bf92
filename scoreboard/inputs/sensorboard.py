"""The host side of the sensor-board link: finds the board, reads it, acks pots, puts events.

One `SensorBoardLink` owns one serial port. Its thread (or a test calling `step()`)
only reads, decodes and `put()`s events; nothing here touches the game state.
Which pots count is the pot ledger's to say (scoreboard/store/pot_ledger.py, PROTOCOL.md):
- with `ack_when_durable` (the appliance) the link puts every pot the board sends,
  answers a hello only with the app's ledger's `sync()` and acks only what the app says
  is durable (`acknowledge()`), so the journal decides;
- without it (the `sensors` monitor, tests) the link keeps a ledger of its own in
  memory and puts each pot once, in order: `own_ledger(write=, sync=, ack=)` builds it (the
  store's PotLedger, passed in: the inputs never import the store);
- a reset of the board (new boot id) gives BoardHello(reset=True); pots it kept
  across the reset still arrive, once;
- the board's own losses (outbox full, edge ring overflow) and a board running another
  protocol version come as BoardFault;
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

from scoreboard.config import SensorsConfig
from scoreboard.inputs.events import (
    BoardFault,
    BoardHello,
    BoardLost,
    Pot,
    SensorCleared,
    SensorStuck,
)
from scoreboard.inputs.portable import framing, messages
from scoreboard.inputs.portable.board import POCKETS, VERSION

# The Raspberry Pi Pico running MicroPython enumerates as 2E8A:0005: the config's default
# ([sensors] usb_vid, usb_pid), its one home.
PICO_USB_ID = (SensorsConfig().usb_vid, SensorsConfig().usb_pid)
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


LOST_AFTER = SensorsConfig().heartbeat_timeout  # [sensors] heartbeat_timeout, its one home


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
        lost_after=LOST_AFTER,
        retry_every=1.0,
        hello_every=0.5,
        read_timeout=0.05,
        open_serial=_open_serial,
        ack_when_durable=False,
        own_ledger=None,
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
        self.open_error = None  # why the last port found could not be opened (a monitor says)
        self.status = {}  # the last hello and heartbeat, for a monitor
        self.decoder = framing.Decoder()
        self.encoder = framing.Encoder()
        self._serial = None
        self._next_try = float("-inf")
        self._last_frame = 0.0
        self._last_ask = float("-inf")
        self._store_id = None
        self._boot_id = None
        # With ack_when_durable the board keeps a pot until the app says it is in the
        # journal (`acknowledge`), so a host that dies in between loses nothing; the
        # app's ledger answers hellos (`sync`) and drops resends. Otherwise our own.
        self.ledger = None
        if not ack_when_durable:
            if own_ledger is None:
                raise TypeError("a link without ack_when_durable needs own_ledger (PotLedger)")
            self.ledger = own_ledger(write=self._hold, sync=self.sync, ack=self.acknowledge)
        self._synced = None  # the boot id the ledger has answered
        self._held = 0  # the highest serial the board may forget (durable)
        self._floor = 0  # the board numbers new pots above this
        self._reported = {}  # the board's loss counters as last put
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
            self.open_error = None
            return False
        try:
            self._serial = self.open_serial(path, self.read_timeout)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._serial = None
            self.open_error = str(exc)
            return False
        self.open_error = None
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
        again = self.state == "up" and boot_id == self._boot_id
        with self._ack_lock:
            if store_id != self._store_id:
                self._held = self._floor = 0
            self._store_id, self._boot_id = store_id, boot_id
        self.state = "up"
        self.status.update(version=version, boot_id=boot_id, store_id=store_id)
        if again:  # a board repeats its hello until it hears our answer: say it again
            self._send_ack()
            return
        self._reported = {}
        if version.split(".")[0] != VERSION.split(".")[0]:
            self.put(BoardFault("firmware", 0, now))  # it will not understand our acks
        event = BoardHello(version, boot_id, now, reset, store_id, acked)
        self.put(event)
        if self.ledger is not None:
            self.ledger.hello(event)

    def sync(self, boot_id, held, floor):
        """The ledger's answer to a hello: the board may forget serials up to `held` and
        numbers new pots above `floor`. Until then the board numbers nothing."""
        with self._ack_lock:
            if boot_id != self._boot_id:
                return  # that boot is gone: its successor says hello again
            self._synced = boot_id
            self._held, self._floor = held, max(floor, held)
        self._send_ack()

    def _heartbeat(self, now, boot_id, uptime_ms, stuck, blocked, pending, dropped, missed):
        if self.state != "up" or boot_id != self._boot_id:
            # A board we have no hello from (or a new boot whose hello was lost): ask.
            self.state = "waiting"
            if now - self._last_ask >= self.hello_every:
                self._ask_hello(now)
            return
        self.status.update(
            uptime_ms=uptime_ms,
            stuck=stuck,
            blocked=blocked,
            pending=pending,
            dropped=dropped,
            missed=missed,
        )
        for kind, count in (("pots-dropped", dropped), ("edges-missed", missed)):
            if count > self._reported.get(kind, 0):
                self._reported[kind] = count
                self.put(BoardFault(kind, count, now))
        if pending:
            # The board still holds pots: maybe our last ack was lost. Repeat it.
            self._send_ack()
        changed = stuck ^ self._stuck
        self._stuck = stuck
        for index in range(POCKETS):
            if changed & (1 << index):
                kind = SensorStuck if stuck & (1 << index) else SensorCleared
                self.put(kind(index + 1, now))

    def _pot(self, now, serial, prev, pocket, age_ms):
        if self.state != "up" or self._synced != self._boot_id:
            return  # the board sends pots only once answered; these are from before
        # A retraction carries its pocket with the RETRACT bit; any other pocket number
        # goes to the ledger as it came, to be refused if it is not 1-6.
        retract = pocket & messages.RETRACT_BIT and 1 <= pocket & ~messages.RETRACT_BIT <= 6
        if retract:
            pocket &= ~messages.RETRACT_BIT
        pot = Pot(pocket, now - age_ms / 1000, "board", serial, self._store_id, prev, retract)
        with self._ack_lock:
            self._floor = max(self._floor, serial)
        if self.ledger is None:
            self.put(pot)  # the app's ledger decides, and acks once durable
        elif self.ledger.count(pot):
            self.put(pot)

    def _hold(self, lines):
        """Our own ledger's journal, without ack_when_durable: held at once."""
        self.ledger.take(lines)
        self.ledger.durable(lines)

    @property
    def duplicates(self):
        """Resent pots our own ledger dropped (without ack_when_durable)."""
        return 0 if self.ledger is None else self.ledger.resent

    def acknowledge(self, serial, store=None):
        """The app holds pot `serial` of board store `store` durably: the board may forget it.

        Called from the loop's thread; an ack for another store (a board swapped since)
        is ignored."""
        with self._ack_lock:
            if (store is not None and store != self._store_id) or serial <= self._held:
                return
            self._held = serial
            self._floor = max(self._floor, serial)
        self._send_ack()

    def _send_ack(self):
        # Never before the ledger has answered this boot: only it knows what the journal
        # holds, and an early ack would let the board number from its own, older count.
        with self._ack_lock:
            if self._synced != self._boot_id:
                return
            payload = messages.ack(self._boot_id, self._held, self._floor)
        self._send(payload)
