"""The screen after a foul on the break: the four choices of GR-13.2 and, for a re-rack,
the incomplete pyramid to set up (GR-9.3)."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.drawings import rack, rack_size
from scoreboard.display.screens.parts import buttons, penalty_line, score_text


def rerack_rows(snap: dict) -> list[list[int]] | None:
    """The rack a re-rack would set up, from the rules core: the snapshot's `rack` if it
    carries one, else `scoreboard.rules.rack.layout(n)` for the white balls left (all on
    the table but the coloured one, GR-9.3). None while the rules core has neither."""
    if snap.get("rack"):
        return snap["rack"]
    try:
        from scoreboard.rules.rack import layout
    except ImportError:
        return None
    whites = snap["balls_on_table"] - 1
    return layout(whites) if 1 <= whites <= 15 else None


def draw(c, snap, t) -> int:
    c.bar(ROWS[0], t.gettext("FOUL ON THE BREAK"))
    rows = rerack_rows(snap)
    room = c.width - 4
    if rows:
        w, _ = rack_size(rows)
        rack(c, c.width - w - 2, ROWS[2] - 1, rows)
        room -= w + 6
    penalty_line(c, snap, t, ROWS[1])
    # GR-13.2: a press accepts the position and the button's owner shoots (choices 1, 2);
    # a hold re-racks and the button's owner breaks (choices 3, 4).
    c.fit(2, ROWS[2], room, t.gettext("press: play on"))
    c.fit(2, ROWS[3], room, t.gettext("hold: re-rack"))
    buttons(c, snap, centre=score_text(snap), active=snap["decider"])
    return ROWS[0]
