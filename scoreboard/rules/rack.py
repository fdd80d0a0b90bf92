"""The opening rack (GR-9.1) and the incomplete rack after a re-rack (GR-9.3)."""

from scoreboard.rules.errors import RuleError

WHITE_BALLS = 15  # GR-3, GR-9.1

Rows = tuple[tuple[int, ...], ...]


def layout(whites: int) -> Rows:
    """Rows from the apex to the base, each row ``i`` a tuple of ``i`` places, 1 = a ball.

    GR-9.3: full rows are filled from the apex toward the base; the last, partly
    filled row is filled from its middle outward, symmetric about the long axis;
    where symmetry needs it (the free places would not split evenly) the apex
    ball is moved into that row.
    """
    if isinstance(whites, bool) or not isinstance(whites, int) or not 1 <= whites <= WHITE_BALLS:
        raise RuleError(f"a rack has 1 to {WHITE_BALLS} white balls, not {whites!r}")
    full = 0
    while (full + 1) * (full + 2) // 2 <= whites:
        full += 1
    rows = [[1] * length for length in range(1, full + 1)]
    rest = whites - full * (full + 1) // 2
    if rest == 0:
        return _freeze(rows)
    base = full + 1
    if (base - rest) % 2:  # an odd number of free places cannot be symmetric
        rows[0][0] = 0
        rest += 1
    gap = (base - rest) // 2
    rows.append([0] * gap + [1] * rest + [0] * gap)
    return _freeze(rows)


def _freeze(rows: list[list[int]]) -> Rows:
    return tuple(tuple(row) for row in rows)


def picture(rows: Rows) -> str:
    """A small text drawing: apex at the top (toward the back cushion), ``●`` a ball, ``·`` a gap."""
    width = len(rows[-1])
    lines = []
    for row in rows:
        cells = " ".join("●" if place else "·" for place in row)
        lines.append(" " * (width - len(row)) + cells)
    return "\n".join(lines)
