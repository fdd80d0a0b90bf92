"""The sensor board's logic without hardware: counters, pots kept until acked, hello, heartbeat.

Runs on the Pico (firmware/main.py feeds it pin edges and serial bytes) and in-process
on the host as the simulated board. Pots are numbered with serials only once the host
has answered this boot's hello (so numbering continues from what the host has, even if
the board lost its own count), and unacked pots are kept in `store`, so a pot counted
before a reset is still resent after it: the host, which dedupes by serial, neither
loses nor doubles it (PROTOCOL.md).
"""

import struct

from . import framing, messages
from .pocket_counter import CLEARED, POT, STUCK, PocketCounter

VERSION = "pocketboard 1.0"
POCKETS = 6

_STORE_HEAD = "<II"  # store id, acked serial
_STORE_POT = "<IB"  # serial (0: not numbered yet), pocket


class MemoryStore:
    """Keeps the saved state in RAM: enough for tests and the simulator (survives reset())."""

    def __init__(self):
        self.data = None

    def load(self):
        return self.data

    def save(self, data):
        self.data = data


class Board:
    """One boot of the board. `edge()` and `receive()` take input, `poll()` returns bytes to send."""

    def __init__(
        self,
        boot_id,
        *,
        store=None,
        version=VERSION,
        heartbeat_ms=500,
        resend_ms=250,
        outbox_size=64,
        burst=8,
        chatter_ms=4,
        min_ball_ms=5,
        stuck_ms=2000,
        clear_ms=1000,
    ):
        self.boot_id = boot_id
        self.version = version
        self.heartbeat_ms = heartbeat_ms
        self.resend_ms = resend_ms
        self.outbox_size = outbox_size
        self.burst = burst
        self.counters = [
            PocketCounter(
                chatter_ms=chatter_ms, min_ball_ms=min_ball_ms, stuck_ms=stuck_ms, clear_ms=clear_ms
            )
            for _ in range(POCKETS)
        ]
        self.store = store if store is not None else MemoryStore()
        self.encoder = framing.Encoder()
        self.decoder = framing.Decoder()
        # [serial or None, pocket, t_ms or None, last sent t_ms or None], oldest first
        self.outbox = []
        self.synced = False  # the host has acked since this boot's hello
        self.dropped = 0
        self.stop_requested = False
        self._stuck_mask = 0
        self._hello_due = True
        self._beat_due = True
        self._last_beat = 0
        self._last_resend = 0
        self._load()

    # -- input -------------------------------------------------------------------------

    def edge(self, index, blocked, t_ms):
        """Pocket `index` (0-5) changed to `blocked` at `t_ms`."""
        self._take(index, self.counters[index].edge(blocked, t_ms))

    def receive(self, data):
        """Bytes from the host; anything malformed is dropped by the decoder or parse()."""
        for _seq, payload in self.decoder.feed(data):
            msg = messages.parse(payload)
            if msg is None:
                continue
            if msg[0] == messages.ACK:
                self._ack(msg[1], msg[2])
            elif msg[0] == messages.HELLO_REQUEST:
                self._hello_due = True
            elif msg[0] == messages.STOP and msg[1] == messages.STOP_MAGIC:
                self.stop_requested = True

    # -- output ------------------------------------------------------------------------

    def poll(self, now_ms):
        """Run the timers at `now_ms` and return the frames due, as bytes."""
        for index in range(POCKETS):
            self._take(index, self.counters[index].poll(now_ms))
        out = []
        if self._hello_due:
            self._hello_due = False
            self._beat_due = True
            out.append(messages.hello(self.boot_id, self.store_id, self.acked, self.version))
        # New pots go out at once; every resend_ms the oldest unacked ones go again, in
        # order, since the host takes pots only in order (go-back-N).
        resend = self.outbox and now_ms - self._last_resend >= self.resend_ms
        if resend:
            self._last_resend = now_ms
        for position, entry in enumerate(self.outbox):
            if entry[0] is None:
                break  # not numbered until the host has answered the hello
            if entry[3] is None or (resend and position < self.burst):
                age = 0 if entry[2] is None else now_ms - entry[2]
                out.append(messages.pot(entry[0], entry[1], age))
                entry[3] = now_ms
        if self._beat_due or now_ms - self._last_beat >= self.heartbeat_ms:
            if not self.synced:
                # The host's answer to our hello may have been lost: say it again.
                out.insert(0, messages.hello(self.boot_id, self.store_id, self.acked, self.version))
            self._beat_due = False
            self._last_beat = now_ms
            out.append(
                messages.heartbeat(
                    self.boot_id,
                    now_ms,
                    self._stuck_mask,
                    self.blocked_mask(),
                    len(self.outbox),
                    self.dropped,
                )
            )
        return b"".join(self.encoder.frame(payload) for payload in out)

    def quiet(self):
        """No beam blocked and no ball being read: a moment for slow work like flash."""
        return all(counter.idle() for counter in self.counters)

    def blocked_mask(self):
        mask = 0
        for index in range(POCKETS):
            if self.counters[index].blocked:
                mask |= 1 << index
        return mask

    # -- inside ------------------------------------------------------------------------

    def _take(self, index, events):
        for kind, t_ms in events:
            if kind == POT:
                self._pot(index + 1, t_ms)
            elif kind == STUCK:
                self._stuck_mask |= 1 << index
                self._beat_due = True  # tell the host now, not at the next beat
            elif kind == CLEARED:
                self._stuck_mask &= ~(1 << index)
                self._beat_due = True

    def _pot(self, pocket, t_ms):
        if len(self.outbox) >= self.outbox_size:
            # No host for a long time. Keep the oldest: dropping a numbered pot would
            # leave a gap the host waits on forever; count what could not be kept.
            self.dropped += 1
            return
        self.outbox.append([None, pocket, t_ms, None])
        self._number()
        self._save()

    def _number(self):
        if not self.synced:
            return
        for entry in self.outbox:
            if entry[0] is None:
                entry[0] = self.next_serial
                self.next_serial += 1

    def _ack(self, boot_id, serial):
        # An ack meant for an earlier boot may still be on the line: it proves nothing.
        if boot_id != self.boot_id:
            return
        if not self.synced:
            # The first ack answers our hello: the host has every serial up to it, so
            # go on from there even if the store was older than the host's count.
            self.synced = True
            self.next_serial = max(self.next_serial, serial + 1)
            self._number()
        if serial <= self.acked or serial >= self.next_serial:
            self._save()
            return
        self.acked = serial
        self.outbox = [e for e in self.outbox if e[0] is None or e[0] > serial]
        self._save()

    def _load(self):
        self.store_id = self.boot_id
        self.acked = 0
        data = self.store.load()
        head = struct.calcsize(_STORE_HEAD)
        item = struct.calcsize(_STORE_POT)
        if data is not None and len(data) >= head and (len(data) - head) % item == 0:
            self.store_id, self.acked = struct.unpack(_STORE_HEAD, data[:head])
            for offset in range(head, len(data), item):
                serial, pocket = struct.unpack(_STORE_POT, data[offset : offset + item])
                # The time of a pot from before the reset went with the old clock.
                self.outbox.append([serial or None, pocket, None, None])
        self.next_serial = self.acked + 1
        for entry in self.outbox:
            if entry[0] is not None and entry[0] >= self.next_serial:
                self.next_serial = entry[0] + 1
        self._save()

    def _save(self):
        parts = [struct.pack(_STORE_HEAD, self.store_id, self.acked)]
        for entry in self.outbox:
            parts.append(struct.pack(_STORE_POT, entry[0] or 0, entry[1]))
        self.store.save(b"".join(parts))
