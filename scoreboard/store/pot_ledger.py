"""Exactly-once for the sensor board's pots: which ones the journal holds, which to take, what to ack.

The contract (firmware/PROTOCOL.md) has three parties. The board numbers its pots with
serials unique within its store, keeps each until acked, and sends with each the serial
before it (`prev`). The journal records each board pot it takes as a mark line in the
same record as the shot it made (or alone, for a pot that scored nothing), so the pot
and its effect are durable together. This ledger, the host's one authority on board
pots, decides from the marks:

- a pot at or below the highest serial held for its store is a resend: ack it again;
- one taken but whose record waits in memory for the disk (scoreboard/store/storage.py) is
  kept: nothing counted, nothing acked until the record is on disk (`durable`);
- a pot whose `prev` is not taken yet waits: the board resends in order;
- any other pot is taken; a pocket number outside 1-6 is refused (recorded so that the
  board may forget it, counted, shown) and never blocks the pots after it;
- a pot is acked only once its mark is on disk, so the board keeps it till then;
- a board's hello is answered with what the journal holds and the highest serial
  taken or seen, so a board whose flash is older than the journal numbers new balls
  above both,
  and a journal behind the board (its last pots acked elsewhere, or lost from the
  journal) goes on from the board's count instead of waiting for pots that never come;
- a pot refused for order and then passed by a later one was lost by the board (it
  forgot it before we held it): counted and shown, never silent.

While the disk refuses for long (scoreboard/store/storage.py), the board would run out of room
(it keeps 64 unacked pots): `relieve` acks a store's pots from memory once BOARD_KEEPS of
them wait, so a ball shown "not saved" then rests on the host alone, but none is refused.

The marks are rebuilt on start (the journal, and the last archived one for a cut
between an archive and the new match's first record) and carried into each new match.
"""

from collections.abc import Callable, Iterable

from scoreboard.inputs.events import BoardHello, Pot

MARK = "# board pot "  # "# board pot STORE:SERIAL": a pot this record takes
HELD = "# board pots held "  # "# board pots held STORE:SERIAL": carried into a new match
REFUSED = " refused pocket="  # after a mark: the pot was refused, not counted
POCKETS = range(1, 7)

TAKE = "take"  # a new pot, next in order: count it and write its mark with it
DUPLICATE = "duplicate"  # the journal holds it already: ack it again, count nothing
KEPT = "kept"  # taken, its record waiting in memory for the disk: count nothing, ack later
WAIT = "wait"  # the pot before it is not taken yet: the board resends in order
REFUSE = "refuse"  # next in order but its pocket cannot be: record it as refused
BOARD_KEEPS = 32  # half the unacked pots a board keeps (64, firmware/PROTOCOL.md)

FAULT_KINDS = {"refused": "board-bad-pocket", "lost": "board-pots-lost"}


def mark_line(store: int, serial: int) -> str:
    return f"{MARK}{store}:{serial}"


def parse_mark(line: str) -> tuple[str, int, int] | None:
    """("take" | "refused" | "held", store, serial) for a ledger line, None for any other."""
    for prefix, kind in ((MARK, "take"), (HELD, "held")):
        if line.startswith(prefix):
            store, serial = line[len(prefix) :].split(" ")[0].split(":")
            if REFUSED in line:
                kind = "refused"
            return kind, int(store), int(serial)
    return None


def is_board_pot(event) -> bool:
    return isinstance(event, Pot) and event.store is not None and event.serial is not None


