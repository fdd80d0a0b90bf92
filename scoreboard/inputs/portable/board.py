"""The sensor board's logic without hardware: counters, pots kept until acked, hello, heartbeat.

Runs on the Pico (firmware/main.py feeds it pin edges and serial bytes) and in-process
on the host as the simulated board. The host is the authority on which pots it holds
(PROTOCOL.md): the board numbers pots only once the host has answered this boot's
hello, above the highest serial the host says it holds or has seen, so a board whose
flash is older than the host's journal never gives a new ball an old serial. Every pot
carries the serial sent before it (`prev`), so the host takes them strictly in order.
Unacked pots go to `store` (flash) once the host has been slow to ack them, so a pot
counted before a reset is resent after it with the same serial, and the host, which
knows every serial it holds, neither loses nor doubles it.
"""

import struct

from . import framing, messages
from .pocket_counter import CLEARED, POT, RETRACT, STUCK, PocketCounter

VERSION = "pocketboard 2.0"
POCKETS = 6

_STORE_HEAD = "<III"  # store id, acked serial, last serial numbered
_STORE_POT = "<IB"  # serial (0: not numbered yet), pocket


class MemoryStore:
    """Keeps the saved state in RAM: enough for tests and the simulator (survives reset())."""

    def __init__(self):
        self.data = None
        self.writes = 0

    def load(self):
        return self.data

    def save(self, data):
        self.data = data
        self.writes += 1


