"""Exactly-once for the sensor board's pots: which ones the journal holds, which to take, what to ack.

A board pot carries its (store, serial). The journal records each board pot it takes
as a mark line, ``# board pot STORE:SERIAL``, in the same record as the shot it made
(or alone, for a pot that scored nothing), so the pot and its effect are durable
together. Only then is the pot acked to the board, which keeps it until then.

The ledger is rebuilt from the marks on start (the journal, and the last archived one
for a cut between an archive and the new match's first record) and carried into each
new match's first record, so a pot the board resends is recognised across restarts and
matches.

While the disk refuses writes (scoreboard/storage.py) a taken pot's record waits in memory:
the pot is counted and shown once (a resend of it is KEPT: nothing counted, nothing acked)
and acked only when its record reaches the disk (`durable`), so the board keeps it till then.
The board keeps 64 unacked pots and drops (counts) any more, so while the disk refuses for
long, `relieve` acks a store's pots from memory once BOARD_KEEPS of them wait: a ball on a
display marked "not saved" then rests on the host alone, but no ball is ever refused.
"""

from collections.abc import Callable, Iterable

from scoreboard.inputs.events import Pot

MARK = "# board pot "  # a comment in the journal: store:serial of a board pot it holds

TAKE = "take"  # a new pot, next in order: count it and write its mark with it
DUPLICATE = "duplicate"  # the journal holds it already: ack it again, count nothing
WAIT = "wait"  # an earlier pot of its store is not in the journal yet: the board resends
BOARD_KEEPS = 32  # half the unacked pots a board keeps (64, firmware/PROTOCOL.md)
KEPT = "kept"  # taken, its record waiting in memory for the disk: count nothing, ack later


def mark_line(store: int, serial: int) -> str:
    return f"{MARK}{store}:{serial}"


class PotLedger:
    """The highest serial the journal holds for each board store, and the acks that follow."""

    def __init__(self, *journals: Iterable[str]) -> None:
        self.held: dict[int, int] = {}  # on disk
        self.taken: dict[int, int] = {}  # counted: on disk or waiting in memory for it
        self.ack: Callable[[int, int], None] | None = None  # the link's, once wired
        for lines in journals:
            self.note(lines)

    @staticmethod
    def is_board_pot(event) -> bool:
        return isinstance(event, Pot) and event.store is not None and event.serial is not None

    def decide(self, pot: Pot) -> str:
        """TAKE, DUPLICATE, KEPT or WAIT for a board pot."""
        # The link hands a board's pots over in order from what the board had acked,
        # so the first we see of a store sets where its serials stand.
        held = self.held.setdefault(pot.store, pot.serial - 1)
        taken = max(held, self.taken.get(pot.store, held))
        if pot.serial <= held:
            return DUPLICATE
        if pot.serial <= taken:
            return KEPT
        if pot.serial > taken + 1:
            return WAIT
        return TAKE

    def admit(self, pot: Pot) -> bool:
        """True for a pot to count; a duplicate is acked again, one out of order waits."""
        verdict = self.decide(pot)
        if verdict == DUPLICATE:
            self._ack(pot)
        return verdict == TAKE

    def mark(self, pot: Pot | None) -> list[str]:
        """The journal line(s) that record a taken board pot (none for any other input)."""
        if pot is None or not self.is_board_pot(pot):
            return []
        return [mark_line(pot.store, pot.serial)]

    def note(self, lines: Iterable[str]) -> None:
        """Lines now durable in the journal: the marks among them are held."""
        for store, serial in _marks(lines):
            self.held[store] = max(serial, self.held.get(store, 0))

    def take(self, lines: Iterable[str]) -> None:
        """Lines the match has taken (written now, or kept until the disk takes them)."""
        for store, serial in _marks(lines):
            self.taken[store] = max(serial, self.taken.get(store, 0))

    def durable(self, lines: Iterable[str]) -> None:
        """A record is on disk: its pots are held, and the board may forget them."""
        self.note(lines)
        for store, serial in _marks(lines):
            if self.ack is not None:
                self.ack(serial, store)

    def relieve(self) -> None:
        """The disk refused a record: ack from memory a store whose board would run short."""
        if self.ack is None:
            return
        for store, taken in self.taken.items():
            if taken - self.held.get(store, taken) >= BOARD_KEEPS:
                self.ack(taken, store)

    def carry(self) -> list[str]:
        """The marks a new match's first record starts with, so resends are still known."""
        stores = self.held | self.taken
        return [
            mark_line(store, max(self.held.get(store, 0), self.taken.get(store, 0)))
            for store in stores
        ]

    def _ack(self, pot: Pot) -> None:
        if self.ack is not None:
            self.ack(pot.serial, pot.store)


def _marks(lines: Iterable[str]):
    for line in lines:
        if line.startswith(MARK):
            store, serial = map(int, line[len(MARK) :].split(":"))
            yield store, serial
