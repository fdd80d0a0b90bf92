"""Where spotted balls go (FP-8): the back spot, then along the spot line."""

from scoreboard.rules.fouls import FoulKind

# Spotting (RULES.md, "From the rest of the general rules"): on the back spot; if
# occupied, on the spot line as close as possible toward the back cushion; if that
# is full, toward the centre spot; several balls spotted at once touch each other.
SPOTTING_ORDER = ("back-spot", "spot-line-to-back-cushion", "spot-line-to-centre")


def spots_needed(shot, fouls) -> int:
    """Balls to put back on the table after a foul (FP-8, GR-22.4): all that fell on the
    stroke and all that left the table; a jumped-ball foul has at least its one ball."""
    jumped = max(shot.jumped, 1 if FoulKind.JUMPED_BALL in fouls else 0)
    return shot.pots + jumped
