"""The screen saver (scoreboard/table/screen_saver.py): the score and the frames, small, in a
place that moves with every step, so no pixel stays lit for long (OLED burn-in)."""

from scoreboard.display.canvas import Canvas
from scoreboard.display.screens.parts import frames_text, score_text


def draw(c: Canvas, snap: dict, step: int) -> Canvas:
    text = f"{score_text(snap)}  {frames_text(snap)}"
    w, h = c.width_of(text), 12
    # Steps of 37 and 23 pixels (prime to the room left) visit the whole panel in turn.
    x = (step * 37) % max(1, c.width - w)
    y = (step * 23) % max(1, c.height - h)
    c.text(x, y, text, fill=c.dim)
    return c
