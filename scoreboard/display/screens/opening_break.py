"""The break screen (FP-4, GR-12): who breaks, the coloured ball from the house, the rack."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.drawings import rack, rack_size, table
from scoreboard.display.screens.parts import buttons, name, rule_tag, score_text


def draw(c, snap, t) -> int:
    c.bar(ROWS[0], t.gettext("Frame {n}: the break"), n=snap["frame"], right=rule_tag(c, snap, t))
    rows = snap.get("rack")
    room = c.width - 4
    if c.wide:
        # The whole table in miniature: house line, coloured ball, pyramid on the back spot.
        table(c, c.width - 74, ROWS[1] + 1, 72, rows)
        room -= 78
    elif rows:
        # After a GR-13.2 re-rack the rack is incomplete (GR-9.3): show which places to fill.
        w, _ = rack_size(rows)
        rack(c, c.width - w - 2, ROWS[1] + 1, rows)
        room -= w + 4
    breaker = snap["breaker"]
    c.fit(2, ROWS[1], room, t.gettext("{name} breaks"), name=name(snap, breaker))
    # GR-12: the cue ball of the break is always the coloured ball, from hand, in the house.
    c.wrap(2, ROWS[2], room, 2, t.gettext("Coloured ball, from the house"))
    buttons(c, snap, centre=score_text(snap), active=breaker)
    return ROWS[0]
