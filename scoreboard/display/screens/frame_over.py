"""The end of a frame and of the match: the winner, the frame score, the match score, and
what the buttons do now (a player's button: the next frame; UNDO held: a new match)."""

from scoreboard.core.phase import Phase
from scoreboard.display.canvas import ROWS
from scoreboard.display.screens import between_frames
from scoreboard.display.screens.parts import buttons, frames_text, name, score_text


def draw(c, snap, t) -> int:
    page = snap.get("page", "result")
    if page != "result":  # statistics pages, turned by FOUL or in time (stats_pages.py)
        return between_frames.draw(c, snap, t, page)
    match_over = snap["phase"] == Phase.MATCH_OVER
    if match_over:
        c.bar(ROWS[0], t.gettext("Match over"))
        winner, big, small = snap["winner"], frames_text(snap), score_text(snap)
        todo = t.gettext("A or B: next match")  # the setup screen (table/setup/)
    else:
        c.bar(ROWS[0], t.gettext("Frame {n} over"), n=snap["frame"])
        winner, big, small = snap["frame_winner"], score_text(snap), frames_text(snap)
        todo = t.gettext("A or B: next frame")
    c.fit(
        2,
        ROWS[1],
        c.width - 4,
        t.gettext("Winner: {name}"),
        bold=True,
        align="center",
        name=name(snap, winner),
    )
    c.fit(0, ROWS[2] - 2, c.width, "{s}", size=16, bold=True, align="center", s=big)
    c.fit(2, ROWS[3], c.width - 4, "{s}", align="center", fill=c.dim, s=todo)
    buttons(c, snap, centre=small, active=winner)
    return ROWS[0]
