"""The end of a frame and of the match: the winner, the frame score, the match score, and
what the buttons do now (a player's button: the next frame; after the match each player's
button confirms the result, issue 34, then opens the next match's setup)."""

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
        todo = _to_confirm(snap, t) or t.gettext("A or B: next match")  # table/setup/
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


def _to_confirm(snap, t) -> str | None:
    """Who is still to confirm the result (issue 34): the gesture, said; None once closed."""
    confirmation = snap.get("confirmation")
    if not confirmation or confirmation["closed"] is not None:
        return None
    waiting = [side for side in "AB" if not confirmation[side]]
    if len(waiting) == 2:
        return t.gettext("Confirm: press A and B")
    return t.gettext("{name}: press to confirm").format(name=name(snap, waiting[0]))
