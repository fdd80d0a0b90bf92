"""The statistics pages between frames and at match end (scoreboard/table/stats_pages.py): frame
scores with the time each frame took, longest runs, pots and fouls, fouls by kind. Each
player's figure is on his side, above his name and button. Between frames FOUL turns the
page, after the match too (issue 34: A and B confirm the result there, FOUL never opens the
setup), so the title says "FOUL" on every page."""

from scoreboard.core.frame_clock import clock_text
from scoreboard.display.canvas import ROWS
from scoreboard.display.screens.parts import buttons, frames_text
from scoreboard.texts.messages import KINDS

# The pages in the order FOUL turns them (the table counts them: scoreboard/table/stats_pages.py).
PAGES = ("result", "frames", "stats", "fouls")
SHOWN_ROWS = (ROWS[1], ROWS[2], ROWS[3])  # three rows between the title and the names


def frame_time(seconds: int | None) -> str:
    """A frame's time as a clock reads: "7:05", "1:02:40"; "–" when it is not known."""
    return "–" if seconds is None else clock_text(seconds)


def draw(c, snap, t, page: str) -> int:
    titles = {
        "frames": t.gettext("Frames"),
        "stats": t.gettext("Statistics"),
        "fouls": t.gettext("Fouls by kind") if c.wide else t.gettext("Fouls"),
    }
    label = t.gettext("FOUL {i}/{n}")  # FOUL turns them, between frames and after the match
    number = label.format(i=PAGES.index(page) + 1, n=len(PAGES))
    c.bar(ROWS[0], "{s}", right=number, s=titles[page])
    {"frames": _frames, "stats": _figures, "fouls": _fouls}[page](c, snap, t)
    # A or B: the next frame, as on the result page; the names say whose figures are where.
    buttons(c, snap, centre=frames_text(snap), active=None)
    return ROWS[0]


def _frames(c, snap, t) -> None:
    """The last frames, each with its number, score and time: three on a 128 px display,
    six in two columns on a 256 px one (every frame is on `scoreboard history`)."""
    scores, times = snap["frame_scores"], snap.get("frame_times") or []
    columns = 2 if c.wide and len(scores) > len(SHOWN_ROWS) else 1
    first = max(0, len(scores) - columns * len(SHOWN_ROWS))
    width = c.width // columns
    for i, number in enumerate(range(first, len(scores))):
        x, y = (i // len(SHOWN_ROWS)) * width, SHOWN_ROWS[i % len(SHOWN_ROWS)]
        a, b = scores[number]
        seconds = times[number] if number < len(times) else None
        c.text(x + 2, y, f"{number + 1}.", fill=c.dim)
        score = f"{a}:{b}"
        c.text(x + (width - c.width_of(score, bold=True)) // 2, y, score, bold=True)
        shown = frame_time(seconds)
        pad = 2 if x + width >= c.width else 8  # the left column keeps clear of the right
        c.text(x + width - pad - c.width_of(shown), y, shown)


def _figures(c, snap, t) -> None:
    stats = snap["stats"]
    rows = (
        (t.gettext("longest run"), "best_run"),
        (t.gettext("balls potted"), "pots"),
        (t.gettext("fouls"), None),
    )
    for y, (label, key) in zip(SHOWN_ROWS, rows, strict=True):
        values = [stats[side][key] if key else sum(stats[side]["fouls"].values()) for side in "AB"]
        _row(c, y, label, values)


def _fouls(c, snap, t) -> None:
    fouls = {side: snap["stats"][side]["fouls"] for side in "AB"}
    kinds = sorted(
        set(fouls["A"]) | set(fouls["B"]),
        key=lambda k: (-(fouls["A"].get(k, 0) + fouls["B"].get(k, 0)), k),
    )
    if not kinds:
        c.fit(2, ROWS[2], c.width - 4, "{s}", align="center", s=t.gettext("No fouls"))
        return
    shown = kinds if len(kinds) <= len(SHOWN_ROWS) else kinds[: len(SHOWN_ROWS) - 1]
    for y, kind in zip(SHOWN_ROWS, shown, strict=False):
        label = t.gettext(KINDS.get(kind, KINDS["other"]))
        _row(c, y, label, [fouls[side].get(kind, 0) for side in "AB"])
    if len(shown) < len(kinds):  # the rest, added up
        rest = kinds[len(shown) :]
        values = [sum(fouls[side].get(k, 0) for k in rest) for side in "AB"]
        _row(c, SHOWN_ROWS[-1], t.gettext("other kinds"), values)


def _row(c, y, label: str, values: list[int]) -> None:
    """A's figure at the left, B's at the right, what it counts between them."""
    left, right = (str(v) for v in values)
    c.text(2, y, left, bold=True)
    c.text(c.width - 2 - c.width_of(right, bold=True), y, right, bold=True)
    room = c.width - 4 - 2 * (max(c.width_of(left), c.width_of(right)) + 6)
    x = (c.width - room) // 2
    c.fit(x, y, room, "{s}", align="center", fill=c.dim, s=label)
