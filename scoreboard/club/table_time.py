"""Table time (issue 22): how long each table was in play and idle, each day, from the tables'
own state as the club sees it over MQTT; a CSV a club can bill from.

A table's time goes to what it was doing (in play: a match under way, or its result still
being confirmed; idle: online and free, club/free_table.py) from the moment the club saw it
start until the moment it changed, split at midnight (the club's time zone, as the day's
results). Offline is not counted, nor any time the club could not see (the broker away, the
club stopped). Every minute what is under way is written down, so a club that stops without
warning loses a minute at most.
"""

import asyncio
import contextlib
import csv
import io
import logging
from datetime import date, datetime, time, timedelta

from aiohttp import web

from scoreboard.club.bodies import database

LOGGER = logging.getLogger("scoreboard.club")
CHECKPOINT_SECONDS = 60.0
CSV_COLUMNS = ["table", "day", "minutes_in_play", "minutes_idle"]
IN_PLAY, IDLE = "in_play", "idle"  # as scoreboard/clubdb/table_time.py keeps them


def doing(view: dict) -> str | None:
    """What a table's view counts as: "in_play", "idle", or None (offline: not counted). In
    play is what the free-table rule says holds the table (club/free_table.py: a shot entered,
    or a result its players are still confirming), with or without a fault: a stuck sensor does
    not stop the game."""
    if view.get("status") == "offline" or not view.get("online"):
        return None
    return IN_PLAY if view.get("busy") else IDLE


def by_day(since: float, until: float):
    """(day, seconds) of the period from `since` to `until` (the club's clock), split at the
    club's local midnights."""
    start = since
    while start < until:
        day = datetime.fromtimestamp(start).date()
        midnight = datetime.combine(day + timedelta(days=1), time()).timestamp()
        end = min(until, midnight)
        yield day, end - start
        start = end


class TableTime:
    """`engine`: the club's database (None: no table time is kept)."""

    def __init__(self, engine) -> None:
        self.engine = engine
        self.open: dict[str, tuple[str, float]] = {}  # table -> (what, since)

    # -- what the club sees -------------------------------------------------------------------
    def seen(self, view: dict, now: float) -> None:
        if self.engine is None:
            return  # no database: no table time
        what = doing(view)
        held = self.open.get(view["table"])
        if held is not None and held[0] == what:
            return
        self._close(view["table"], now)
        if what is not None:
            self.open[view["table"]] = (what, now)

    def lost(self, now: float) -> None:
        """The club no longer sees the tables (the broker away): what was under way ends."""
        for table in list(self.open):
            self._close(table, now)

    def checkpoint(self, now: float) -> None:
        """What is under way written down up to now, and going on from now."""
        for table, (what, since) in list(self.open.items()):
            self._add(table, what, since, now)
            self.open[table] = (what, now)

    def _close(self, table: str, now: float) -> None:
        held = self.open.pop(table, None)
        if held is not None:
            self._add(table, held[0], held[1], now)

    def _add(self, table: str, what: str, since: float, until: float) -> None:
        if self.engine is None:
            return
        from sqlalchemy.exc import SQLAlchemyError

        from scoreboard.clubdb import table_time

        try:
            for day, seconds in by_day(since, until):
                if round(seconds):
                    table_time.add(self.engine, table, day, what, round(seconds))
        except SQLAlchemyError as exc:
            LOGGER.warning("club: table time of %s not kept: %s", table, exc)

    # -- the club's process -------------------------------------------------------------------
    def ticking(self, clock):
        """An aiohttp cleanup context: a checkpoint every minute while the club serves, and
        what is under way written down when it stops."""

        async def context(app):
            async def tick():
                while True:
                    await asyncio.sleep(CHECKPOINT_SECONDS)
                    self.checkpoint(clock())

            task = asyncio.get_running_loop().create_task(tick())
            yield
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            self.lost(clock())

        return context

    # -- the web ------------------------------------------------------------------------------
    def routes(self) -> list:
        return [web.get("/api/table-time.csv", self.csv)]

    async def csv(self, request: web.Request) -> web.Response:
        """`?from=YYYY-MM-DD&to=YYYY-MM-DD` (both default today): each table's day, minutes in
        play and idle. Anyone may read it, as the day's results: the hall shows it all."""
        engine = database(self.engine)
        from scoreboard.clubdb import table_time

        today = datetime.now().date().isoformat()
        try:
            first = date.fromisoformat(request.query.get("from") or today)
            last = date.fromisoformat(request.query.get("to") or request.query.get("from") or today)
        except ValueError:
            raise web.HTTPBadRequest(text="from, to: days as YYYY-MM-DD") from None
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in await asyncio.to_thread(table_time.rows, engine, first, last):
            writer.writerow(
                [
                    row["table"],
                    row["day"].isoformat(),
                    round(row["in_play"] / 60),
                    round(row["idle"] / 60),
                ]
            )
        name = f"table-time-{first.isoformat()}-{last.isoformat()}.csv"
        return web.Response(
            text=out.getvalue(),
            content_type="text/csv",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
