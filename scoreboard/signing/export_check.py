"""A club's export checked again, anywhere (issue 34, `scoreboard verify`): every signed result
in it against the tables' public keys, and every field the export claims against the signed
result it rests on, so a score changed in the export is found as surely as one changed in the
signed result.

Two exports carry signed results (docs/API.md): a tournament's, `{"games": [{"id", "players",
"winner", "frames", "table", "match_id", "started", "ended", "log", "provenance", "result"},
...]}`, and a day's results, `{"results": [{"provenance", "result"}, ...]}`. A game the staff
entered carries no signed result: it is said so, as nothing to verify, never as verified.
"""

from dataclasses import dataclass, field

from scoreboard.signing import provenance, signature

LOG_KEYS = ("frame_scores", "frame_times", "last_frame", "fouls", "longest_run")


class ExportError(ValueError):
    """Not an export this check knows: the message says what it expected."""


@dataclass
class Checked:
    """One entry of the export: what it is, what it says of itself, and what is wrong (none:
    it verifies, or it is not signed and does not claim to be)."""

    label: str
    provenance: str | None
    signed: bool
    problems: list[str] = field(default_factory=list)


def read_keys(text: str) -> dict[str, set[str]]:
    """`TABLE KEY` a line (the club's /table-keys.txt; `#` starts a comment): each table's
    keys. ExportError for a line of another form."""
    keys: dict[str, set[str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) != 2:
            raise ExportError(f"line {n}: `TABLE KEY`, not {line.strip()!r}")
        keys.setdefault(words[0], set()).add(words[1])
    return keys


def check(exported, keys: dict[str, set[str]] | None = None) -> list[Checked]:
    """Every entry of a tournament's or a day's export, checked; `keys`: each table's public
    keys (None: each result against the key it names, which proves only that it was not
    changed since that key signed it)."""
    if isinstance(exported, dict) and isinstance(exported.get("games"), list):
        return [_game(g, keys) for g in exported["games"] if _decided(g)]
    if isinstance(exported, dict) and isinstance(exported.get("results"), list):
        return [_day_result(n, entry, keys) for n, entry in enumerate(exported["results"], 1)]
    raise ExportError(
        "not a club's export: a tournament's (/api/tournaments/<id>/export.json) has "
        '"games", a day\'s results (/results.json) "results"'
    )


def _decided(game) -> bool:
    """A game with a result, or that says it has one (a game not played yet, or a bye, has
    neither a winner nor a provenance)."""
    return isinstance(game, dict) and any(
        game.get(k) is not None for k in ("winner", "provenance", "result")
    )


def _signed_result(result, keys) -> list[str]:
    """What is wrong with a signed result's signature and key (nothing: it verifies)."""
    why = signature.check(result)
    if why is not None:
        return [why]
    if keys is None:
        return []
    table = result.get("table")
    if result["key"] not in keys.get(table, ()):
        given = "no key" if table not in keys else "another key"
        return [f"signed by a key not given for table {table} (the keys file has {given})"]
    return []


def _day_result(n: int, entry, keys) -> Checked:
    result = entry.get("result") if isinstance(entry, dict) else None
    said = entry.get("provenance") if isinstance(entry, dict) else None
    if not isinstance(result, dict):
        return Checked(f"result {n}", said, False, ["carries no result"])
    label = f"{result.get('table')} {result.get('match_id')}"
    checked = Checked(label, said, True, _signed_result(result, keys))
    if said != provenance.of_result(result):
        checked.problems.append(
            f"says {said!r}, the signed result {provenance.of_result(result)!r}"
        )
    return checked


def _game(game: dict, keys) -> Checked:
    label, said, result = str(game.get("id")), game.get("provenance"), game.get("result")
    if result is None:
        if isinstance(said, str) and said.startswith("entered by "):
            return Checked(label, said, False)  # the staff's: nothing the table signed
        return Checked(label, said, False, [f"says {said!r} but carries no signed result"])
    if not isinstance(result, dict):
        return Checked(label, said, True, ["its result is not a result"])
    checked = Checked(f"{label} ({result.get('table')}, {result.get('match_id')})", said, True)
    checked.problems += _signed_result(result, keys)
    checked.problems += _claims(game, result)
    return checked


def _claims(game: dict, result: dict) -> list[str]:
    """Each field of the game that is not what the signed result says."""
    names = result.get("players") or {}
    sides = [_name(names.get("A")), _name(names.get("B"))]
    frames = result.get("frames") or {}
    winner = result.get("winner")
    signed = {
        "players": sides,
        "winner": sides[0 if winner == "A" else 1] if winner in ("A", "B") else None,
        "frames": [frames.get("A"), frames.get("B")],
        "table": result.get("table"),
        "match_id": result.get("match_id"),
        "started": result.get("first_shot") or result.get("started"),
        "ended": result.get("ended"),
        "log": {k: result[k] for k in LOG_KEYS if k in result} or None,
        "provenance": provenance.of_result(result),
    }
    claimed = {**game, "players": [_name(p) for p in game.get("players") or []]}
    claimed["winner"] = _name(game.get("winner"))
    return [
        f"{key} in the export {_show(claimed.get(key))}, signed {_show(value)}"
        for key, value in signed.items()
        if claimed.get(key) != value
    ]


def _name(name):
    """A player's name as the tournament has it (a table's match log writes a space as `_`)."""
    return name.replace("_", " ") if isinstance(name, str) else name


def _show(value) -> str:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}:{value[1]}"
    return repr(value)
