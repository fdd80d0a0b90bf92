"""The screen after a foul: the kind, the point, the penalty ball (FP-7), the balls to
spot (FP-8) and the choice of GR-7.4 — which button does what."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.drawings import spot_line
from scoreboard.display.screens.parts import (
    buttons,
    kinds_text,
    other,
    penalty_line,
    rule_tag,
    score_text,
)


def draw(c, snap, t) -> int:
    foul = snap["foul"]
    c.bar(
        ROWS[0], t.gettext("FOUL: {kinds}"), kinds=kinds_text(snap, t), right=rule_tag(c, snap, t)
    )
    penalty_line(c, snap, t, ROWS[1])
    spot = foul.get("to_spot", 0)
    if spot:
        if c.wide:
            label = t.ngettext("Spot {n} ball", "Spot {n} balls", spot).format(n=spot)
        else:
            label = t.gettext("Spot {n}:").format(n=spot)
        used = 2 + c.text(2, ROWS[2], label)
        used += 6 + spot_line(c, used + 6, ROWS[2] + 3, spot, d=5, shown=3)
        where = t.gettext("from the back spot")
        # Words for the picture where they fit; the picture alone says it otherwise.
        if c.fits(c.width - used - 8, where):
            c.text(used + 6, ROWS[2], where, fill=c.dim)
    decider = snap["decider"]
    # GR-7.4: the decider's own button = he plays; the offender's = the shot goes back.
    half = c.width // 2
    labels = {decider: t.gettext("I play"), other(decider): t.gettext("hand back")}
    for i, side in enumerate(("A", "B")):
        c.fit(
            i * half + 2, ROWS[3], half - 4, "{s}", align="right" if i else "left", s=labels[side]
        )
    buttons(c, snap, centre=score_text(snap), active=decider)
    return ROWS[0]
