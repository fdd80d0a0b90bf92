"""A new tournament's body as staff send it (POST /api/tournaments, issue 22), checked field
by field before anything is written: each problem is a 400 that names the field and says why.

    {"name": "Friday cup", "format": "single" | "double" | "round_robin" | "groups",
     "groups": 2, "qualify": 2, "knockout": "single" (round_robin: groups; groups: all),
     "players": [ids],
     "race": 2 | {"*": 2, "L": 2, "final": 3, "W3": 3}, "target": 8,
     "options": {"penalty": "ball", "jumped-ball": "foul"}, "tables": ["t1", "t2"],
     "draw_seed": 42, "dispatch": "auto" | "confirm"}

`race` per stage: the most specific key that fits a game wins (desk/stages.py race_for).
Whether the players exist and are not merged is the database's to say (clubdb/tournaments.py
create), which the desk endpoint reports as a 400 on `players` too."""

from aiohttp import web

from scoreboard.core.settings import OPTIONS
from scoreboard.desk.bracket import DOUBLE, SINGLE
from scoreboard.desk.formats import FORMATS
from scoreboard.desk.groups import GROUPS, ROUND_ROBIN
from scoreboard.desk.stages import RACE_KEY
from scoreboard.mqtt.topics import TABLE_ID
from scoreboard.rules.setup import MAX_RACE
from scoreboard.rules.state import DEFAULT_TARGET

KEYS = (
    "name",
    "format",
    "players",
    "race",
    "target",
    "options",
    "tables",
    "draw_seed",
    "dispatch",
)
DISPATCH = ("auto", "confirm")  # each ready game sent by itself, or proposed to staff
GROUP_KEYS = ("groups", "qualify", "knockout")  # round_robin: groups; groups: all three
NAME_LENGTH = 120  # clubdb/schema.py tournaments.name
PLAYERS = (2, 128)
TABLES = 50


def bad(field: str, why: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=f"{field}: {why}")


def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse(body: dict) -> dict:
    """`{"name", "format", "players", "settings", "draw_seed"}` from a checked body; a 400 for
    the first field that is wrong."""
    if unknown := sorted(set(body) - set(KEYS) - set(GROUP_KEYS)):
        raise bad(unknown[0], f"not a tournament's field (known: {', '.join(KEYS)})")
    name = body.get("name", "Tournament")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
        raise bad("name", f"a text of 1 to {NAME_LENGTH} letters")
    format = body.get("format", SINGLE)
    if format not in FORMATS:
        raise bad("format", f"one of {', '.join(FORMATS)}, not {format!r}")
    players = body.get("players")
    if not isinstance(players, list) or not all(_int(p) for p in players):
        raise bad("players", "a list of the players' ids (numbers)")
    if len(set(players)) != len(players):
        twice = next(p for p in players if players.count(p) > 1)
        raise bad("players", f"player {twice} is entered twice")
    if not PLAYERS[0] <= len(players) <= PLAYERS[1]:
        raise bad("players", f"{PLAYERS[0]} to {PLAYERS[1]} players, not {len(players)}")
    settings: dict = {"race": _race(body.get("race", 1))} | _groups(body, format, len(players))
    if "target" in body:
        target = body["target"]
        if not _int(target) or not 1 <= target <= DEFAULT_TARGET:
            raise bad("target", f"a whole number of points, 1 to {DEFAULT_TARGET}")
        settings["target"] = target
    if "options" in body:
        settings["options"] = _options(body["options"])
    if "tables" in body:
        tables = body["tables"]
        if (
            not isinstance(tables, list)
            or not 1 <= len(tables) <= TABLES
            or not all(isinstance(t, str) and TABLE_ID.match(t) for t in tables)
        ):
            raise bad("tables", f"a list of 1 to {TABLES} table ids (letters, digits, - or _)")
        if len(set(tables)) != len(tables):
            raise bad("tables", "a table is listed twice")
        settings["tables"] = tables
    if "dispatch" in body:
        if body["dispatch"] not in DISPATCH:
            raise bad("dispatch", f"one of {', '.join(DISPATCH)}, not {body['dispatch']!r}")
        settings["dispatch"] = body["dispatch"]
    seed = body.get("draw_seed")
    if seed is not None and not (_int(seed) and 0 <= seed < 2**31):
        raise bad("draw_seed", "a whole number from 0 to 2147483647, or left out (by rating)")
    return {
        "name": name.strip(),
        "format": format,
        "players": players,
        "settings": settings,
        "draw_seed": seed,
    }


def _groups(body: dict, format: str, players: int) -> dict:
    """The groups' settings of a round robin or groups-then-knockout (desk/formats.py)."""
    allowed = {ROUND_ROBIN: ("groups",), GROUPS: GROUP_KEYS}.get(format, ())
    if extra := [k for k in GROUP_KEYS if k in body and k not in allowed]:
        raise bad(extra[0], f"not a setting of the {format} format")
    out = {k: body[k] for k in allowed if k in body}
    groups = out.get("groups", 1 if format == ROUND_ROBIN else 2)
    if "groups" in out and not (_int(groups) and 1 <= groups <= players // 2):
        raise bad("groups", f"1 to {players // 2} groups of two or more players")
    if "qualify" in out:
        qualify = out["qualify"]
        smallest = players // groups
        if not (_int(qualify) and 1 <= qualify <= smallest and groups * qualify >= 2):
            raise bad("qualify", f"1 to {smallest} from each group, two in all at least")
    if "knockout" in out and out["knockout"] not in (SINGLE, DOUBLE):
        raise bad("knockout", f"{SINGLE} or {DOUBLE}, not {out['knockout']!r}")
    return out


def _race(value):
    def one(key: str, race) -> int:
        if not _int(race) or not 1 <= race <= MAX_RACE:
            raise bad(key, f"a whole number of frames, 1 to {MAX_RACE}, not {race!r}")
        return race

    if not isinstance(value, dict):
        return one("race", value)
    if not value:
        raise bad("race", 'a number, or an object of races by stage (e.g. {"*": 2, "final": 3})')
    for key, race in value.items():
        if not RACE_KEY.match(key):
            raise bad(
                "race",
                f"{key!r} is not a stage: '*' (every game), 'final', W, L, F or G (a stage), "
                "or a stage and its round (W3)",
            )
        one(f"race {key}", race)
    return dict(value)


def _options(value) -> dict:
    if not isinstance(value, dict):
        raise bad("options", 'an object, e.g. {"jumped-ball": "spot"}')
    for key, option in value.items():
        if key not in OPTIONS:
            raise bad("options", f"unknown option {key!r} (known: {', '.join(OPTIONS)})")
        if option not in OPTIONS[key]:
            raise bad("options", f"{key} is one of {', '.join(OPTIONS[key])}, not {option!r}")
    return dict(value)