class PotLedger:
    """What the journal holds of each board store, and the decisions and acks that follow.

    Wiring: `ack(serial, store)` and `sync(boot_id, held, floor)` go to the link,
    `write(lines)` to the journal (for a refused pot's record), which calls `take` with
    every record it accepts and `durable` once it is on disk; `log` for people.
    """

    def __init__(self, *journals: Iterable[str], write=None, log=None, ack=None, sync=None) -> None:
        self.held: dict[int, int] = {}  # store -> highest serial the journal holds on disk
        self.taken: dict[int, int] = {}  # counted: on disk or waiting in memory for it
        self.seen: dict[int, int] = {}  # store -> highest serial met at all
        self.waiting: dict[int, set[int]] = {}  # store -> serials refused for order
        self.counts = {"refused": 0, "lost": 0}
        self.resent = 0  # duplicates dropped
        self.ack: Callable[[int, int], None] | None = ack
        self.sync: Callable[[int, int, int], None] | None = sync
        self.write: Callable[[list[str]], bool] | None = write
        self.log = log or (lambda message: None)
        for lines in journals:
            self.note(lines)

    def connect(self, *, ack, sync) -> None:
        """The link to the board this ledger answers: `ack(serial, store)` for what is
        durable, `sync(boot_id, held, floor)` for a hello."""
        self.ack, self.sync = ack, sync

    # -- the board says hello --------------------------------------------------------------
    def hello(self, hello: BoardHello) -> None:
        """Tell the board what the journal holds of its store and where to number from."""
        if hello.store is None:
            return
        store, held = hello.store, self.held.get(hello.store)
        if held is None or hello.acked > held:
            if held is not None:
                self.log(
                    f"board store {store:08x}: its last ack {hello.acked} is ahead of the "
                    f"journal's {held} (acked by another host such as `scoreboard sensors`, "
                    "or lost from the journal); going on from the board's count"
                )
            self.held[store] = held = hello.acked
            self.taken[store] = max(held, self.taken.get(store, 0))
            self.waiting[store] = {s for s in self.waiting.get(store, ()) if s > held}
        floor = max(held, self.taken.get(store, 0), self.seen.get(store, 0))
        if self.sync is not None:
            self.sync(hello.boot_id, held, floor)

    # -- a pot arrives ---------------------------------------------------------------------
    def decide(self, pot: Pot) -> str:
        """TAKE, DUPLICATE, KEPT, WAIT or REFUSE for a board pot."""
        prev = pot.serial - 1 if pot.prev is None else pot.prev
        # A store met without a hello (no handshake yet): its first pot says where it stood.
        held = self.held.setdefault(pot.store, prev)
        taken = max(held, self.taken.get(pot.store, held))
        self.seen[pot.store] = max(pot.serial, self.seen.get(pot.store, 0))
        if pot.serial <= held:
            return DUPLICATE
        if pot.serial <= taken:
            return KEPT
        if prev > taken:
            self.waiting.setdefault(pot.store, set()).add(pot.serial)
            return WAIT
        return TAKE if pot.pocket in POCKETS else REFUSE

    def admit(self, pot: Pot) -> bool:
        """True for a pot to count. A resend is acked again, one out of order waits, one
        with an impossible pocket is recorded as refused (and acked) but not counted."""
        verdict = self.decide(pot)
        if verdict == DUPLICATE:
            self.resent += 1
            self._ack(pot)
        elif verdict == REFUSE and self.write is not None:
            self.write(self.mark(pot))  # taken (on disk, or kept till the disk takes it)
            self.counts["refused"] += 1
            self.log(f"board pot {pot.serial}: pocket {pot.pocket} refused (not 1-6)")
        return verdict == TAKE

    def count(self, pot: Pot) -> bool:
        """For a host with no journal (the `sensors` monitor): admit, and hold at once."""
        if not self.admit(pot):
            return False
        lines = self.mark(pot)
        self.take(lines)
        self.durable(lines)
        return True

    def mark(self, pot: Pot | None) -> list[str]:
        """The journal line that records a board pot (none for any other input)."""
        if pot is None or not is_board_pot(pot):
            return []
        line = mark_line(pot.store, pot.serial)
        return [line if pot.pocket in POCKETS else f"{line}{REFUSED}{pot.pocket}"]

    def note(self, lines: Iterable[str]) -> None:
        """Lines on disk in the journal (read at start): the marks among them are held."""
        for _, store, serial in _marks(lines):
            for known in (self.held, self.taken, self.seen):
                known[store] = max(serial, known.get(store, 0))

    def take(self, lines: Iterable[str]) -> None:
        """A record the match has taken (written now, or kept until the disk takes it).

        A pot refused for order and now passed by a later one of its store was lost by
        the board before we took it (it keeps its pots in order): counted and shown."""
        for kind, store, serial in _marks(lines):
            if kind == "held":
                continue
            self.taken[store] = max(serial, self.taken.get(store, 0))
            passed = {s for s in self.waiting.get(store, ()) if s <= serial}
            if passed:
                self.waiting[store] -= passed
                lost = len(passed - {serial})
                if lost:
                    self.counts["lost"] += lost
                    self.log(f"board store {store:08x}: {lost} pot(s) before {serial} lost")

    def durable(self, lines: Iterable[str]) -> None:
        """A record is on disk: its pots are held, and the board may forget them."""
        self.note(lines)
        for kind, store, serial in _marks(lines):
            if kind != "held" and self.ack is not None:
                self.ack(serial, store)

    def relieve(self) -> None:
        """The disk refused a record: ack from memory a store whose board would run short."""
        if self.ack is None:
            return
        for store, taken in self.taken.items():
            if taken - self.held.get(store, taken) >= BOARD_KEEPS:
                self.ack(taken, store)

    # -- a new match, the screens ----------------------------------------------------------
    def carry(self) -> list[str]:
        """The lines a new match's first record starts with, so resends are still known
        (its records reach the disk after those still waiting for it, so taken is held)."""
        stores = self.held | self.taken
        return [
            f"{HELD}{store}:{max(self.held.get(store, 0), self.taken.get(store, 0))}"
            for store in stores
        ]

    def faults(self) -> list[dict]:
        """What the screens show: pots refused or lost since the start, with counts."""
        return [{"kind": FAULT_KINDS[what], "count": n} for what, n in self.counts.items() if n > 0]

    def _ack(self, pot: Pot) -> None:
        if self.ack is not None:
            self.ack(pot.serial, pot.store)


def _marks(lines: Iterable[str]):
    for line in lines:
        if (found := parse_mark(line)) is not None:
            yield found
