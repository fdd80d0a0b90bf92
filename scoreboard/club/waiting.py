"""Which of a tournament's ready games go to which tables now, and why each other one waits
(issue 34: a tournament that never stalls and always says why). Pure, over the hall's views
(club/hall.py), so the runner, the desk, the hall TV and the tests read one answer.

A game goes out when both its players are free and a table of the tournament is free
(club/free_table.py) and holds none of its games not played yet. A game that does not go
waits for a reason it can say, the first of:

- ``broker``: the club has lost the broker (nothing can be sent);
- ``player-busy``: a player of the game is still at another table's match ("Andrii still
  playing at table 2", or still confirming the result there);
- ``proposed``: the tournament is played on confirm, and the desk proposes it for a table;
- ``no-table``: no table of the tournament is online;
- ``free-table``: a table is free for it and it goes out at the next dispatch (a moment:
  the club's first seconds after connecting, while the tables' assigns come back);
- ``table-busy``: its one table online is busy ("table 3 busy: Oksana v Petro, 5:3");
- ``all-busy``: every table of the tournament online is busy (or has a fault).
"""

from dataclasses import dataclass

from scoreboard.club.free_table import CONFIRMING, PLAYING, free


@dataclass(frozen=True)
class Game:
    """A ready game of the tournament, not out at a table."""

    id: str
    players: tuple[str, str]


def plan(
    games: list[Game], views: list[dict], *, tables=None, taken=frozenset()
) -> list[tuple[str, str]]:
    """(table, game) for each game that can go now, in the games' order: both its players
    free, to the first free table of the tournament (`tables`; None: every table) that is not
    `taken` (holding one of its games not played yet)."""
    open_tables = [
        v["table"]
        for v in sorted(views, key=lambda v: v["table"])
        if ours(v, tables) and free(v) and v["table"] not in taken
    ]
    pairs = []
    at = held_players(views)
    for game in games:
        if open_tables and not away(game, at):
            pairs.append((open_tables.pop(0), game.id))
    return pairs


def held_players(views: list[dict]) -> dict[str, dict]:
    """The players a match holds at a table, by name (`key`): each online table whose match
    holds it (free_table.in_use), for each of its players; the first table in the views."""
    at: dict[str, dict] = {}
    for view in views:
        on = view.get("online") is not False and view.get("status") != "offline"
        if on and view.get("busy"):
            for name in (view.get("players") or {}).values():
                at.setdefault(key(name), view)
    return at


def away(game: Game, at: dict[str, dict]) -> list[tuple[str, dict]]:
    """(player, the table's view) for each player of `game` held by a match at a table
    (`at`: held_players of the hall's views)."""
    return [(p, at[key(p)]) for p in game.players if key(p) in at]


def tables_now(
    views: list[dict], *, tables=None, taken: dict | None = None, proposed: dict | None = None
) -> list[dict]:
    """The tournament's tables online, each `{"table", "name", "free", "holds", "text"}`:
    free for a game of it, the game of it it holds (not played yet; None), and what keeps it
    in words (None when free). `taken`: table -> game out there; `proposed`: table -> game."""
    taken, proposed = taken or {}, proposed or {}
    out = []
    for view in sorted(views, key=lambda v: v["table"]):
        if not ours(view, tables) or not view.get("online") or view.get("status") == "offline":
            continue
        table = view["table"]
        holds = taken.get(table)
        text = table_words(view)
        if text is None and holds is not None:
            text = f"{name_of(view)} holds {holds}, not started yet"
        if text is None and table in proposed:
            text = f"{name_of(view)} proposed for {proposed[table]}"
        if text is None and not free(view):
            text = f"{name_of(view)} has a fault: {', '.join(view.get('faults') or ['?'])}"
        out.append(
            {
                "table": table,
                "name": name_of(view),
                "free": text is None,
                "holds": holds,
                "text": text,
            }
        )
    return out


def reasons(
    games: list[Game],
    views: list[dict],
    *,
    tables=None,
    taken: dict | None = None,
    proposed: dict | None = None,
    linked: bool = True,
    now: list[dict] | None = None,
) -> list[dict]:
    """Why each game waits, in the games' order: `{"game", "players", "why", "text",
    "table"}` (`table`: the one table the words name, else None). `taken`: table -> this
    tournament's game out there; `proposed`: table -> the game the desk proposes for it;
    `now`: tables_now of the same, if the caller has it."""
    proposed = proposed or {}
    if now is None:
        now = tables_now(views, tables=tables, taken=taken, proposed=proposed)
    for_game = {game: table for table, game in proposed.items()}
    names = {v["table"]: name_of(v) for v in views}
    at = held_players(views)
    out = []
    for game in games:
        why, text, table = _why(game, at, now, for_game.get(game.id), names, linked)
        out.append(
            {
                "game": game.id,
                "players": list(game.players),
                "why": why,
                "text": text,
                "table": table,
            }
        )
    return out


def _why(game: Game, at, now, proposed_table, names, linked) -> tuple[str, str, str | None]:
    if not linked:
        return "broker", "the club has lost the broker: games go out when it is back", None
    held = away(game, at)
    if held:
        words = [
            f"{player} still at {name_of(view)}, confirming the result"
            if view.get("busy") == CONFIRMING
            else f"{player} still playing at {name_of(view)}"
            for player, view in held
        ]
        return "player-busy", "; ".join(words), held[0][1]["table"]
    if proposed_table is not None:
        name = names.get(proposed_table, proposed_table)
        return "proposed", f"proposed for {name}: the staff send it", proposed_table
    if not now:
        return "no-table", "no table online", None
    free_now = [t for t in now if t["free"]]
    if free_now:
        return "free-table", f"{free_now[0]['name']} is free: it goes out now", free_now[0]["table"]
    if len(now) == 1:
        return "table-busy", now[0]["text"], now[0]["table"]
    return "all-busy", "all tables busy", None


def table_words(view: dict) -> str | None:
    """What a table's match is doing, in words, if it holds the table: "table 3 busy: Oksana
    v Petro, 5:3" (and the frames in a longer race), "table 3: Oksana v Petro confirming the
    result"; None when its match does not hold it."""
    busy = view.get("busy")
    if busy not in (PLAYING, CONFIRMING):
        return None
    players = view.get("players") or {}
    who = f"{players.get('A', '?')} v {players.get('B', '?')}"
    if busy == CONFIRMING:
        return f"{name_of(view)}: {who} confirming the result"
    score, frames = view.get("score") or {}, view.get("frames") or {}
    text = f"{name_of(view)} busy: {who}, {score.get('A', 0)}:{score.get('B', 0)}"
    if (view.get("race") or 1) > 1:
        text += f", frames {frames.get('A', 0)}:{frames.get('B', 0)}"
    return text


def ours(view: dict, tables) -> bool:
    return tables is None or view["table"] in tables


def name_of(view: dict) -> str:
    return view.get("name") or view["table"]


def key(name) -> str:
    """A player's name as the club and the tables both write it: a table's match log writes a
    space as `_`, and the club keeps one player per name whatever its case."""
    return str(name).replace("_", " ").casefold()


def same_name(a, b) -> bool:
    return key(a) == key(b)
