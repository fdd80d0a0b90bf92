"""What a match starts with: players, race, target, rule options, language and who breaks.

One frozen record used by the setup screen, the `SetupNext` command, the state file that
keeps the last settings (`store.py`) and the journal: `lines()` are the match's setup lines
(docs/ARCHITECTURE.md "Next-match settings").
"""

import re
from dataclasses import dataclass, field
from typing import Any

from scoreboard.rules.events import JumpedBall, PenaltyRule
from scoreboard.rules.setup import MAX_RACE, hidden_characters
from scoreboard.rules.state import DEFAULT_TARGET

LANGUAGES = ("uk", "ru", "en")
BREAKERS = ("lag", "A", "B")  # GR-8: decided by the lag at the table, or chosen beforehand
# A player's name, the one limit everywhere a name comes in: the setup screen, the config,
# a phone's or the club's settings, the roster (shown whole on every display).
NAME_LETTERS = 12

# The rule options a match can set, each with its values, the default first. A new option
# (a rule profile) is one more entry here and one more `option key=value` the match log reads.
OPTIONS: dict[str, tuple[str, ...]] = {
    "jumped-ball": tuple(map(str, JumpedBall)),  # D-4: foul, spot
    "penalty": tuple(map(str, PenaltyRule)),  # FP-6/FP-7 ball, or CV-1 the "American" penalty
}
LANG_COMMENT = "# setup lang="  # the match's display language, a comment in its setup record
# The club's assign a match was set up for (issue 22), a comment in its setup record: its result
# carries it back, and the club's tournament moves on.
ASSIGN_COMMENT = "# setup for="
ASSIGN_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")  # as the club's assign ids (mqtt/topics.py)


class SettingsError(ValueError):
    """Settings that cannot start a match; the message says which and why."""


@dataclass(frozen=True)
class MatchSettings:
    players: tuple[str, str] = ("Гравець 1", "Гравець 2")
    race: int = 1
    target: int = DEFAULT_TARGET
    options: tuple[tuple[str, str], ...] = field(
        default_factory=lambda: tuple((key, values[0]) for key, values in OPTIONS.items())
    )
    lang: str = "uk"
    breaker: str = "lag"
    assign: str = ""  # the club's assign these settings came with ("": none)

    def __post_init__(self) -> None:
        check(self)

    # -- as the journal writes them ----------------------------------------------------------
    def lines(self) -> list[str]:
        """The match's setup lines, without the "# match started" comment: the language,
        players, race, target, each option, and `break X` when the breaker was chosen."""
        a, b = (log_name(name) for name in self.players)
        lines = [f"{LANG_COMMENT}{self.lang}", f"players {a} {b}", f"race {self.race}"]
        lines.append(f"target {self.target}")
        lines += [f"option {key}={value}" for key, value in self.options]
        if self.breaker in ("A", "B"):
            lines.append(f"break {self.breaker}")
        if self.assign:
            lines.append(f"{ASSIGN_COMMENT}{self.assign}")
        return lines

    def option(self, key: str) -> str:
        return dict(self.options)[key]

    # -- as JSON (the local socket, MQTT, the state file) -------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "race": self.race,
            "target": self.target,
            "options": dict(self.options),
            "lang": self.lang,
            "breaker": self.breaker,
        } | ({"assign": self.assign} if self.assign else {})

    @classmethod
    def from_dict(cls, data: dict, *, defaults: "MatchSettings | None" = None) -> "MatchSettings":
        """Settings from a payload; a key it leaves out keeps its value in `defaults` (the
        last settings). Unknown keys, wrong types and bad values raise SettingsError."""
        if not isinstance(data, dict):
            raise SettingsError("settings must be a JSON object")
        unknown = set(data) - set(FIELDS)
        if unknown:
            raise SettingsError(
                f"unknown setting {sorted(unknown)[0]!r} (known: {', '.join(FIELDS)})"
            )
        base = (defaults or cls()).to_dict()
        merged = {**base, **data}
        players = merged["players"]
        if (
            not isinstance(players, list | tuple)
            or len(players) != 2
            or not all(isinstance(p, str) for p in players)
        ):
            raise SettingsError('players must be two names, e.g. ["Olena", "Taras"]')
        for key in ("race", "target"):
            if not _is_int(merged[key]):
                raise SettingsError(f"{key} must be a whole number, not {merged[key]!r}")
        options = merged["options"]
        if not isinstance(options, dict):
            raise SettingsError('options must be an object, e.g. {"jumped-ball": "spot"}')
        given = {**dict(defaults.options if defaults else cls().options), **options}
        return cls(
            players=(clean_name(players[0]), clean_name(players[1])),
            race=merged["race"],
            target=merged["target"],
            options=tuple((key, given.get(key)) for key in OPTIONS) + _unknown(options),
            lang=merged["lang"],
            breaker=merged["breaker"],
            assign=data.get("assign", ""),  # the command's own, never the last settings'
        )


