"""The staff's hand on a tournament's games (issue 22), each a staff write (the staff password
and the club's own page, as every staff write):

- ``POST /api/tournaments/<id>/games/<game>/walkover`` ``{"winner": name, "by": who}``: a game
  that cannot start (a player missing) given to `winner`, not played; its table's assign is
  cleared;
- ``POST …/move`` ``{"table": id, "by": who}``: a game that cannot start where it was sent goes
  to another table; the old table's assign is cleared, the new one gets it;
- ``POST …/send`` ``{"table": id, "by": who}``: a game that waits for a table sent to `table`
  at once (issue 34), or, in a tournament played with ``"dispatch": "confirm"``, to the
  table the desk proposed for it;
- ``POST …/result`` ``{"winner": name, "frames": [a, b], "by": who}``: a result entered or
  corrected at the desk; 409 when later games took a player from it and were played.

Each result and walkover is recorded with who (`by`: the staff member's name, else "staff")
and when (clubdb's corrections); a move or a send is said in the club's log with who. A game in
play at its table is the table's to finish: 409, never taken from it.

A move or a send names a table that is online, one of the tournament's, holding none of its
games not played yet. A table whose match holds it (club/free_table.py: a shot entered, or a
result being confirmed) is refused with a 409 that says so, as JSON `{"ok": false, "ask":
"next_match", "message"}`, unless the staff confirm with ``"next_match": true``: a table
takes settings sent during a match for its next match (scoreboard/table/setup_flow.py
`sent()`), so the game waits there until that match is over.
"""

import asyncio
import json
import logging

from aiohttp import web

from scoreboard.club.bodies import database, json_object
from scoreboard.club.free_table import CONFIRMING
from scoreboard.club.waiting import same_name, table_words
from scoreboard.desk import formats
from scoreboard.mqtt.topics import TABLE_ID
from scoreboard.rules.setup import MAX_RACE

LOGGER = logging.getLogger("scoreboard.club")
BY_LETTERS = 30


