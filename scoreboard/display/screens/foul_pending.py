"""A FOUL step that waits because it would end the frame (docs/decisions.md, "A correction is
one step"): drawn over whatever phase the match is in, with nothing of the step before it
(issue 34: no line left from the previous kind). It says whose foul and its kind (or "no
foul"), whose point and the score it would end on, that the frame or the match ends there,
and what FOUL and UNDO do meanwhile. The score shown by the phase's screen is not yet changed."""

from scoreboard.display.canvas import ROWS
from scoreboard.texts.messages import HINTS

ENDS = {"frame": "Ends the frame", "match": "Ends the match"}


def draw(c, snap, t, key: str, fields: dict) -> int:
    """`key` is one of messages.ENDING_HINTS; `fields` its fields, the kind in words."""
    no_foul = key.startswith("no-foul")
    if no_foul:  # the shot's balls count again: the winning pot is back
        c.bar(ROWS[0], t.gettext(HINTS["foul-cancelled"]))
    else:  # whose foul the kind is (GR-7.3: out of turn is the other player's)
        c.bar(ROWS[0], t.gettext(HINTS["foul-kind"]), name=fields["name"], kind=fields["kind"])
    # Whose point (FP-6) or balls (FP-5.5), and the frame's score then (D-2: never clipped).
    c.fit(
        2,
        ROWS[1],
        c.width - 4,
        "+{n} {name} → {score}",
        bold=True,
        align="center",
        n=fields["n"],
        name=fields["gainer"],
        score=fields["score"],
    )
    ends = ENDS["match" if key.endswith("match") else "frame"]
    c.fit(2, ROWS[2], c.width - 4, "{s}", bold=True, align="center", s=t.gettext(ends))
    step = t.gettext("FOUL: a foul after all") if no_foul else t.gettext("FOUL: next kind")
    c.fit(2, ROWS[3], c.width - 4, "{s}", fill=c.dim, s=step)
    c.fit(2, ROWS[4], c.width - 4, "{s}", fill=c.dim, s=t.gettext("UNDO: back"))
    return ROWS[4]
