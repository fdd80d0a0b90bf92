"""The end of a frame and of the match: the winner, the frame score, the match score."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.parts import buttons, frames_text, name, score_text
from scoreboard.phase import Phase


def draw(c, snap, t) -> int:
    match_over = snap["phase"] == Phase.MATCH_OVER
    if match_over:
        c.bar(ROWS[0], t.gettext("Match over"))
        winner, big, small = snap["winner"], frames_text(snap), score_text(snap)
    else:
        c.bar(ROWS[0], t.gettext("Frame {n} over"), n=snap["frame"])
        winner, big, small = snap["frame_winner"], score_text(snap), frames_text(snap)
    size = 16 if c.wide else 12
    c.fit(
        2,
        ROWS[1],
        c.width - 4,
        t.gettext("Winner: {name}"),
        size=size,
        bold=True,
        align="center",
        name=name(snap, winner),
    )
    c.fit(0, ROWS[1] + size + 1, c.width, "{s}", size=20, bold=True, align="center", s=big)
    buttons(c, snap, centre=small, active=winner)
    return ROWS[0]
