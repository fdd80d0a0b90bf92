"""A finished match's result as its players confirmed it (issue 34): comments in its journal.

When the last frame of a match ends, the result is the players' to confirm at the table:
each presses his own button, and each press is a comment in the match's journal,
``# confirm A`` / ``# confirm B``, durable before the display shows it. Both presses close
the result (*confirmed*); if they have not come within the configured time, the table
writes ``# result timed-out`` and the result goes to the club marked *not confirmed*. Only
presses written after the match's last event count: a correction (UNDO, a late FOUL, a ball
that joined the winning stroke) is an event line, and the players confirm again what it
came to. A closed result is final at the table: nothing changes it there any more.
"""

from dataclasses import dataclass

CONFIRM_COMMENT = "# confirm "  # + "A" or "B"
TIMED_OUT_COMMENT = "# result timed-out"
CONFIRMED = "confirmed"
TIMED_OUT = "timed-out"


@dataclass(frozen=True)
class Confirmation:
    A: bool = False
    B: bool = False
    timed_out: bool = False

    @property
    def closed(self) -> str | None:
        """How the result was closed: :data:`CONFIRMED`, :data:`TIMED_OUT`, or None (open)."""
        if self.A and self.B:
            return CONFIRMED
        return TIMED_OUT if self.timed_out else None

    def by(self, side: str) -> bool:
        return self.A if side == "A" else self.B

    def view(self) -> dict:
        """As the state carries it (`confirmation` in match-over): who confirmed, and how the
        result was closed (None while it is open)."""
        return {"A": self.A, "B": self.B, "closed": self.closed}


def confirm_line(side: str) -> str:
    return f"{CONFIRM_COMMENT}{side}"


def confirmation_of(lines) -> Confirmation:
    """The confirmation the journal's `lines` hold for the state their events came to: only
    what was written after the last event counts (an event after a press changed what the
    press confirmed)."""
    a = b = timed_out = False
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if not text.startswith("#"):
            a = b = timed_out = False  # an event: what was confirmed is no longer the result
        elif text == confirm_line("A"):
            a = True
        elif text == confirm_line("B"):
            b = True
        elif text == TIMED_OUT_COMMENT:
            timed_out = True
    return Confirmation(a, b, timed_out)
