"""Faults and hints drawn over any screen, in the one row the screen can spare."""

from scoreboard.display.canvas import Canvas

MESSAGES = {
    "board-lost": "Sensor board lost",
    "sensor-stuck": "Pocket {pocket}: stuck",
    "sensor-silent": "Pocket {pocket}: silent",
}

# Hints the app may pass; each says an input was ignored in this phase.
HINTS = (
    "Foul: not now",
    "Nothing to undo",
    "Choose: A or B",
    "Pot not counted",
)


def overlay(c: Canvas, y: int, t, *, faults=(), hint=None):
    """A hint (an input this phase ignored) wins the row for its few seconds; otherwise
    the first fault, with a count of the others. The screen chose a row that never holds
    the score, so the score stays readable whatever goes wrong."""
    if hint:
        # A hint from the catalog is translated; any other text is shown as given.
        c.bar(y, "{s}", s=t.gettext(hint))
        return
    if not faults:
        return
    first = faults[0]
    text = t.gettext(MESSAGES.get(first["kind"], "Fault: {kind}"))
    more = f"+{len(faults) - 1}" if len(faults) > 1 else ""
    c.bar(y, "!" + text, right=more, kind=first["kind"], pocket=first.get("pocket", "?"))
