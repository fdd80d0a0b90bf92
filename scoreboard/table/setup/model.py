"""The setup screen's logic, pure: a draft of the next match's settings and where the four
buttons are in it. `press(draft, key)` returns the next draft and what it asks for; nothing
here draws, writes or waits, so the tests drive it key by key.

The buttons (issue 11): A and B move (A back, B on; held: five at a time), FOUL selects,
UNDO goes back. The menu opens on "Start" with the last settings, so a rematch is the press
that opens the setup and one FOUL.

Modes:
- ``menu``: the rows (Start, player A, player B, race, target, who breaks, each rule option,
  language). FOUL on Start starts the match; FOUL on another row edits it; UNDO closes the
  setup and changes nothing.
- ``value``: A/B step the row's value; FOUL keeps it; UNDO puts back the value it had.
- ``pick``: a player's name from the roster (the config's roster, then names used recently,
  most recent first) or "New name"; FOUL takes it; UNDO goes back to the menu.
- ``letters``: a new name, letter by letter from the uk, ru or en alphabet: A/B move along
  the letters and the signs at their end (space, delete, the next alphabet, done), FOUL
  types the one shown; UNDO deletes the last letter, and with none left goes back to the list.
"""

from dataclasses import dataclass, replace

from scoreboard.core.settings import (
    BREAKERS,
    LANGUAGES,
    NAME_LETTERS,
    OPTIONS,
    MatchSettings,
    SettingsError,
    name_problem,
)
from scoreboard.rules.setup import MAX_RACE
from scoreboard.rules.state import DEFAULT_TARGET

A, B, FOUL, UNDO = "A", "B", "foul", "undo"
BIG_STEP = 5  # a held A or B

# What each row edits; options follow as "option:<key>".
ROWS = ("start", "player-a", "player-b", "race", "target", "breaker")
ROWS = (*ROWS, *(f"option:{key}" for key in OPTIONS), "lang")

ALPHABETS = {
    "uk": "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ",
    "ru": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
    "en": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
}
# The signs after the letters: a space, a hyphen, an apostrophe (Ukrainian names), digits.
SIGNS = (" ", "-", "'", *"0123456789")
DELETE, NEXT_ALPHABET, DONE = "<delete>", "<alphabet>", "<done>"
CONTROLS = (DONE, DELETE, NEXT_ALPHABET)
NEW_NAME = "<new>"

# What FOUL/press asks of the app.
START, CLOSE = "start", "close"


def letters(alphabet: str) -> tuple[str, ...]:
    """The ring A/B move along in letter entry: the controls first (done is one press from
    the start), then the alphabet's letters, then the signs."""
    return (*CONTROLS, *ALPHABETS[alphabet], *SIGNS)


@dataclass(frozen=True)
class Draft:
    """The open setup screen: the settings being chosen and where the buttons are."""

    settings: MatchSettings
    roster: tuple[str, ...] = ()  # the names offered, in order (roster, then recent)
    mode: str = "menu"
    row: int = 0  # the menu row
    before: MatchSettings | None = None  # value mode: the settings UNDO puts back
    side: str = "A"  # pick and letters: whose name
    choice: int = 0  # pick: the name's position in `names()`
    typed: str = ""  # letters: the name so far
    alphabet: str = "uk"
    at: int = 0  # letters: the position in the ring

    # -- what is shown ---------------------------------------------------------------------------
    @property
    def current(self) -> str:
        return ROWS[self.row]

    def names(self) -> tuple[str, ...]:
        """The pick list: the player's name now, the roster without it, then New name."""
        mine = self.settings.players[0 if self.side == "A" else 1]
        rest = tuple(n for n in self.roster if n.casefold() != mine.casefold())
        return (mine, *rest, NEW_NAME)

    def ring(self) -> tuple[str, ...]:
        return letters(self.alphabet)

    def problem(self) -> str | None:
        """Why Start cannot start the match now (None: it can)."""
        a, b = self.settings.players
        return name_problem(b, a)

    def view(self) -> dict:
        """Plain data for the screens and the status JSON (docs/ARCHITECTURE.md)."""
        view = {
            "mode": self.mode,
            "row": self.current,
            "rows": list(ROWS),
            "settings": self.settings.to_dict(),
        }
        if self.mode in ("pick", "letters"):
            view["side"] = self.side
        if self.mode == "pick":
            view["names"] = list(self.names())
            view["choice"] = self.choice
        if self.mode == "letters":
            view.update(typed=self.typed, alphabet=self.alphabet, ring=list(self.ring()))
            view["at"] = self.at
        return view

    # -- kept across a power cut (store.py) ------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "settings": self.settings.to_dict(),
            "mode": self.mode,
            "row": self.current,
            "before": self.before.to_dict() if self.before else None,
            "side": self.side,
            "choice": self.choice,
            "typed": self.typed,
            "alphabet": self.alphabet,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, data: dict, roster: tuple[str, ...]) -> "Draft":
        """A draft kept before a power cut; anything that no longer fits starts at the menu."""
        settings = MatchSettings.from_dict(data["settings"])
        draft = cls(settings=settings, roster=roster)
        try:
            draft = replace(
                draft,
                mode=data["mode"] if data["mode"] in MODES else "menu",
                row=ROWS.index(data["row"]) if data["row"] in ROWS else 0,
                before=MatchSettings.from_dict(data["before"]) if data.get("before") else None,
                side=data["side"] if data["side"] in ("A", "B") else "A",
                choice=int(data["choice"]),
                typed=str(data["typed"])[:NAME_LETTERS],
                alphabet=data["alphabet"] if data["alphabet"] in ALPHABETS else "uk",
                at=int(data["at"]),
            )
        except (KeyError, ValueError, TypeError, SettingsError):
            return cls(settings=settings, roster=roster)
        if not 0 <= draft.choice < len(draft.names()) or not 0 <= draft.at < len(draft.ring()):
            return replace(draft, mode="menu", choice=0, at=0, typed="")
        if draft.mode == "value" and draft.before is None:
            return replace(draft, mode="menu")
        return draft


