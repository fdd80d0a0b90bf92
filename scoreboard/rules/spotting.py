"""Spotted balls (FP-8): how many go back on the table after a foul."""

from scoreboard.rules.fouls import FoulKind

# Where they go (RULES.md, "From the rest of the general rules"): on the back spot; if
# occupied, on the spot line as close as possible toward the back cushion; if that is
# full, toward the centre spot; several at once touch each other. The displays draw it.


def spots_needed(shot, fouls, on_table: int) -> int:
    """Balls to put back on the table after a foul (FP-8, GR-22.4): all that fell on the
    stroke and all that left the table; a jumped-ball foul has at least its one ball. Never
    more than the `on_table` balls there were to leave play."""
    jumped = max(shot.jumped, 1 if FoulKind.JUMPED_BALL in fouls else 0)
    return min(shot.pots + jumped, on_table)
