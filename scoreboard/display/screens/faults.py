"""Faults and hints drawn over any screen, in the one row the screen can spare."""

from scoreboard.display.canvas import Canvas

MESSAGES = {
    "board-lost": "Sensor board lost",
    "sensor-stuck": "Pocket {pocket}: stuck",
    "sensor-silent": "Pocket {pocket}: silent",
}

# Hints the panel gives (scoreboard/panel.py), by key: an input this phase ignored, or
# what to do next. Keys not here are shown as given.
HINTS = {
    "who-breaks": "Who breaks? Press",
    "hold-to-pot": "Hold 1 s: +1 ball",
    "not-your-turn": "Not your turn",
    "two-buttons": "One button at a time",
    "penalty-ball": "Penalty ball taken",
    "ball-after-frame": "Press to go on",
    "choose": "Choose: A or B",
    "match-over": "UNDO 3 s: new match",
    "nothing-to-undo": "Nothing to undo",
    "confirm-new-match": "New match? UNDO",
    "refused": "Not allowed now",
}


def overlay(c: Canvas, y: int, t, *, faults=(), hint=None):
    """A hint (an input this phase ignored) wins the row for its few seconds; otherwise
    the first fault, with a count of the others. The screen chose a row that never holds
    the score, so the score stays readable whatever goes wrong."""
    if hint:
        # A hint from the catalog is translated; any other text is shown as given.
        c.bar(y, "{s}", s=t.gettext(HINTS.get(hint, hint)))
        return
    if not faults:
        return
    first = faults[0]
    text = t.gettext(MESSAGES.get(first["kind"], "Fault: {kind}"))
    more = f"+{len(faults) - 1}" if len(faults) > 1 else ""
    c.bar(y, "!" + text, right=more, kind=first["kind"], pocket=first.get("pocket", "?"))
