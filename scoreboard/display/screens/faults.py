"""Faults and hints drawn over any screen, in the one row the screen can spare."""

from scoreboard.display.canvas import Canvas
from scoreboard.texts.messages import HINTS, MESSAGES, NOT_SAVED, TO_DO, WHAT_IS_WRONG, hint_fields

NOT_SAVED_MARK = "✗"  # at the end of a hint's row while not saved: the mark never leaves


def overlay(c: Canvas, y: int, t, *, faults=(), hint=None):
    """A hint (an input this phase ignored) wins the row for its few seconds; otherwise
    the first fault, with a count of the others. The screen chose a row that never holds
    the score, so the score stays readable whatever goes wrong."""
    not_saved = any(f["kind"] == "not-saved" for f in faults)
    if hint:
        # A hint from the catalog is translated, its fields filled in (and shortened to fit);
        # any other text is shown as given.
        mark = NOT_SAVED_MARK if not_saved else ""
        key, fields = hint_fields(hint, t)
        if key in HINTS:
            c.bar(y, t.timed(HINTS[key]), right=mark, **fields)
        else:
            c.bar(y, "{s}", right=mark, s=key)
        return
    if not faults:
        return
    first = faults[0]
    more = f"+{len(faults) - 1}" if len(faults) > 1 else ""
    if first["kind"] == "not-saved":
        _not_saved(c, y, t, first, more)
        return
    text = t.gettext(MESSAGES.get(first["kind"], "Fault: {kind}"))
    c.bar(
        y,
        "!" + text,
        right=more,
        kind=first["kind"],
        pocket=first.get("pocket", "?"),
        count=first.get("count", "?"),
    )


def _not_saved(c: Canvas, y: int, t, fault: dict, more: str):
    problem = fault.get("problem", "broken")
    what = t.gettext(WHAT_IS_WRONG.get(problem, WHAT_IS_WRONG["broken"]))
    todo = t.gettext(TO_DO.get(problem, TO_DO["broken"]))
    title = t.gettext(NOT_SAVED)
    # A 256 px row holds the first two pages as one.
    pages = [f"{title}: {what}", todo] if c.wide else [title, what, todo]
    page = fault.get("page", 0) % (len(pages) + 1)
    if page < len(pages):
        c.bar(y, "!" + pages[page], right=more)
        return
    # The path keeps its end, the part that says which file: "…/scoreboard/journal.log".
    path = fault.get("path", "")
    room = c.width - 4 - (c.width_of(more) + 6 if more else 0)
    while len(path) > 2 and c.width_of("!" + path) > room:
        path = "…" + path[2:]
    c.bar(y, "!{path}", right=more, path=path)
