"""Small pictures of the table: the rack (GR-9.1, GR-9.3) and the spot line (FP-8).

The table is drawn lengthwise, front cushion (the house) on the left, back cushion
on the right, as the players see it from the front when the display faces them.
"""

from scoreboard.display.canvas import Canvas


def ball(c: Canvas, x: int, y: int, d: int, *, ring: bool = False):
    """A ball of diameter d with its top-left at (x, y); a ring is the coloured ball."""
    box = (x, y, x + d - 1, y + d - 1)
    if ring:
        c.draw.ellipse(box, outline=c.fg)
    else:
        c.draw.ellipse(box, fill=c.fg)


def rack(c: Canvas, x: int, y: int, rows: list[list[int]], *, d: int = 5):
    """The pyramid as the rules core lays it out (rows apex→base of 0/1), apex to the
    left where it sits on the back spot, base toward the back cushion. Empty places of
    an incomplete rack show as a dim dot so the triangle's shape stays readable."""
    size = len(rows)
    for i, row in enumerate(rows):
        top = y + (size - len(row)) * d // 2
        for j, filled in enumerate(row):
            bx, by = x + i * (d - 1), top + j * d
            if filled:
                # One pixel smaller than the pitch, so each ball stands apart.
                ball(c, bx, by, d - 1)
            else:
                c.draw.point((bx + d // 2, by + d // 2), fill=c.dim)


def rack_size(rows: list[list[int]], *, d: int = 5) -> tuple[int, int]:
    return len(rows) * (d - 1) + 1, len(rows) * d


def spot_line(c: Canvas, x: int, y: int, count: int, *, d: int = 6, shown: int = 4) -> int:
    """FP-8 spotting for `count` balls: the first on the back spot (the cross), the next
    ones touching it along the spot line toward the back cushion (the bar on the right).
    A dozen balls fit there, so the overflow toward the centre never needs drawing; past
    `shown` balls the picture stops growing. Returns the drawing's width."""
    balls = min(count, shown)
    mid = y + d // 2
    cushion = x + (balls + 1) * d + 2
    c.draw.line((x, mid, cushion, mid), fill=c.dim)
    # The back spot's mark, above and below the first ball so the ball stays whole.
    c.draw.line((x + (d - 1) // 2, y - 3, x + (d - 1) // 2, y - 2), fill=c.fg)
    c.draw.line((x + (d - 1) // 2, y + d, x + (d - 1) // 2, y + d + 1), fill=c.fg)
    for k in range(balls):
        ball(c, x + k * d, y, d - 1)
    c.draw.rectangle((cushion, y - 2, cushion + 1, y + d + 1), fill=c.fg)
    return cushion + 2 - x


def table(c: Canvas, x: int, y: int, w: int, rows: list[list[int]] | None):
    """The whole table in miniature for the break (GR-2, GR-9, GR-12): house line at a
    quarter of its length, the coloured ball (a ring) in the house, the pyramid's apex
    on the back spot at three quarters."""
    h = w // 2
    c.draw.rectangle((x, y, x + w - 1, y + h - 1), outline=c.fg)
    house = x + w // 4
    c.draw.line((house, y + 1, house, y + h - 2), fill=c.dim)
    ball(c, x + w // 8 - 3, y + h // 2 - 3, 7, ring=True)
    if rows:
        rw, rh = rack_size(rows, d=5)
        rack(c, x + 3 * w // 4 - 2, y + (h - rh) // 2, rows, d=5)