class Board:
    """One boot of the board. `edge()` and `receive()` take input, `poll()` returns bytes to send.

    Flash is the hardware layer's to write, since a write stops the board: it asks
    `flash_now()`, writes `flash_image()`, then calls `flashed()`; or `flush()` does all
    three with `store`.
    """

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
        store_ms=50,
        overdue_ms=250,
        settle_ms=10,
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
        self.store_ms = store_ms
        self.overdue_ms = overdue_ms
        self.settle_ms = settle_ms
        # The longest a pot waits for its flash write to begin (the write then takes
        # tens of ms): a board losing power sooner than that after a pot may lose it.
        self.longest_unsaved_ms = store_ms + 2 * overdue_ms
        self.counters = [
            PocketCounter(
                chatter_ms=chatter_ms, min_ball_ms=min_ball_ms, stuck_ms=stuck_ms, clear_ms=clear_ms
            )
            for _ in range(POCKETS)
        ]
        self.store = store if store is not None else MemoryStore()
        self.encoder = framing.Encoder()
        self.decoder = framing.Decoder()
        # [serial or None, pocket, t_ms or None, last sent t_ms or None, in flash without
        # its serial], oldest first
        self.outbox = []
        self.synced = False  # the host has answered this boot's hello
        self.dropped = 0  # pots not kept: the outbox was full
        self.missed = 0  # edges the hardware layer could not keep (its ring overflowed)
        self.stop_requested = False
        self._stuck_mask = 0
        self._hello_due = True
        self._beat_due = True
        self._last_beat = 0
        self._last_resend = 0
        self._now = 0  # the latest time we were told, in ms
        self._last_edge = [0] * POCKETS
        self._unsaved_since = None  # since when the pots differ from flash's
        self._writing = ()
        self._load()

    # -- input -------------------------------------------------------------------------

    def edge(self, index, blocked, t_ms):
        """Pocket `index` (0-5) changed to `blocked` at `t_ms`."""
        self._now = max(self._now, t_ms)
        self._last_edge[index] = t_ms
        self._take(index, self.counters[index].edge(blocked, t_ms))

    def latched(self, index, blocked, both, t_ms, since_ms):
        """What a pin's interrupt says: its level `blocked` when read at `t_ms`, and
        whether both edge flags were set. An interrupt delayed by a flash write (which
        stops interrupts while the pin's edge flags stay latched) tells of edges some
        time since `since_ms`, the write's start; otherwise `since_ms` is `t_ms`.

        Times are chosen so a ball is never cut short into a spike: a beam broken in
        the stall broke at its start, one cleared in it cleared when read. Both flags
        with the level unchanged: from clear, a ball came and went in the stall; from
        blocked, a flicker inside a ball (chatter, not a second ball).
        """
        since_ms = max(since_ms, self._last_edge[index])
        if blocked != self.counters[index].blocked:
            self.edge(index, blocked, since_ms if blocked else t_ms)
        elif both and not blocked:
            self.edge(index, True, since_ms)
            self.edge(index, False, t_ms)

    def missed_edges(self, count):
        """The hardware layer lost `count` edges (its ring was full): tell the host."""
        self.missed += count
        self._beat_due = True

    def receive(self, data):
        """Bytes from the host; anything malformed is dropped by the decoder or parse()."""
        for _seq, payload in self.decoder.feed(data):
            msg = messages.parse(payload)
            if msg is None:
                continue
            if msg[0] == messages.ACK:
                self._ack(msg[1], msg[2], msg[3])
            elif msg[0] == messages.HELLO_REQUEST:
                self._hello_due = True
            elif msg[0] == messages.STOP and msg[1] == messages.STOP_MAGIC:
                self.stop_requested = True

    # -- output ------------------------------------------------------------------------

    def poll(self, now_ms):
        """Run the timers at `now_ms` and return the frames due, as bytes."""
        self._now = now_ms
        for index in range(POCKETS):
            self._take(index, self.counters[index].poll(now_ms))
        out = []
        if self._hello_due:
            self._hello_due = False
            self._beat_due = True
            out.append(messages.hello(self.boot_id, self.store_id, self.acked, self.version))
        # New pots go out at once; every resend_ms the oldest unacked ones go again, in
        # order, since the host takes a pot only once it holds the one before.
        resend = self.synced and self.outbox and now_ms - self._last_resend >= self.resend_ms
        if resend:
            self._last_resend = now_ms
        prev = self.acked
        for position, entry in enumerate(self.outbox):
            if entry[0] is None or entry[4] or not self.synced:
                # Not numbered until the host has answered the hello; and a pot that
                # flash holds without its serial waits until flash has it, or a reset
                # now would number it again and the host would count it twice.
                break
            if entry[3] is None or (resend and position < self.burst):
                age = 0 if entry[2] is None else now_ms - entry[2]
                out.append(messages.pot(entry[0], prev, entry[1], age))
                entry[3] = now_ms
            prev = entry[0]
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
                    self.missed,
                )
            )
        return b"".join(self.encoder.frame(payload) for payload in out)

    def quiet(self):
        """No beam blocked and no ball being read: a moment for slow work like flash."""
        return all(counter.idle() for counter in self.counters)

    def idle_until(self):
        """When (ms) the board next has work of its own if no edge or byte comes, while it
        is idle: no beam busy, nothing to say at once, every pot acked and flash up to date,
        so only the heartbeat is due. None while it is busy: poll it at the hardware's pace."""
        if self._hello_due or self._beat_due or self.outbox or not self.quiet():
            return None
        if self._pots() != self._flash_pots:
            return None  # a flash write is coming
        return self._last_beat + self.heartbeat_ms

    def blocked_mask(self):
        mask = 0
        for index in range(POCKETS):
            if self.counters[index].blocked:
                mask |= 1 << index
        return mask

    # -- flash -------------------------------------------------------------------------

    def flash_due(self, now_ms):
        """The pots have differed from what flash holds for `store_ms` (the host has not
        acked them): worth a write. A host that acks at once means no writes at all.
        A pot numbered since flash took it unnumbered cannot be sent until written."""
        if self._pots() == self._flash_pots:
            self._unsaved_since = None
            return False
        if self._unsaved_since is None:
            self._unsaved_since = self._now
        held_back = any(entry[4] and entry[0] is not None for entry in self.outbox)
        return held_back or now_ms - self._unsaved_since >= self.store_ms

    def stored(self):
        """Every pot not acked is in flash as it is: a reset now loses nothing."""
        return set(self._pots()) <= set(self._flash_pots or ())

    def flash_now(self, now_ms):
        """Due, and no beam busy; or due for so long that a stall is the lesser risk (the
        hardware latches edges through it, so a ball during a write still counts), at
        a moment no beam has just moved (so no chatter is latched with its ball)."""
        if not self.flash_due(now_ms):
            return False
        if self.quiet():
            return True
        # Counted from the oldest change not in flash, so balls that keep falling cannot
        # put the write off: a pot waits at most `longest_unsaved_ms` for it to begin.
        waited = now_ms - self._unsaved_since
        if waited >= self.store_ms + self.overdue_ms:
            return (
                now_ms - max(self._last_edge) >= self.settle_ms or waited >= self.longest_unsaved_ms
            )
        return False

    def flash_image(self):
        """The bytes to write: store id, acked, last numbered, and every pot not acked."""
        self._writing = self._pots()
        parts = [struct.pack(_STORE_HEAD, self.store_id, self.acked, self.next_serial - 1)]
        for serial, pocket in self._writing:
            parts.append(struct.pack(_STORE_POT, serial, pocket))
        return b"".join(parts)

    def flashed(self):
        """The image from `flash_image()` is in flash now (the write returned)."""
        self._flash_pots = self._writing
        self._unsaved_since = None
        for entry in self.outbox:
            entry[4] = entry[0] is None

    def flush(self, now_ms):
        """Write `store` now if `flash_now()`; True if it wrote."""
        if not self.flash_now(now_ms):
            return False
        self.store.save(self.flash_image())
        self.flashed()
        return True

    # -- inside ------------------------------------------------------------------------

    def _pots(self):
        return tuple((entry[0] or 0, entry[1]) for entry in self.outbox)

    def _take(self, index, events):
        for kind, t_ms in events:
            if kind == POT:
                self._pot(index + 1, t_ms)
            elif kind == RETRACT:
                # Numbered, stored and resent like a pot, so it too arrives exactly once.
                self._pot(messages.RETRACT_BIT | (index + 1), t_ms)
            elif kind == STUCK:
                self._stuck_mask |= 1 << index
                self._beat_due = True  # tell the host now, not at the next beat
            elif kind == CLEARED:
                self._stuck_mask &= ~(1 << index)
                self._beat_due = True

    def _pot(self, pocket, t_ms):
        if len(self.outbox) >= self.outbox_size:
            # No host for a long time. Keep the oldest: the host takes pots in order;
            # count what could not be kept, so the host shows it.
            self.dropped += 1
            self._beat_due = True
            return
        self.outbox.append([None, pocket, t_ms, None, False])
        self._number()
        self._changed()

    def _changed(self):
        if self._unsaved_since is None:
            self._unsaved_since = self._now

    def _number(self):
        if not self.synced:
            return
        for entry in self.outbox:
            if entry[0] is None:
                entry[0] = self.next_serial
                self.next_serial += 1

    def _ack(self, boot_id, held, floor):
        # An ack meant for an earlier boot may still be on the line: it proves nothing.
        if boot_id != self.boot_id:
            return
        # The host holds every serial up to `held` and has seen none above `floor`: it
        # knows better than our flash, which may be older than its journal.
        self.synced = True
        self.next_serial = max(self.next_serial, held + 1, floor + 1)
        if held > self.acked:
            self.acked = held
            kept = [e for e in self.outbox if e[0] is None or e[0] > held]
            if len(kept) != len(self.outbox):
                self.outbox = kept
                self._changed()
        self._number()

    def _load(self):
        self.store_id = self.boot_id
        self.acked = 0
        self.next_serial = 1
        self._flash_pots = None  # nothing valid in flash: write our new store id soon
        data = self.store.load()
        head = struct.calcsize(_STORE_HEAD)
        item = struct.calcsize(_STORE_POT)
        if data is None or len(data) < head or (len(data) - head) % item:
            return  # no store, or not one we wrote: a new store id says so to the host
        self.store_id, self.acked, last = struct.unpack(_STORE_HEAD, data[:head])
        self.next_serial = max(self.acked, last) + 1
        pots = []
        for offset in range(head, len(data), item):
            serial, pocket = struct.unpack(_STORE_POT, data[offset : offset + item])
            if not 1 <= pocket <= POCKETS:
                continue  # not a pot we could have counted
            # The time of a pot from before the reset went with the old clock.
            self.outbox.append([serial or None, pocket, None, None, not serial])
            pots.append((serial, pocket))
            self.next_serial = max(self.next_serial, serial + 1)
        self._flash_pots = tuple(pots)
