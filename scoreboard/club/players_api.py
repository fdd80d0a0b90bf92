"""The club's players over HTTP (issue 22): the roster for anyone to read (the hall, the
tables, a phone); staff add, rename and merge, with the same checks as a staff's assign
(the club's own page, the staff password). The database's work runs off the server's loop."""

import asyncio

from aiohttp import web

from scoreboard.club.bodies import database, json_object

# scoreboard.clubdb needs the desk extra (SQLAlchemy): imported where a database is there.


class PlayersApi:
    """`club.check_staff(request)` checks a staff's write; `engine` is the club's database
    (scoreboard/clubdb/database.py), None when it has none."""

    def __init__(self, club, engine) -> None:
        self.club, self.engine = club, engine

    def routes(self) -> list:
        return [
            web.get("/api/players", self.roster),
            web.post("/api/players", self.add),
            web.post("/api/players/{id}/rename", self.rename),
            web.post("/api/players/{id}/merge", self.merge),
        ]

    async def roster(self, request: web.Request) -> web.Response:
        engine = database(self.engine)  # first: without the desk extra, clubdb cannot be imported
        from scoreboard.clubdb import players

        return web.json_response({"players": await asyncio.to_thread(players.roster, engine)})

    async def add(self, request: web.Request) -> web.Response:
        body = await self._staff_body(request)
        pid = await self._do(
            "add",
            _text(body, "name"),
            full_name=_text(body, "full_name", ""),
            nickname=_text(body, "nickname", ""),
        )
        return web.json_response({"ok": True, "id": pid}, status=201)

    async def rename(self, request: web.Request) -> web.Response:
        body = await self._staff_body(request)
        await self._do("rename", _id(request.match_info["id"]), _text(body, "name"))
        return web.json_response({"ok": True})

    async def merge(self, request: web.Request) -> web.Response:
        """`{"into": id}`: this player was `into` entered twice."""
        body = await self._staff_body(request)
        await self._do("merge", _id(body.get("into")), _id(request.match_info["id"]))
        return web.json_response({"ok": True})

    # -- helpers ------------------------------------------------------------------------------
    async def _staff_body(self, request: web.Request) -> dict:
        self.club.check_staff(request)
        database(self.engine)
        return await json_object(request)

    async def _do(self, name: str, *args, **kwargs):
        """clubdb.players' `name` on the club's database, off the server's loop."""
        from scoreboard.clubdb import players

        try:
            done = await asyncio.to_thread(getattr(players, name), self.engine, *args, **kwargs)
        except players.PlayerError as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None
        self.club.publish_roster()  # every table's setup screen lists the players as they are
        return done


def _text(body: dict, key: str, default: str | None = None) -> str:
    value = body.get(key, default)
    if not isinstance(value, str):
        raise web.HTTPBadRequest(text=f"{key}: a text")
    return value


def _id(value) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise web.HTTPBadRequest(text="a player's id is a number") from None
    return number
