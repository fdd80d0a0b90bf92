"""Pieces several screens share: the button row, names, scores, foul kinds."""

from scoreboard.display.canvas import ROWS, Canvas
from scoreboard.texts.messages import KINDS

SIDES = ("A", "B")


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def name(snap: dict, side: str) -> str:
    return snap["players"][side]


def score_text(snap: dict) -> str:
    return f"{snap['score']['A']}:{snap['score']['B']}"


def frames_text(snap: dict) -> str:
    """Frames won and the race between them, as club boards write it: "2 (4) 1"."""
    return f"{snap['frames']['A']} ({snap['race']}) {snap['frames']['B']}"


def kinds_text(snap: dict, t) -> str:
    return ", ".join(t.gettext(KINDS.get(k, KINDS["other"])) for k in snap["foul"]["kinds"])


def buttons(c: Canvas, snap: dict, *, centre: str, active: str | None, y: int = ROWS[4]):
    """The bottom row: each player's name at the side of his button (A left, B right),
    the one who must act now inverted, and `centre` (a score) between them."""
    gap = c.width_of(centre, bold=True) + 8
    cell = (c.width - gap) // 2
    c.text((c.width - c.width_of(centre, bold=True)) // 2, y, centre, bold=True)
    for side, x, template in (("A", 0, "◀{name}"), ("B", c.width - cell, "{name}▶")):
        fill = None
        if side == active:
            c.draw.rectangle((x, y, x + cell - 1, y + 11), fill=c.fg)
            fill = c.bg
        align = "left" if side == "A" else "right"
        c.fit(x + 1, y, cell - 2, template, align=align, fill=fill, name=name(snap, side))


def penalty_line(c: Canvas, snap: dict, t, y: int, width: int | None = None):
    """FP-6/FP-7: who got the point, and that he takes a ball of his choice off the table;
    CV-1 ("American"): the offender's point, and that he puts one of his balls back. Once
    lapsed (the ball was not taken or put back before the next shot) there is nothing to ask."""
    foul = snap["foul"]
    if foul.get("lapsed"):
        return
    if foul.get("rule") == "american":
        template, side = t.gettext("−1 {name}: ball back"), foul["offender"]
    else:
        template, side = t.gettext("+1 {name}: takes ball"), foul["penalty_to"]
    c.fit(2, y, (width or c.width) - 2, template, name=name(snap, side))


def rule_tag(c: Canvas, snap: dict, t) -> str:
    """A club rule that changes the score, named where it is on (CV-1): "" for the official
    rules, so the official screens are as they were."""
    if snap.get("penalty") != "american":
        return ""
    return t.gettext("American") if c.wide else t.gettext("Am.")
