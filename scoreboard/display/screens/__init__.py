"""The OLED screens, one module per phase; `draw(canvas, snapshot, lang=...)` picks one."""

from scoreboard.core.phase import Phase
from scoreboard.display.canvas import Canvas
from scoreboard.display.screens import (
    break_foul,
    foul,
    foul_pending,
    frame_over,
    lag,
    opening_break,
    play,
    setup,
)
from scoreboard.display.screens.faults import overlay
from scoreboard.texts.i18n import translator
from scoreboard.texts.messages import ENDING_HINTS, hint_fields
from scoreboard.texts.words import Timings, Words

PHASES = {
    Phase.LAG: lag,
    Phase.BREAK: opening_break,
    Phase.PLAY: play,
    Phase.FOUL: foul,
    Phase.BREAK_FOUL: break_foul,
    Phase.FRAME_OVER: frame_over,
    Phase.MATCH_OVER: frame_over,
}


class PhaseError(ValueError):
    """A snapshot whose phase no screen draws."""


def draw(
    c: Canvas, snap: dict, *, lang: str, timings: Timings | None = None, faults=(), hint=None
) -> Canvas:
    """Draws the phase's screen, then any fault or hint over its spare row; `timings` are
    the button timings the screen names ("hold 1 s")."""
    # The setup screen, while it is open, over whatever phase the match is in.
    screen = setup if snap.get("setup") else PHASES.get(snap.get("phase"))
    if screen is None:
        raise PhaseError(f"no screen for phase {snap.get('phase')!r}")
    t = Words(translator(lang), timings, wide=c.wide)
    key, fields = hint_fields(hint, t)
    if key in ENDING_HINTS and screen is not setup:
        # A FOUL step that would end the frame waits: its own screen, nothing of the last
        # kind's (issue 34); the phase's screen comes back when it is taken or dropped.
        spare_row = foul_pending.draw(c, snap, t, key, fields)
        overlay(c, spare_row, t, faults=tuple(faults))
        return c
    spare_row = screen.draw(c, snap, t)
    overlay(c, spare_row, t, faults=tuple(faults), hint=hint)
    return c
