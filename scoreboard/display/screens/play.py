"""The play screen: the frame score large enough for the room, names, who is at the table."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.drawings import ball
from scoreboard.display.screens.parts import SIDES, frames_text, name, rule_tag


def draw(c, snap, t) -> int:
    names_size = 16 if c.wide else 12
    half = c.width // 2
    for i, side in enumerate(SIDES):
        x = i * half
        fill = None
        # The striker's name is inverted: readable as "that one" from across the room.
        if side == snap.get("striker"):
            c.draw.rectangle((x, 0, x + half - 1, names_size - 1), fill=c.fg)
            fill = c.bg
        c.fit(
            x + 2,
            0,
            half - 4,
            "{name}",
            size=names_size,
            align="center",
            fill=fill,
            name=name(snap, side),
        )
        c.big(x + (4 if i else -4), names_size - 7, half, str(snap["score"][side]))
    c.big(half - 12, names_size - 7, 24, ":")
    bottom = ROWS[4]
    if snap.get("shot_clock"):
        shot_clock_bar(c, snap["shot_clock"], bottom - 4)
    frames = frames_text(snap)
    c.fit(0, bottom, c.width, "{s}", align="center", bold=True, s=frames)
    side_room = (c.width - c.width_of(frames, bold=True)) // 2 - 8
    balls = snap["balls_on_table"]
    left = t.ngettext("{n} ball left", "{n} balls left", balls).format(n=balls)
    tag = rule_tag(c, snap, t)  # CV-1: the club's penalty, where it is on
    if tag:
        tag_width = 2 + c.fit(2, bottom, side_room, "{s}", fill=c.dim, s=tag) + 6
        side_room -= tag_width
    if c.wide and c.fits(side_room, left):
        c.text(2 + (tag_width if tag else 0), bottom, left, fill=c.dim)
        c.fit(
            c.width - side_room - 2,
            bottom,
            side_room,
            t.gettext("frame {n}"),
            align="right",
            fill=c.dim,
            n=snap["frame"],
        )
    else:
        # No room for words: a ball and the count.
        count = str(balls)
        w = c.width_of(count)
        c.text(c.width - w - 1, bottom, count, fill=c.dim)
        ball(c, c.width - w - 10, bottom + 3, 7)
    return bottom


def shot_clock_bar(c, clock: dict, y: int) -> None:
    """The shot's time left (shot_clock.py) as a bar between the score and the bottom row:
    full at the start, shrinking toward its middle, an empty frame once the time is up."""
    room = c.width - 4
    c.draw.rectangle((2, y, 2 + room - 1, y + 2), outline=c.dim)
    filled = room * clock["left"] // max(clock["limit"], 1)
    if filled:
        left = 2 + (room - filled) // 2
        c.draw.rectangle((left, y, left + filled - 1, y + 2), fill=c.fg)
