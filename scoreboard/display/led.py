"""The room's big digits on chained MAX7219s: the frame score and frames, nothing else.

8×8 matrices (`matrix`): one row of modules shows "5:3" and the frames "1-0"; two rows
(height 16) put the frames under the score. Seven-segment modules (`sevensegment_text`)
show eight digits: the score, then the frames after a dot.
"""

from luma.core.legacy import text, textsize
from luma.core.legacy.font import LCD_FONT, TINY_FONT, proportional
from PIL import Image, ImageDraw

from scoreboard.texts.messages import ENDING_HINTS

BIG = proportional(LCD_FONT)
SMALL = proportional(TINY_FONT)


def active_side(snap: dict) -> str | None:
    """Who is at the table or must act: striker, decider or breaker, in that order."""
    return snap.get("striker") or snap.get("decider") or snap.get("breaker")


def matrix(snap: dict, width: int, height: int, hint=None) -> Image.Image:
    """The matrix picture: score in the 7-px LCD font, frames beside or below it, and a
    lit column at the edge on the side of the player at the table. While a FOUL step that
    would end the frame waits (`hint`, messages.ENDING_HINTS), a chain with room for it
    shows the score it would end on after the score, small: ">8:3"."""
    image = Image.new("1", (width, height))
    draw = ImageDraw.Draw(image)
    score = f"{snap['score']['A']}:{snap['score']['B']}"
    frames = f"{snap['frames']['A']}-{snap['frames']['B']}"
    ending = _ending(hint)
    inner = width - 4
    if height >= 16:
        top = [(score, BIG, 0), (ending, SMALL, 1)]
        if ending and _width(top) + 3 <= inner:
            _spread(draw, top, 0, inner)
        else:  # the score alone
            _place(draw, score, BIG, 2, 0, inner)
        _place(draw, frames, BIG, 2, 8, inner)
    else:
        font = BIG
        # The frames take the smallest font; the score shrinks only if it must (9:15).
        fw = textsize(frames, SMALL)[0]
        if textsize(score, BIG)[0] + fw + 2 > inner:
            font = SMALL
        row = [(score, font, 0), (frames, SMALL, 1)]
        if ending and _width(row) + textsize(ending, SMALL)[0] + 3 <= inner:
            row.append((ending, SMALL, 1))
        _spread(draw, row, 0, inner)
    side = active_side(snap)
    if side:
        x = 0 if side == "A" else width - 1
        draw.line((x, 0, x, height - 1), fill="white")
    return image


def _ending(hint) -> str:
    """The score a waiting FOUL step would end the frame on, as ">8:3"; "" if none waits."""
    if isinstance(hint, tuple) and hint[0] in ENDING_HINTS:
        return ">" + dict(hint[1])["score"]
    return ""


def _width(parts) -> int:
    return sum(textsize(s, font)[0] for s, font, _ in parts)


def _spread(draw, parts, y, inner):
    """`parts` ((text, font, pixels down), ...) along one row from y, with equal gaps between
    them and at the ends."""
    gap = (inner - _width(parts)) // (len(parts) + 1)
    x = 2
    for s, font, down in parts:
        x += gap
        text(draw, (x, y + down), s, fill="white", font=font)
        x += textsize(s, font)[0]


def _place(draw, s, font, x, y, width):
    w = textsize(s, font)[0]
    text(draw, (x + max(0, (width - w) // 2), y), s, fill="white", font=font)


def sevensegment_text(snap: dict) -> str:
    """Eight seven-segment digits: "10-5 2.1" is 10:5 in this frame, frames 2 and 1."""
    a, b = snap["score"]["A"], snap["score"]["B"]
    fa, fb = (min(n, 9) for n in (snap["frames"]["A"], snap["frames"]["B"]))
    return f"{a:>2}-{b:<2} {fa}.{fb}"
