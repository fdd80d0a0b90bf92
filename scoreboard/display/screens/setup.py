"""The setup screen (scoreboard/table/setup/): the next match's settings, chosen with the four
buttons. Drawn from the snapshot's "setup" view (model.Draft.view); the match under it is
not drawn. A title row, three rows of the menu, the name list or the letters, and a last row
that says what the buttons do now (a hint or a fault takes that row for its few seconds)."""

from scoreboard.display.canvas import ROWS
from scoreboard.display.fonts import SMALL

# Words for the values the menu shows (translated through the catalog).
VALUES = {
    "lag": "the lag",
    "foul": "foul",
    "spot": "no foul",
    "ball": "a ball",
    "american": "American style",
}
OPTION_LABELS = {
    "jumped-ball": "Off table: {value}",  # D-4
    "penalty": "Penalty: {value}",  # FP-7 or CV-1
}
LANGUAGE_NAMES = {"uk": "Українська", "ru": "Русский", "en": "English"}
# The signs after the letters, as the strip shows them.
SIGN_FACES = {" ": "_", "<done>": "✓", "<delete>": "←"}
ALPHABET_FACES = {"uk": "ґєї", "ru": "ёыэ", "en": "abc"}
ALPHABET_ORDER = ("uk", "ru", "en")

HELP = {
    "menu": "FOUL:choose UNDO:exit",
    "start": "FOUL:start A/B:settings",
    "value": "A◀▶B FOUL:OK UNDO:cancel",
    "pick": "A▲B▼ FOUL:take UNDO:back",
    "letters": "FOUL:type UNDO:delete",
}


def draw(c, snap, t) -> int:
    view = snap["setup"]
    mode = view["mode"]
    if mode == "letters":
        _letters(c, snap, view, t)
    elif mode == "pick":
        _pick(c, snap, view, t)
    else:
        _menu(c, snap, view, t)
    help_key = "start" if mode == "menu" and view["row"] == "start" else mode
    c.fit(2, ROWS[4] + 2, c.width - 4, "{s}", size=SMALL, fill=c.dim, s=t.gettext(HELP[help_key]))
    return ROWS[4]


def _who(view: dict, side: str) -> str:
    a, b = view["settings"]["players"]
    return a if side == "A" else b


def row_text(view: dict, row: str, t) -> tuple[str, dict]:
    """A menu row's template and fields."""
    s = view["settings"]
    match row:
        case "start":
            return t.gettext("Start the match"), {}
        case "player-a":
            return "A: {name}", {"name": s["players"][0]}
        case "player-b":
            return "B: {name}", {"name": s["players"][1]}
        case "race":
            return t.gettext("Race to {n}"), {"n": s["race"]}
        case "target":
            return t.gettext("Target: {n} points"), {"n": s["target"]}
        case "breaker":
            who = s["breaker"]
            value = t.gettext(VALUES["lag"]) if who == "lag" else _who(view, who)
            return t.gettext("Breaks: {value}"), {"value": value}
        case "lang":
            return t.gettext("Language: {value}"), {"value": LANGUAGE_NAMES[s["lang"]]}
    key = row.removeprefix("option:")
    value = s["options"][key]
    label = OPTION_LABELS.get(key, key + ": {value}")
    return t.gettext(label), {"value": t.gettext(VALUES.get(value, value))}


def _window(count: int, at: int, rows: int = 3) -> range:
    """The `rows` items shown around `at`, which stays in the middle where it can."""
    first = min(max(0, at - rows // 2), max(0, count - rows))
    return range(first, min(count, first + rows))


def _menu(c, snap, view, t):
    rows = view["rows"]
    at = rows.index(view["row"])
    c.bar(ROWS[0], t.gettext("Next match"), right=f"{at + 1}/{len(rows)}")
    editing = view["mode"] == "value"
    for line, i in enumerate(_window(len(rows), at)):
        template, fields = row_text(view, rows[i], t)
        if editing and i == at:
            template = "◀ " + template + " ▶"
        _line(c, ROWS[1 + line], template, fields, chosen=i == at, bold=rows[i] == "start")


def _line(c, y, template, fields, *, chosen, bold=False):
    fill = None
    if chosen:
        c.draw.rectangle((0, y, c.width - 1, y + 11), fill=c.fg)
        fill = c.bg
    c.fit(2, y, c.width - 4, template, fill=fill, bold=bold, **fields)


def _pick(c, snap, view, t):
    names, at = view["names"], view["choice"]
    c.bar(ROWS[0], t.gettext("Player {side}"), right=f"{at + 1}/{len(names)}", side=view["side"])
    for line, i in enumerate(_window(len(names), at)):
        if names[i] == "<new>":
            template, fields = t.gettext("New name…"), {}
        else:
            template, fields = "{name}", {"name": names[i]}
        _line(c, ROWS[1 + line], template, fields, chosen=i == at)


def _letters(c, snap, view, t):
    typed, ring, at = view["typed"], view["ring"], view["at"]
    c.bar(ROWS[0], t.gettext("New name: {side}"), right=f"{len(typed)}/12", side=view["side"])
    c.fit(2, ROWS[1], c.width - 4, "{s}", bold=True, s=typed + "_")
    # The strip: the sign FOUL types now, inverted in the middle, its neighbours either side.
    size = 16
    y = ROWS[2] + 3
    faces = [_face(sign, view["alphabet"]) for sign in ring]
    cell = lambda face: c.width_of(face, size=size, bold=True) + 6  # noqa: E731
    mid = c.width // 2
    w = cell(faces[at])
    left, right = mid - w // 2, mid + (w - w // 2)
    c.draw.rectangle((left, y - 1, right - 1, y + size), fill=c.fg)
    c.text(left + 3, y, faces[at], size=size, bold=True, fill=c.bg)
    x, i = left, at
    while True:
        i = (i - 1) % len(faces)
        w = cell(faces[i])
        if x - w < 0:
            break
        x -= w
        c.text(x + 3, y, faces[i], size=size, bold=True, fill=c.dim)
    x, i = right, at
    while True:
        i = (i + 1) % len(faces)
        w = cell(faces[i])
        if x + w > c.width:
            break
        c.text(x + 3, y, faces[i], size=size, bold=True, fill=c.dim)
        x += w


def _face(sign: str, alphabet: str) -> str:
    if sign == "<alphabet>":
        following = ALPHABET_ORDER[(ALPHABET_ORDER.index(alphabet) + 1) % len(ALPHABET_ORDER)]
        return ALPHABET_FACES[following]
    return SIGN_FACES.get(sign, sign)
