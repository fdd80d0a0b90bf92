"""Table time (scoreboard/club/table_time.py, issue 22), on SQLite and PostgreSQL: each table's
minutes in play and idle by day, from the tables' own state as the club sees it over MQTT,
split at the club's midnight; offline and unseen time not counted; the CSV a club bills from.
The club's clock is simulated."""

import asyncio
import csv
import io
import json
from datetime import date, datetime

from aiohttp.test_utils import TestClient, TestServer
from mqtt_table import match_lines, state_message

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.club.table_time import TableTime
from scoreboard.clubdb import table_time
from scoreboard.clubdb.database import open_database

DEC3, DEC4 = date(2026, 12, 3), date(2026, 12, 4)


def at(day: date, hour: int, minute: int) -> float:
    """The club's clock at that local time."""
    return datetime(day.year, day.month, day.day, hour, minute).timestamp()


class Clock:
    def __init__(self):
        self.now = at(DEC3, 22, 0)

    def __call__(self):
        return self.now


def state(*, playing: bool) -> bytes:
    lines = match_lines("2026-12-03T21:00:00Z", pots=(3,) if playing else (3, 5))
    return json.dumps(state_message(lines)["state"]).encode()  # (3, 5): 8:0, the match over


def minutes(engine) -> dict:
    return {
        (r["table"], r["day"]): (r["in_play"] / 60, r["idle"] / 60)
        for r in table_time.rows(engine, DEC3, DEC4)
    }


def on_the_loop(body):
    """`body()` on an asyncio loop, as the club's broker callbacks run."""

    async def main():
        body()

    asyncio.run(main())


def test_a_tables_evening_in_play_idle_offline_and_past_midnight(database_url):
    on_the_loop(lambda: evening(database_url))


def evening(database_url):
    engine = open_database(database_url)
    clock = Clock()
    club = Club(book=ResultBook("/nonexistent"), database=engine, clock=clock)

    def step(hour, minute, topic, payload, day=DEC3):
        clock.now = at(day, hour, minute)
        club.take(f"fp/v1/t1/{topic}", payload)

    step(22, 0, "availability", b"online")
    step(22, 0, "state", state(playing=False))  # idle from 22:00
    step(22, 10, "state", state(playing=True))  # 30 minutes in play
    step(22, 25, "faults", b'{"faults": [{"kind": "sensor-stuck"}], "updated": "x"}')
    step(22, 40, "state", state(playing=False))  # a fault in play is still play
    step(22, 50, "availability", b"offline")  # 10 idle, then an hour not counted
    step(23, 50, "availability", b"online")
    step(23, 55, "state", state(playing=True))  # 5 idle; in play across midnight...
    step(0, 25, "state", state(playing=False), day=DEC4)  # ...35 to 00:25
    clock.now = at(DEC4, 0, 30)
    club.table_time.checkpoint(clock.now)  # 5 idle, written down every minute
    assert minutes(engine) == {("t1", DEC3): (35.0, 25.0), ("t1", DEC4): (25.0, 5.0)}


def test_time_the_club_cannot_see_is_not_counted_and_a_restart_keeps_what_was_written(
    database_url,
):
    on_the_loop(lambda: unseen(database_url))


def unseen(database_url):
    engine = open_database(database_url)
    clock = Clock()
    club = Club(book=ResultBook("/nonexistent"), database=engine, clock=clock)
    club.link(True)
    club.take("fp/v1/t2/availability", b"online")
    club.take("fp/v1/t2/state", state(playing=True))
    clock.now = at(DEC3, 22, 20)
    club.link(False)  # the broker away: 20 minutes counted, the rest not seen
    clock.now = at(DEC3, 23, 0)
    club.link(True)
    club.take("fp/v1/t2/state", state(playing=True))  # seen again (retained)
    clock.now = at(DEC3, 23, 30)
    club.table_time.checkpoint(clock.now)  # a minute's checkpoint...
    clock.now = at(DEC3, 23, 30) + 50
    again = TableTime(engine)  # ...then the club's power cut: the 50 s are lost
    assert again.open == {}
    assert minutes(engine) == {("t2", DEC3): (50.0, 0.0)}


def test_the_table_time_csv_a_club_bills_from(tmp_path, database_url):
    engine = open_database(database_url)
    table_time.add(engine, "t1", DEC3, table_time.IN_PLAY, 35 * 60)
    table_time.add(engine, "t1", DEC3, table_time.IDLE, 25 * 60 + 20)
    table_time.add(engine, "t2", DEC4, table_time.IN_PLAY, 90)

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            both = await http.get("/api/table-time.csv?from=2026-12-03&to=2026-12-04")
            one = await http.get("/api/table-time.csv?from=2026-12-04")
            bad = await http.get("/api/table-time.csv?from=yesterday")
            return (
                await both.text(),
                both.headers["Content-Type"],
                await one.text(),
                bad.status,
            )
        finally:
            await http.close()

    both, kind, one, bad = asyncio.run(main())
    assert list(csv.reader(io.StringIO(both))) == [
        ["table", "day", "minutes_in_play", "minutes_idle"],
        ["t1", "2026-12-03", "35", "25"],
        ["t2", "2026-12-04", "2", "0"],
    ]
    assert kind.startswith("text/csv") and len(one.splitlines()) == 2 and bad == 400
