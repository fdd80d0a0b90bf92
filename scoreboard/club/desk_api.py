"""The club's tournaments over HTTP and on the tables (issue 22): staff start one from the
club's players; each runs on the tables by itself (club/tournament_runner.py) while the club
runs, and again after a restart; anyone reads its bracket.

The database's work here is short (a tournament of 64 players is loaded in milliseconds) and
runs on the club's loop: the tables' messages wait for it, never the tables."""

import asyncio
import logging

from aiohttp import web

from scoreboard.club import tournament_form
from scoreboard.club.bodies import database, json_object
from scoreboard.club.tournament_staff import TournamentStaff

LOGGER = logging.getLogger("scoreboard.club")
RETAINED_WITHIN = 2.0  # seconds after connecting for the broker's retained messages to come


class DeskApi:
    """`club`: check_staff(request), hall views, and `assign(table, settings, id)`."""

    def __init__(self, club, engine) -> None:
        self.club, self.engine = club, engine
        self.runners: dict = {}  # tournament id -> TournamentRunner, those not over
        self._shown: dict[str, tuple] = {}  # table -> the (tournament, game) it last held
        self._told: dict[int, dict] = {}  # tournament -> why its games wait, as last told
        self._hold_until = 0.0  # no game goes out before (the loop's clock): see linked()

    def start(self) -> None:
        """The tournaments not over, played on (after a restart of the club too)."""
        if self.engine is None:
            return
        from scoreboard.clubdb import tournaments

        for tid in tournaments.in_play(self.engine):
            self._run(tid)

    def routes(self) -> list:
        return [
            web.get("/api/tournaments", self.listing),
            web.post("/api/tournaments", self.create),
            web.get("/api/tournaments/{id}", self.show),
            *TournamentStaff(self).routes(),
            web.get("/api/tournaments/{id}/export.json", self.export_json),
            web.get("/api/tournaments/{id}/export.csv", self.export_csv),
        ]

    # -- from the broker ----------------------------------------------------------------------
    def result(self, result: dict) -> None:
        for runner in list(self.runners.values()):
            if runner.result(result):
                self.dispatch(runner)
                self.club.tell_pages({"type": "tournament", "id": runner.id})

    def seen(self, view: dict) -> None:
        """A table's view changed: if it now holds another game of a tournament (its assign
        came back from the broker), that tournament's pages draw it at the table."""
        from scoreboard.club.tournament_runner import held

        parsed = held([view]).get(view["table"])
        if parsed is None or parsed[0] not in self.runners:
            return
        if self._shown.get(view["table"]) != parsed:
            self._shown[view["table"]] = parsed
            self.club.tell_pages({"type": "tournament", "id": parsed[0]})

    def linked(self) -> None:
        """The broker is (back) there: its retained messages come now, the tables' assigns
        among them. Until they are in, a game that is out would look free and go to a second
        table (found by the end-to-end test, a club restarted mid-round): the games wait."""
        loop = asyncio.get_running_loop()
        self._hold_until = loop.time() + RETAINED_WITHIN
        loop.call_later(RETAINED_WITHIN, self.tables_changed)

    def tables_changed(self) -> None:
        """A table came online or went idle: games that wait may go out now (or, where the
        staff confirm each, be proposed: the desk's page shows the new proposals)."""
        for runner in list(self.runners.values()):
            proposed = list(runner.proposed)
            if self.dispatch(runner) or runner.proposed != proposed:
                self.club.tell_pages({"type": "tournament", "id": runner.id})

    def waiting_changed(self) -> None:
        """The tables changed: where that changes why a tournament's games wait (a score at
        the table they wait for, a player back from another table), its pages are told, with
        the reasons (club/waiting.py), without a reload of the bracket."""
        for runner in list(self.runners.values()):
            why, told = runner.why(linked=self.club.linked), self._told.get(runner.id)
            if told == why or (told is not None and not told["waiting"] and not why["waiting"]):
                continue  # the same, or still no game waits: a ball at a table is no news
            self._told[runner.id] = why
            self.club.tell_pages({"type": "waiting", "id": runner.id, **why})

    def resume(self, tid: int):
        """The runner of tournament `tid` if it is not over (a corrected final can make one
        that was over go on), else None."""
        from scoreboard.clubdb import tournaments

        if tid in self.runners:
            return self.runners[tid]
        return None if tournaments.load(self.engine, tid).bracket.done() else self._run(tid)

    def holding(self, table: str) -> str | None:
        """The tournament game `table` holds and has not played yet, in words (None: none): a
        staff's assign by hand must not overwrite it, or the game would wait for ever."""
        from scoreboard.clubdb import tournaments

        for runner in list(self.runners.values()):
            t = tournaments.load(self.engine, runner.id)
            for game, at in runner.at_tables(t.bracket.results).items():
                if at == table:
                    return f"game {game} of {t.name}"
        return None

    def next_for(self, player: str) -> list[dict]:
        """Where and when `player` plays next in each tournament in play (club/player_pages.py):
        the game, the opponent if known, the table (its name in the hall) if it is at one."""
        names = self._table_names()
        found = []
        for runner in list(self.runners.values()):
            if (game := runner.next_for(player)) is not None:
                found.append({**game, "table_name": names.get(game["table"], game["table"])})
        return found

    # -- the web ------------------------------------------------------------------------------
    async def create(self, request: web.Request) -> web.Response:
        """A new tournament (the body: club/tournament_form.py), its first games out at once."""
        self.club.check_staff(request)
        engine = database(self.engine)  # first: without the desk extra, clubdb cannot be imported
        from scoreboard.clubdb import tournaments
        from scoreboard.clubdb.tournaments import TournamentError

        form = tournament_form.parse(await json_object(request))
        try:
            tid = tournaments.create(
                engine,
                form["name"],
                form["format"],
                form["players"],
                settings=form["settings"],
                draw_seed=form["draw_seed"],
            )
        except TournamentError as exc:
            raise web.HTTPBadRequest(text=f"players: {exc}") from None
        sent = self.dispatch(self._run(tid))
        return web.json_response({"ok": True, "id": tid, "sent": sent}, status=201)

    async def listing(self, request: web.Request) -> web.Response:
        """Every tournament, newest first (the desk's page lists them)."""
        engine = database(self.engine)  # first: without the desk extra, clubdb cannot be imported
        from scoreboard.clubdb import tournaments

        return web.json_response(
            {"tournaments": await asyncio.to_thread(tournaments.listed, engine)}
        )

    async def show(self, request: web.Request) -> web.Response:
        engine = database(self.engine)  # first: without the desk extra, clubdb cannot be imported
        from scoreboard.clubdb import tournaments
        from scoreboard.clubdb.tournaments import TournamentError

        try:
            t = await asyncio.to_thread(tournaments.load, engine, int(request.match_info["id"]))
        except (TournamentError, ValueError):
            raise web.HTTPNotFound(text="no such tournament") from None
        sources = await asyncio.to_thread(_sources, engine, t)
        b = t.bracket
        names = self._table_names()
        runner = self.runners.get(t.id)
        if runner is not None:
            runner.look(t)  # the bracket as just loaded
        why = runner.why(linked=self.club.linked) if runner else {"waiting": [], "tables": []}
        at = (
            {g: names.get(table, table) for g, table in runner.at_tables(b.results).items()}
            if runner
            else {}
        )
        games = []
        for game in b.games:
            a, bb = b.sides(game.id)
            result = b.results.get(game.id)
            games.append(
                {
                    "id": game.id,
                    "stage": game.stage,
                    "round": game.round,
                    "players": [_name(a), _name(bb)],
                    "winner": result.winner if result else None,
                    "frames": list(result.frames) if result and result.frames else None,
                    "provenance": sources.get(game.id),  # issue 34: the table's, or staff's
                }
            )
        groups = (
            [
                {"players": members, "table": [_row(row) for row in table]}
                for members, table in zip(b.groups, b.tables(), strict=True)
            ]
            if hasattr(b, "tables")  # desk/groups.py: a round robin, or groups then a knockout
            else None
        )
        return web.json_response(
            {
                "id": t.id,
                "groups": groups,
                "name": t.name,
                "format": t.format,
                "players": b.players,
                "games": games,
                "ready": [g.id for g in b.ready()],
                "at": at,
                "dispatch": t.settings.get("dispatch", "auto"),
                # "dispatch": "confirm": the games the desk proposes, for staff to send
                "proposed": [
                    {"game": g, "table": names.get(tb, tb), "table_id": tb}
                    for tb, g in (runner.proposed if runner else [])
                ],
                # Why each ready game not at a table waits, and the tournament's tables now
                # (club/waiting.py): the desk's and the hall TV's words, and the desk's choice.
                **why,
                "champion": b.champion(),
                "standings": [{"place": p, "players": ps} for p, ps in b.standings()],
            }
        )

    async def export_json(self, request: web.Request) -> web.Response:
        return web.json_response(await self._export(request))

    async def export_csv(self, request: web.Request) -> web.Response:
        from scoreboard.club.tournament_export import to_csv

        exported = await self._export(request)
        return web.Response(
            text=to_csv(exported),
            content_type="text/csv",
            charset="utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="tournament-{exported["id"]}.csv"'
            },
        )

    async def _export(self, request: web.Request) -> dict:
        """A tournament with each game's table, times and log (club/tournament_export.py):
        read only, like its bracket."""
        engine = database(self.engine)
        from scoreboard.club.tournament_export import export
        from scoreboard.clubdb import tournaments
        from scoreboard.clubdb.tournaments import TournamentError

        try:
            tid = int(request.match_info["id"])
            t = await asyncio.to_thread(tournaments.load, engine, tid)
            played = await asyncio.to_thread(tournaments.played, engine, tid)
        except (TournamentError, ValueError):
            raise web.HTTPNotFound(text="no such tournament") from None
        from scoreboard.clubdb import matches

        results = await asyncio.to_thread(matches.for_tournament, engine, tid)
        return export(t, played, results)

    # -- helpers ------------------------------------------------------------------------------
    def _table_names(self) -> dict[str, str]:
        """Each table's name in the hall (its id where it has none), by id."""
        return {v["table"]: v["name"] or v["table"] for v in self.club.hall.views()}

    def _run(self, tid: int):
        from scoreboard.club.tournament_runner import TournamentRunner
        from scoreboard.clubdb import tournaments

        settings = tournaments.load(self.engine, tid).settings
        self.runners[tid] = TournamentRunner(
            self.engine,
            tid,
            views=self.club.hall.views,
            assign=self.club.send_assign,
            tables=settings.get("tables"),
            confirm=settings.get("dispatch") == "confirm",
        )
        self.runners[tid].look()
        return self.runners[tid]

    def dispatch(self, runner) -> list:
        if not self.club.linked or asyncio.get_running_loop().time() < self._hold_until:
            # The broker is away (the games go out when it is back), or its retained assigns
            # are still coming: nothing is sent, but why the games wait is the bracket's now.
            runner.look()
            return []
        sent = runner.dispatch()
        if runner.over:
            self.runners.pop(runner.id, None)
            LOGGER.info("club: tournament %s is over", runner.id)
        return sent


def _sources(engine, t) -> dict[str, str]:
    """Where each decided game's result came from (club/tournament_export.py `source`)."""
    from scoreboard.club.tournament_export import source, table_result_of
    from scoreboard.clubdb import matches, tournaments

    played = tournaments.played(engine, t.id)
    results = matches.for_tournament(engine, t.id)
    return {
        game: source(where, table_result_of(t.id, game, where, results))[0]
        for game, where in played.items()
    }


def _row(row) -> dict:
    keys = ("player", "played", "won", "frames_for", "frames_against")
    return {k: getattr(row, k) for k in keys}


def _name(place):
    return place if isinstance(place, str) else None  # a bye or not known yet
