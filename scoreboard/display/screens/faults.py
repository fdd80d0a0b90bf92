"""Faults and hints drawn over any screen, in the one row the screen can spare."""

from scoreboard.display.canvas import Canvas
from scoreboard.display.screens.parts import KINDS

MESSAGES = {
    "board-lost": "Sensor board lost",
    "sensor-stuck": "Pocket {pocket}: stuck",
    "sensor-silent": "Pocket {pocket}: silent",
    # Board pots that could not be counted (scoreboard/pot_ledger.py, PROTOCOL.md).
    "board-bad-pocket": "Bad pocket: {count}",
    "board-pots-lost": "Pots lost: {count}",
    "board-pots-dropped": "Board full: {count}",
    "board-edges-missed": "Edges missed: {count}",
    "board-firmware": "Update firmware",
}

# The journal cannot be written (scoreboard/storage.py): the match goes on in memory. One
# row of a 128 px display cannot say it all, so the fault turns a page every couple of
# seconds: that it is not saved, what is wrong, what to do, and where.
NOT_SAVED = "Not saved"
WHAT_IS_WRONG = {
    "full": "Disk is full",
    "read-only": "Disk is read-only",
    "denied": "No write access",
    "not-a-folder": "State dir is a file",
    "folder": "Journal is a dir",
    "in-use": "In use elsewhere",
    "broken": "Disk error",
}
TO_DO = {
    "full": "Free disk space",
    "read-only": "Remount read-write",
    "denied": "Fix permissions",
    "not-a-folder": "Move the file away",
    "folder": "Move the dir away",
    "in-use": "Stop the other one",
    "broken": "Check the disk",
}
NOT_SAVED_MARK = "✗"  # at the end of a hint's row while not saved: the mark never leaves

# Hints the panel gives (scoreboard/panel.py), by key: an input this phase ignored, or
# what to do next. Keys not here are shown as given.
HINTS = {
    "who-breaks": "Who breaks? Press",
    "hold-to-pot": "Hold {hold}: +1 ball",
    "not-your-turn": "Not your turn",
    "two-buttons": "One button at a time",
    "penalty-ball": "Penalty ball taken",
    "ball-after-frame": "Press to go on",
    "choose": "Choose: A or B",
    "match-over": "UNDO {undo_hold}: new match",
    "nothing-to-undo": "Nothing to undo",
    # UNDO held asks (panel.py): UNDO again a new match, FOUL a code to pair a phone.
    "confirm-new-match": "UNDO new, FOUL phone",
    "refused": "Not allowed now",
    # What an UNDO, a lapse or a correction did (issue 11): said once, briefly.
    "undone-foul": "Undone: {name}'s foul",
    "undone-pots": "Undone: {name} +{n}",
    "undone-miss": "Undone: {name}'s miss",
    "undone-choice": "Undone: the choice",
    "undone-break": "Undone: who breaks",
    "undone-next": "Undone: next frame",
    "undone-lapse": "Undone: the lapse",
    "undone-foul-pots": "Undone foul: {name} +{n}",  # the FOUL press: the shot's balls back
    "undone-kind": "Foul back to: {kind}",  # a kind step
    "undone-no-foul": "Foul again: {kind}",  # "no foul"
    "undone-not-a-ball": "Ball back: {name} +{n}",  # a stuck beam's retract
    "lapsed": "Point taken back: {name}",
    "no-lapse": "Nothing to take back",  # FOUL held with none (FP-7 note): nothing else
    "lapsed-back": "Point given back: {name}",  # CV-1: the offender kept his ball
    "time-up": "Time is up: {name}",  # the shot clock, advisory (shot_clock.py)
    "extension": "Extension: {name}",  # the striker's one extension this frame
    "foul-kind": "Foul {name}: {kind}",  # whose foul the kind is (out-of-turn: the other's)
    "foul-cancelled": "No foul: as before",
    "match-restored": "The last match is back",
    "config-applied": "New settings: this match",
    "config-next-match": "New settings: next match",
    "config-refused": "Config error: not taken",
    # The setup screen (scoreboard/setup_screen/) and settings sent for the next match.
    "setup-same-name": "Same name twice",
    "setup-name-full": "12 letters at most",
    "setup-next-match": "Next match is set",
    "not-a-ball": "Pocket {pocket}: not a ball",
    "check-score": "Pocket {pocket}: check score",
    # Phones (issue 12, scoreboard/phone/): pairing, and a change a phone asks for.
    "phone-code-asked": "Asking for a code…",
    "phone-no-network": "Network is off",
    "phone-paired": "Phone paired",
    "phone-undo": "Phone undo? OK: A/B",
    "phone-refused": "Phone: refused",
}


def hint_fields(hint, t) -> tuple[str, dict]:
    """A hint's key and its fields, a foul kind in words: ``("lapsed", {"name": "Taras"})``."""
    key, fields = hint if isinstance(hint, tuple) else (hint, ())
    fields = dict(fields)
    if "kind" in fields:
        fields["kind"] = t.gettext(KINDS.get(fields["kind"], KINDS["other"]))
    return key, fields


def hint_text(hint, t) -> str:
    """A hint as a sentence in the display's language (for text screens: the simulator's)."""
    key, fields = hint_fields(hint, t)
    return t.timed(HINTS[key]).format(**fields) if key in HINTS else str(key)


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
