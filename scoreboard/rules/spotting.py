"""Where spotted balls go (FP-8): the back spot, then along the spot line."""

# Spotting (RULES.md, "From the rest of the general rules"): on the back spot; if
# occupied, on the spot line as close as possible toward the back cushion; if that
# is full, toward the centre spot; several balls spotted at once touch each other.
SPOTTING_ORDER = ("back-spot", "spot-line-to-back-cushion", "spot-line-to-centre")


def spots_needed(illegal_pots: int, jumped: int) -> int:
    """Balls to put back on the table after a shot (FP-8, GR-22.4)."""
    return illegal_pots + jumped