MODES = ("menu", "value", "pick", "letters")


def open_draft(settings: MatchSettings, roster: tuple[str, ...]) -> Draft:
    """The setup screen as it opens: the given settings (the last ones), on Start."""
    return Draft(settings=settings, roster=roster, alphabet=settings.lang)


def press(d: Draft, key: str, *, held: bool = False) -> tuple[Draft, str | None]:
    """The draft after `key` ("A", "B", "foul", "undo"; `held` for a long press) and what
    it asks for: START (the settings are ready), CLOSE (leave the setup), a hint key
    ("setup-same-name", "setup-name-full"), or None."""
    match d.mode:
        case "menu":
            return _menu(d, key, held)
        case "value":
            return _value(d, key, held)
        case "pick":
            return _pick(d, key, held)
        case "letters":
            return _letters(d, key, held)
    return d, None


def _step(held: bool) -> int:
    return BIG_STEP if held else 1


def _menu(d: Draft, key: str, held: bool) -> tuple[Draft, str | None]:
    if key in (A, B):
        move = -1 if key == A else 1
        return replace(d, row=(d.row + move) % len(ROWS)), None
    if key == UNDO:
        return d, CLOSE
    if key != FOUL:
        return d, None
    row = d.current
    if row == "start":
        return d, ("setup-same-name" if d.problem() else START)
    if row in ("player-a", "player-b"):
        return replace(d, mode="pick", side=row[-1].upper(), choice=0), None
    return replace(d, mode="value", before=d.settings), None


def _value(d: Draft, key: str, held: bool) -> tuple[Draft, str | None]:
    if key == FOUL:
        return replace(d, mode="menu", before=None), None
    if key == UNDO:
        return replace(d, mode="menu", settings=d.before or d.settings, before=None), None
    if key not in (A, B):
        return d, None
    move = (-1 if key == A else 1) * _step(held)
    s, row = d.settings, d.current
    if row == "race":
        s = replace(s, race=min(MAX_RACE, max(1, s.race + move)))
    elif row == "target":
        s = replace(s, target=min(DEFAULT_TARGET, max(1, s.target + move)))
    elif row == "breaker":
        s = replace(s, breaker=_cycle(BREAKERS, s.breaker, move))
    elif row == "lang":
        s = replace(s, lang=_cycle(LANGUAGES, s.lang, move))
    elif row.startswith("option:"):
        key_ = row.removeprefix("option:")
        value = _cycle(OPTIONS[key_], s.option(key_), move)
        s = replace(s, options=tuple((k, value if k == key_ else v) for k, v in s.options))
    return replace(d, settings=s), None


def _cycle(values: tuple, value, move: int):
    return values[(values.index(value) + move) % len(values)]


def _pick(d: Draft, key: str, held: bool) -> tuple[Draft, str | None]:
    names = d.names()
    if key in (A, B):
        move = (-1 if key == A else 1) * _step(held)
        return replace(d, choice=(d.choice + move) % len(names)), None
    if key == UNDO:
        return replace(d, mode="menu"), None
    if key != FOUL:
        return d, None
    name = names[d.choice]
    if name == NEW_NAME:
        return replace(d, mode="letters", typed="", at=0, alphabet=d.alphabet), None
    return _named(d, name)


def _named(d: Draft, name: str) -> tuple[Draft, str | None]:
    """The player's name chosen: back to the menu, unless the other player has it."""
    a, b = d.settings.players
    other = b if d.side == "A" else a
    if name_problem(name, other):
        return d, "setup-same-name"
    players = (name, b) if d.side == "A" else (a, name)
    return replace(d, mode="menu", settings=replace(d.settings, players=players)), None


def _letters(d: Draft, key: str, held: bool) -> tuple[Draft, str | None]:
    ring = d.ring()
    if key in (A, B):
        move = (-1 if key == A else 1) * _step(held)
        return replace(d, at=(d.at + move) % len(ring)), None
    if key == UNDO:
        if not d.typed:
            return replace(d, mode="pick"), None
        return replace(d, typed=d.typed[:-1]), None
    if key != FOUL:
        return d, None
    sign = ring[d.at]
    if sign == DONE:
        name = " ".join(d.typed.split())
        if not name:
            return replace(d, mode="pick"), None
        return _named(replace(d, typed=""), name)
    if sign == DELETE:
        return replace(d, typed=d.typed[:-1]), None
    if sign == NEXT_ALPHABET:
        alphabet = _cycle(tuple(ALPHABETS), d.alphabet, 1)
        return replace(d, alphabet=alphabet, at=min(d.at, len(letters(alphabet)) - 1)), None
    if len(d.typed) >= NAME_LETTERS:
        return d, "setup-name-full"
    if sign == " " and (not d.typed or d.typed.endswith(" ")):
        return d, None  # a name never starts with a space or holds two
    # A name's first letter, and each after a space or a hyphen, is a capital; the rest small.
    capital = not d.typed or d.typed[-1] in " -"
    return replace(d, typed=d.typed + (sign if capital else sign.lower())), None