class TournamentStaff:
    """`desk`: club/desk_api.py DeskApi (its club, engine and runners)."""

    def __init__(self, desk) -> None:
        self.desk = desk

    def routes(self) -> list:
        base = "/api/tournaments/{id}/games/{game}"
        return [
            web.post(f"{base}/walkover", self.walkover),
            web.post(f"{base}/move", self.move),
            web.post(f"{base}/send", self.send),
            web.post(f"{base}/result", self.result),
        ]

    async def walkover(self, request: web.Request) -> web.Response:
        t, game, body, runner = await self._game(request)
        if game in t.bracket.results:
            raise web.HTTPConflict(text=f"{game} is decided: correct its result instead")
        self._not_in_play(t, game, runner)
        winner = _winner(body, t, game)
        await self._record(t, game, winner, by=staff_name(body), walkover=True, expect=None)
        table = runner.withdraw(game) if runner else None
        return self._changed(t.id, {"ok": True, "cleared": table})

    async def move(self, request: web.Request) -> web.Response:
        t, game, body, runner = await self._game(request)
        by = staff_name(body)
        if runner is None or game not in {g.id for g in t.bracket.ready()}:
            raise web.HTTPConflict(text=f"{game} is not waiting to be played")
        self._not_in_play(t, game, runner)
        table, busy = self._named_table(t, runner, body)
        left = runner.move(game, table)
        LOGGER.info("club: %s moved %s of tournament %s from %s to %s", by, game, t.id, left, table)
        return self._changed(t.id, {"ok": True, "from": left, "to": table, "next_match": busy})

    async def send(self, request: web.Request) -> web.Response:
        """A game that waits for a table sent now: to `table`, or (a tournament whose
        `dispatch` is "confirm") to the table the desk proposed for it."""
        t, game, body, runner = await self._game(request)
        by = staff_name(body)
        ready = {g.id for g in t.bracket.ready()}
        if runner is None or game not in ready or game in runner.at_tables(t.bracket.results):
            raise web.HTTPConflict(text=f"{game} is not waiting for a table")
        proposed = dict((g, table) for table, g in runner.proposed)
        if "table" not in body and game in proposed:
            body = {**body, "table": proposed[game]}
        table, busy = self._named_table(t, runner, body)
        runner.send(game, table)
        LOGGER.info("club: %s sent %s of tournament %s to %s", by, game, t.id, table)
        return self._changed(t.id, {"ok": True, "to": table, "next_match": busy})

    async def result(self, request: web.Request) -> web.Response:
        t, game, body, runner = await self._game(request)
        winner = _winner(body, t, game)
        frames = body.get("frames")
        if not (
            isinstance(frames, list)
            and len(frames) == 2
            and all(isinstance(f, int) and not isinstance(f, bool) for f in frames)
            and all(0 <= f <= MAX_RACE for f in frames)
        ):
            raise web.HTTPBadRequest(text=f"frames: two whole numbers 0 to {MAX_RACE}, [a, b]")
        a, _ = t.bracket.sides(game)
        if frames[0] == frames[1] or (frames[0] > frames[1]) != (winner == a):
            raise web.HTTPBadRequest(text="frames: the winner has more frames")
        seen = t.bracket.results.get(game)
        if seen is None:
            self._not_in_play(t, game, runner)
        if seen is not None:
            self._no_table_reseated(t, runner, game, winner, tuple(frames))
        await self._record(t, game, winner, by=staff_name(body), frames=tuple(frames), expect=seen)
        table = runner.withdraw(game) if runner and seen is None else None
        return self._changed(t.id, {"ok": True, "cleared": table})

    def _no_table_reseated(self, t, runner, game: str, winner: str, frames) -> None:
        """409 when correcting `game` would change the players of a game already out at a
        table: that table would be playing the wrong match, and its result be refused."""
        if runner is None:
            return
        out = runner.at_tables(t.bracket.results)
        after = formats.make(t.bracket.players, t.format, t.settings)
        try:
            for g in t.bracket.games:  # the results as they are, in the bracket's order
                if g.id == game:
                    after.record(game, winner, frames=frames)
                elif g.id in t.bracket.results:
                    r = t.bracket.results[g.id]
                    after.record(g.id, r.winner, frames=r.frames, walkover=r.walkover)
        except Exception:  # noqa: BLE001 - the record itself says why (400/409)
            return
        for other, table in out.items():
            if after.sides(other) != t.bracket.sides(other):
                players = " v ".join(map(str, t.bracket.sides(other)))
                raise web.HTTPConflict(
                    text=f"{game} cannot change while {other} is out at table {table} with "
                    f"{players} from its result: that table would play the wrong match"
                )

    # -- helpers ------------------------------------------------------------------------------
    async def _game(self, request: web.Request):
        """(tournament, game, body, its runner or None) of a staff's write; 404 if none."""
        self.desk.club.check_staff(request)
        engine = database(self.desk.engine)
        from scoreboard.clubdb import tournaments
        from scoreboard.clubdb.tournaments import TournamentError

        body = await json_object(request)
        try:
            tid = int(request.match_info["id"])
            t = await asyncio.to_thread(tournaments.load, engine, tid)
        except (TournamentError, ValueError):
            raise web.HTTPNotFound(text="no such tournament") from None
        game = request.match_info["game"]
        if game not in t.bracket.by_id:
            raise web.HTTPNotFound(text=f"no game {game!r} in tournament {tid}")
        return t, game, body, self.desk.runners.get(tid)

    def _named_table(self, t, runner, body: dict) -> tuple[str, bool]:
        """(the table `body` names, whether a match holds it) for a game of this tournament:
        online, one of its tables, holding none of its games not played yet, else 400/409;
        a table whose match holds it only with `next_match` (a 409 that asks, else); 503
        while the broker is away."""
        table, next_match = body.get("table"), body.get("next_match", False)
        if not isinstance(table, str) or not TABLE_ID.match(table):
            raise web.HTTPBadRequest(text="table: a table's id")
        if not isinstance(next_match, bool):
            raise web.HTTPBadRequest(text="next_match: true or false")
        view = {v["table"]: v for v in self.desk.club.hall.views()}.get(table)
        if view is None or not view.get("online") or view.get("status") == "offline":
            raise web.HTTPConflict(text=f"table {table} is not free: it is not online")
        if runner.tables is not None and table not in runner.tables:
            raise web.HTTPConflict(text=f"table {table} is not free for this tournament")
        holds = {at: g for g, at in runner.at_tables(t.bracket.results).items()}.get(table)
        if holds is not None:
            raise web.HTTPConflict(
                text=f"table {table} is not free: it holds {holds} of this tournament, not "
                "played yet (move it, or give it as a walkover, first)"
            )
        if not self.desk.club.linked:
            raise web.HTTPServiceUnavailable(text="the club is not connected to the broker")
        busy = table_words(view)
        if busy is not None and not next_match:
            # What a table does with settings sent now (table/setup_flow.py `sent()`): in play,
            # it keeps them for the next match; a result being confirmed, until it is closed.
            then = (
                "the table keeps the game and starts it as soon as their result is closed"
                if view.get("busy") == CONFIRMING
                else "the game waits as the table's next match: its setup screen opens with "
                "it when that match is over"
            )
            message = f'{busy}. Sent there now, {then} (send again with "next_match": true).'
            raise web.HTTPConflict(
                text=json.dumps({"ok": False, "ask": "next_match", "message": message}),
                content_type="application/json",
            )
        return table, busy is not None

    def _not_in_play(self, t, game: str, runner) -> None:
        """409 when `game` is at a table that plays it (the table's match holds the table and
        is between the game's players): the table's result decides it. A game sent to a
        table as its next match, while another match is played there, is not in play."""
        if runner is None:
            return
        table = runner.at_tables(t.bracket.results).get(game)
        view = {v["table"]: v for v in self.desk.club.hall.views()}.get(table) or {}
        names = list((view.get("players") or {}).values())
        sides = t.bracket.sides(game)
        theirs = len(names) == 2 and all(any(same_name(p, n) for n in names) for p in sides)
        if table is not None and view.get("busy") and theirs:
            raise web.HTTPConflict(
                text=f"{game} is in play at table {table}: its result comes from the table "
                "(finish or undo it there first)"
            )

    async def _record(self, t, game: str, winner: str, **kwargs) -> None:
        from scoreboard.clubdb import tournaments

        try:
            await asyncio.to_thread(
                tournaments.record, self.desk.engine, t.id, game, winner, **kwargs
            )
        except tournaments.Changed as exc:
            raise web.HTTPConflict(text=str(exc)) from None
        except tournaments.PlayedSince as exc:
            raise web.HTTPConflict(
                text=f"{exc}: the games after it are decided on what it was (correct those first)"
            ) from None
        except tournaments.TournamentError as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None

    def _changed(self, tid: int, answer: dict) -> web.Response:
        # A corrected final may want a second one: a tournament over is played on again.
        runner = self.desk.runners.get(tid) or self.desk.resume(tid)
        if runner is not None:
            answer["sent"] = self.desk.dispatch(runner)
        self.desk.club.tell_pages({"type": "tournament", "id": tid})
        return web.json_response(answer)


def _winner(body: dict, t, game: str) -> str:
    sides = t.bracket.sides(game)
    winner = body.get("winner")
    if not all(isinstance(p, str) for p in sides):
        raise web.HTTPConflict(text=f"{game} is not ready: its players are not both known")
    if winner not in sides:
        raise web.HTTPBadRequest(text=f"winner: {sides[0]} or {sides[1]}, not {winner!r}")
    return winner


def staff_name(body: dict) -> str:
    """Who at the desk, as the club keeps it: `staff Ira` (`staff` when no name is given)."""
    who = body.get("by", "")
    if not isinstance(who, str) or len(who) > BY_LETTERS or not (who == "" or who.isprintable()):
        raise web.HTTPBadRequest(text=f"by: the staff member's name, up to {BY_LETTERS} letters")
    return f"staff {who.strip()}".strip()
