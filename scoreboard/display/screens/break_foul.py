"""The screen after a foul on the break: the kind of foul, the balls to spot (GR-22.3), the
four choices of GR-13.2 with the configured hold, and, for a re-rack, the incomplete
pyramid to set up (GR-9.3)."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.drawings import ball, rack, rack_size
from scoreboard.display.screens.parts import (
    buttons,
    kinds_text,
    penalty_line,
    rule_tag,
    score_text,
)


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
    foul = snap["foul"]
    spot = foul.get("to_spot", 0)
    title = t.gettext("FOUL ON THE BREAK: {kinds}") if c.wide else t.gettext("Break: {kinds}")
    c.bar(ROWS[0], title, kinds=kinds_text(snap, t), right=rule_tag(c, snap, t))
    # The 128 px rows need their whole width for the choices with their timing; the break
    # screen that follows a re-rack shows the rack to set up there too.
    rows = rerack_rows(snap) if c.wide else None
    room = c.width - 4
    if rows:
        w, _ = rack_size(rows)
        rack(c, c.width - w - 2, ROWS[2] - 1, rows)
        room -= w + 6
    penalty_line(c, snap, t, ROWS[1])
    # GR-13.2: a press accepts the position and the button's owner shoots (choices 1, 2);
    # a hold re-racks and the button's owner breaks (choices 3, 4).
    used = 2 + c.fit(2, ROWS[2], room, t.gettext("press: play on"))
    if spot:
        # GR-22.3: the balls of the fouled break are spotted if the position is accepted.
        if c.wide:
            label = t.ngettext("Spot {n} ball", "Spot {n} balls", spot).format(n=spot)
            c.fit(used + 12, ROWS[2], room - used - 10, "{s}", fill=c.dim, s=label)
        else:  # "+2" and a ball: two balls come back onto the table
            used += 6 + c.text(used + 6, ROWS[2], f"+{spot}")
            ball(c, used + 1, ROWS[2] + 3, 7)
    c.fit(2, ROWS[3], room, t.timed("hold {hold}: re-rack"))
    buttons(c, snap, centre=score_text(snap), active=snap["decider"])
    return ROWS[0]
