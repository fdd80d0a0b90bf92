"""A tournament played on the tables by themselves (issue 22): each game that is ready goes to
a free table as the club's assign; the table's own result, which carries the assign's id,
moves the bracket on, and the next games go out.

An assign's id names the tournament and its game, ``T<tournament>-<game>`` (``T3-W1-2``): the
runner keeps nothing of its own. What is in play is what the tables' retained assigns say
(the hall has them again after a restart of the club or the broker), what is decided is in
the database (scoreboard/clubdb/), so a restart goes on where it was and a result that
arrives twice (MQTT delivers at least once) is the same result again.

Which game goes to which table, and why each other ready game waits, is club/waiting.py's
(pure): a game goes when both its players are free and a table of the tournament is free
(club/free_table.py: online, no fault, nothing of its match played or its result closed) and
holds no game of this tournament that has no result yet. The runner's `assign(table,
settings, id)` publishes the club's assign.
"""

import logging
import re
from collections.abc import Callable

from scoreboard.club import waiting
from scoreboard.club.waiting import Game
from scoreboard.clubdb import tournaments
from scoreboard.clubdb.tournaments import TournamentError
from scoreboard.desk.bracket import PENDING
from scoreboard.desk.stages import race_for

LOGGER = logging.getLogger("scoreboard.club")
ASSIGN = re.compile(r"^T(\d+)-([WLGF][0-9FR]*(?:-\d+)?)$")  # desk/bracket.py, desk/groups.py ids


def assign_id(tournament_id: int, game: str) -> str:
    return f"T{tournament_id}-{game}"


def parse_assign_id(value) -> tuple[int, str] | None:
    """(tournament, game) of an assign id the runner made, else None."""
    found = ASSIGN.match(value) if isinstance(value, str) else None
    return (int(found.group(1)), found.group(2)) if found else None


