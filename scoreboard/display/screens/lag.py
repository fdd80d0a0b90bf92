"""The lag screen (GR-8): nobody breaks yet; the lag's winner presses his button."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.parts import buttons, frames_text, rule_tag


def draw(c, snap, t) -> int:
    c.bar(ROWS[0], t.gettext("Who breaks first?"), right=rule_tag(c, snap, t))
    # GR-8.4: the winner breaks or hands the break over; the rules core only needs to
    # know who breaks, so whoever will break presses.
    c.wrap(2, ROWS[1], c.width - 4, 2, t.gettext("The breaker presses his own button"))
    target = t.ngettext("frames to {n} point", "frames to {n} points", snap["target"])
    line = target.format(n=snap["target"])
    if c.wide:
        # 128 px has no room for it; the race is in the button row's "0 (2) 0" anyway.
        race = t.ngettext("race to {n} frame", "race to {n} frames", snap["race"])
        line += ", " + race.format(n=snap["race"])
    if snap.get("game"):  # the club's tournament game (its assign's id): which round it is
        line = f"{snap['game']} · {line}"
    c.fit(2, ROWS[3], c.width - 4, "{s}", fill=c.dim, s=line)
    buttons(c, snap, centre=frames_text(snap), active=None)
    return ROWS[0]