FIELDS = ("players", "race", "target", "options", "lang", "breaker", "assign")


def _unknown(options: dict) -> tuple:
    """Options the table does not know, kept so that check() names them."""
    return tuple((k, v) for k, v in options.items() if k not in OPTIONS)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def clean_name(name: str) -> str:
    """A name as typed or sent: runs of spaces become one, none at either end."""
    return " ".join(str(name).split())


def log_name(name: str) -> str:
    """A name as one word of the match log: spaces become underscores (shown as spaces)."""
    return "_".join(name.split())


def name_problem(name: str, other: str | None = None) -> str | None:
    """Why `name` cannot be a player's name (None: it can)."""
    if not name:
        return "a player's name cannot be empty"
    if len(name) > NAME_LETTERS:
        return f"a player's name is at most {NAME_LETTERS} letters: {name!r}"
    if "#" in name or "=" in name:
        return f"a player's name has no '#' or '=': {name!r}"
    if hidden_characters(name) or not name.isprintable():
        return f"a player's name has no control or format characters: {name!r}"
    if other is not None and log_name(name).casefold() == log_name(other).casefold():
        return f"the two players need different names, not {name!r} twice"
    return None


def check(s: MatchSettings) -> None:
    """Raise SettingsError unless `s` can start a match (the rules would take its lines)."""
    if len(s.players) != 2:
        raise SettingsError("players must be two names")
    a, b = s.players
    for problem in (name_problem(a), name_problem(b, a)):
        if problem:
            raise SettingsError(problem)
    if not _is_int(s.race) or not 1 <= s.race <= MAX_RACE:
        raise SettingsError(f"race is 1 to {MAX_RACE} frames, not {s.race!r}")
    if not _is_int(s.target) or not 1 <= s.target <= DEFAULT_TARGET:
        raise SettingsError(f"target is 1 to {DEFAULT_TARGET} points, not {s.target!r}")
    keys = [key for key, _ in s.options]
    if sorted(keys) != sorted(OPTIONS) or len(set(keys)) != len(keys):
        extra = sorted(set(keys) - set(OPTIONS))
        if extra:
            raise SettingsError(f"unknown option {extra[0]!r} (known: {', '.join(OPTIONS)})")
        raise SettingsError(f"options must give each of {', '.join(OPTIONS)} once")
    for key, value in s.options:
        if value not in OPTIONS[key]:
            raise SettingsError(f"option {key} is one of {', '.join(OPTIONS[key])}, not {value!r}")
    if s.lang not in LANGUAGES:
        raise SettingsError(f"lang is one of {', '.join(LANGUAGES)}, not {s.lang!r}")
    if s.breaker not in BREAKERS:
        raise SettingsError(f"breaker is one of {', '.join(BREAKERS)}, not {s.breaker!r}")
    if s.assign != "" and not (isinstance(s.assign, str) and ASSIGN_ID.match(s.assign)):
        raise SettingsError(f"assign is an id of letters, digits, '-' or '_', not {s.assign!r}")


def from_config(config) -> MatchSettings:
    """The settings the config gives a new match (scoreboard.config.Config)."""
    m = config.match
    return MatchSettings(
        players=(clean_name(m.player_a), clean_name(m.player_b)),
        race=m.race,
        target=m.target,
        options=tuple((key, getattr(config.rules, key.replace("-", "_"))) for key in OPTIONS),
        lang=config.display.language,
    )


def lang_of(lines) -> str | None:
    """The language a journal's setup record chose (its last `# setup lang=`), or None."""
    found = None
    for line in lines:
        if line.startswith(LANG_COMMENT):
            value = line[len(LANG_COMMENT) :].strip()
            found = value if value in LANGUAGES else found
    return found


def assign_of(lines) -> str | None:
    """The club's assign a journal's match was set up for (its last `# setup for=`), or None
    (none, or cleared by an empty one: the match was set up again without it)."""
    found = None
    for line in lines:
        if line.startswith(ASSIGN_COMMENT):
            value = line[len(ASSIGN_COMMENT) :].strip()
            found = value if ASSIGN_ID.match(value) else None  # empty: cleared
    return found