class TournamentRunner:
    """`views()`: the hall's tables (club/hall.py views); `assign(table, settings, id)`
    publishes an assign (None settings: clears the table's); `tables`: the tables the tournament plays on (None: all)."""

    def __init__(
        self,
        engine,
        tournament_id: int,
        *,
        views: Callable[[], list[dict]],
        assign: Callable[[str, dict | None, str], None],
        tables: list[str] | None = None,
        confirm: bool = False,
    ) -> None:
        self.engine, self.id = engine, tournament_id
        self.views, self.assign = views, assign
        self.tables = tables
        # What this runner sent, until the broker's copy is in the hall's views: a game is
        # never sent twice because two tables changed before the first assign came back.
        self.sent: dict[str, str] = {}  # game -> table
        self.over = False  # the champion is known (as of the last dispatch)
        # Played on confirm (the tournament's "dispatch": "confirm"): the (table, game) pairs
        # dispatch() would send, for staff to send (club/tournament_staff.py); none go alone.
        self.confirm = confirm
        self.proposed: list[tuple[str, str]] = []
        # The bracket as of the last look (club/waiting.py reads it between dispatches, as
        # the tables change): its ready games, in order, and the games decided.
        self.ready: list[Game] = []
        self.decided: set[str] = set()

    # -- a table's result ---------------------------------------------------------------------
    def result(self, result: dict) -> bool:
        """Record a table's result if it was for one of this tournament's games; whether it
        was (and taken). A result the bracket cannot take is said in the log, not kept."""
        parsed = parse_assign_id(result.get("assign"))
        if parsed is None or parsed[0] != self.id or not result.get("finished"):
            return False
        game = parsed[1]
        t = tournaments.load(self.engine, self.id)
        if game not in t.bracket.by_id:
            return False
        sides = t.bracket.sides(game)
        side = result.get("winner")
        if side not in ("A", "B"):
            return False
        frames = result.get("frames") or {}
        winner = sides[0] if side == "A" else sides[1]
        score = (frames.get("A", 0), frames.get("B", 0))
        kept = t.bracket.results.get(game)
        if kept is not None:
            if kept.winner != winner or kept.frames != score:  # a table's later match: not this
                LOGGER.warning(
                    "club: %s sent another result for %s, played already: not taken (the "
                    "staff correct a result)",
                    result.get("table"),
                    game,
                )
            return kept.winner == winner and kept.frames == score  # the same again: taken
        named = [p.replace("_", " ") for p in (result.get("players") or {}).values()]
        if named and named != [str(p).replace("_", " ") for p in sides]:
            LOGGER.warning(
                "club: %s's result for %s names other players: not taken", result.get("table"), game
            )
            return False
        if not self._assigned_to(game, result.get("table")):
            LOGGER.warning(
                "club: %s sent a result for %s, which it was not given: not taken",
                result.get("table"),
                game,
            )
            return False
        try:
            tournaments.record(
                self.engine,
                self.id,
                game,
                winner,
                frames=score,
                table=result.get("table"),
                by=f"table {result.get('table')}",
                expect=None,  # a staff's walkover or result at the same moment came first
            )
        except TournamentError as exc:
            LOGGER.warning("club: %s's result for %s not taken: %s", result.get("table"), game, exc)
            return False
        self.sent.pop(game, None)  # played: its table is free for another
        return True

    def _assigned_to(self, game: str, table) -> bool:
        """Whether `table` was given `game`: the runner sent it there, or the table's retained
        assign says so (after a restart of the club). The table's name comes from the topic
        its result came on, which the broker's ACL lets only that table write."""
        return self.sent.get(game) == table or held(self.views()).get(table) == (self.id, game)

    def at_tables(self, decided, views: list[dict] | None = None) -> dict[str, str]:
        """The games of this tournament out and not decided yet, by game: the table each
        is at (what the tables' assigns say, and what this runner sent since)."""
        views = self.views() if views is None else views
        out = {g: t for t, (tid, g) in held(views).items() if tid == self.id}
        out |= self.sent
        return {game: table for game, table in out.items() if game not in decided}

    def next_for(self, player: str) -> dict | None:
        """The game of this tournament `player` plays next (not decided yet), or None: its
        id, round, the opponent (None: not known yet), and the table it is at (None: none
        yet). A player is in one such game at a time."""
        t = tournaments.load(self.engine, self.id)
        b = t.bracket
        at = self.at_tables(b.results)
        for game in b.games:
            sides = b.sides(game.id)
            if player not in sides or b.outcome(game.id) is not PENDING:
                continue  # not theirs, or decided (played, a bye, a final not needed)
            other = sides[1] if sides[0] == player else sides[0]
            return {
                "tournament": self.id,
                "tournament_name": t.name,
                "game": game.id,
                "stage": game.stage,
                "round": game.round,
                "opponent": other if isinstance(other, str) else None,
                "table": at.get(game.id),
            }
        return None

    # -- the next games -----------------------------------------------------------------------
    def look(self, t=None):
        """The tournament (loaded, or `t` as just loaded) as the runner sees it between
        dispatches: its ready games, the games decided, whether it is over. Returns it."""
        t = tournaments.load(self.engine, self.id) if t is None else t
        b = t.bracket
        self.over = b.done()
        self.decided = set(b.results)
        self.ready = [Game(g.id, tuple(b.sides(g.id))) for g in b.ready()]
        return t

    def dispatch(self) -> list[tuple[str, str]]:
        """Send each ready game not yet out to a free table, in the bracket's order, when both
        its players are free (club/waiting.py); the (table, game) pairs sent. `over` says
        whether the tournament has its champion."""
        t = self.look()
        views = self.views()
        out = self.at_tables(self.decided, views)  # sent, not played yet: those tables are taken
        games = [g for g in self.ready if g.id not in out]
        pairs = waiting.plan(games, views, tables=self.tables, taken=set(out.values()))
        if self.confirm:
            self.proposed = pairs
            return []
        for table, game in pairs:
            self._send(t, game, table)
        return pairs

    def why(self, *, linked: bool = True) -> dict:
        """Why each ready game not out waits (club/waiting.py), as of the last look and the
        tables now: `{"waiting": [reason, ...], "tables": [the tournament's tables, ...]}`."""
        views = self.views()
        out = self.at_tables(self.decided, views)
        games = [g for g in self.ready if g.id not in out]
        taken = {table: game for game, table in out.items()}
        proposed = dict(self.proposed) if self.confirm else {}
        kw = {"tables": self.tables, "taken": taken, "proposed": proposed}
        now = waiting.tables_now(views, **kw)
        return {
            "waiting": waiting.reasons(games, views, linked=linked, now=now, **kw),
            "tables": now,
        }

    def send(self, game: str, table: str) -> None:
        """A proposed game sent, to `table` (the staff's checks done)."""
        self._send(tournaments.load(self.engine, self.id), game, table)
        self.proposed = [(tb, g) for tb, g in self.proposed if g != game and tb != table]

    def _send(self, t, game: str, table: str) -> None:
        a, b = t.bracket.sides(game)
        race = race_for(t.settings.get("race", 1), t.bracket.by_id[game], t.bracket.games)
        settings = {"players": [a, b], "race": race, "breaker": "lag"}  # GR-8: a lag decides
        settings |= {k: t.settings[k] for k in ("target", "options") if k in t.settings}
        self.assign(table, settings, assign_id(self.id, game))
        self.sent[game] = table

    # -- the staff's -------------------------------------------------------------------------
    def withdraw(self, game: str) -> str | None:
        """`game` is no longer to be played where it was sent (staff gave it as a walkover or
        moved it): that table's assign cleared (an empty retained assign); the table, or None."""
        table = self.at_tables({}).get(game)
        if table is not None:
            self.assign(table, None, "")
        self.sent.pop(game, None)
        return table

    def move(self, game: str, table: str) -> str | None:
        """`game` to `table` instead of where it was (the staff's checks done: club/
        tournament_staff.py); the table it left, or None."""
        left = self.withdraw(game)
        self._send(tournaments.load(self.engine, self.id), game, table)
        return left


def held(views: list[dict]) -> dict[str, tuple[int, str]]:
    """The tournament game each table's retained assign names, by table (the hall's views);
    tables holding no tournament's game are left out."""
    out = {}
    for view in views:
        parsed = parse_assign_id((view.get("assign") or {}).get("id"))
        if parsed is not None:
            out[view["table"]] = parsed
    return out
