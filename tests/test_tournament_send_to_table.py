"""The desk sends a waiting game to a named table at once (issue 34), on SQLite and
PostgreSQL, through the club's HTTP server over the real hall's views of real match states:
a free table takes it; a table whose match is in play is refused with words that say so,
and takes it as its next match when the staff confirm; never a table that is off, not the
tournament's, or holding another of its games. The tournament's JSON says why each game
waits, and its pages are told when that changes (a score at the table it waits for)."""

import asyncio
import json

from aiohttp.test_utils import TestClient, TestServer
from hall_tables import Broker, HallTables

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players
from scoreboard.clubdb.database import open_database

STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue
FRIENDLY = ("players Yurii Marko", "race 1", "break A", "shot pots=5", "shot", "shot pots=3")


def told(queue: asyncio.Queue) -> list[dict]:
    """The "waiting" messages the club sent its pages since the last look."""
    out = []
    while not queue.empty():
        _, data = queue.get_nowait()
        message = json.loads(data.decode().removeprefix("data: "))
        if message["type"] == "waiting":
            out.append(message)
    return out


def test_staff_send_a_waiting_game_to_a_named_table(tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Oksana", "Petro", "Andrii", "Olena")]

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        tables = HallTables(club)
        club.client, club.linked = Broker(tables), True
        tables.table("t1", *FRIENDLY)  # a friendly in play
        tables.table("t2")
        tables.offline("t2")
        tables.table("t9")  # free, but not one of the tournament's
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
        pages: asyncio.Queue = asyncio.Queue()
        club.pages.add(pages)

        async def post(path, body, status, words=""):
            response = await http.post(path, json=body, headers=staff)
            text = await response.text()
            assert response.status == status and words in text, (path, body, text)
            return json.loads(text) if text.startswith("{") else text

        try:
            body = {"players": ids, "draw_seed": 1, "tables": ["t1", "t2", "t3"]}
            tid = (await post("/api/tournaments", body, 201))["id"]
            assert club.client.sent == []  # t1 busy, t2 off, t3 never seen: nothing goes
            shown = await (await http.get(f"/api/tournaments/{tid}")).json()
            busy = "Table 1 busy: Yurii v Marko, 5:3"
            assert [(w["game"], w["why"], w["text"]) for w in shown["waiting"]] == [
                ("W1-1", "table-busy", busy),
                ("W1-2", "table-busy", busy),
            ]
            assert [(t["table"], t["free"], t["text"]) for t in shown["tables"]] == [
                ("t1", False, busy)
            ]

            # the pages are told when the words change: a ball at the table they wait for
            told(pages)
            tables.state("t1", *FRIENDLY, "shot pots=1")
            (message,) = told(pages)
            assert message["id"] == tid
            assert message["waiting"][0]["text"] == "Table 1 busy: Yurii v Marko, 5:4"
            tables.faults("t1")  # no fault, as before: the same words, nothing told
            assert told(pages) == []

            game = f"/api/tournaments/{tid}/games"
            refused = await http.post(f"{game}/W1-1/send", json={"table": "t1"})
            assert refused.status in (401, 403)  # a staff write only
            await post(f"{game}/W1-1/send", {"table": "t2"}, 409, "not online")
            await post(f"{game}/W1-1/send", {"table": "t9"}, 409, "not free for this tournament")
            await post(f"{game}/W1-1/send", {"table": "t1", "next_match": "yes"}, 400)
            asked = await post(f"{game}/W1-1/send", {"table": "t1", "by": "Ira"}, 409)
            assert asked["ask"] == "next_match" and not asked["ok"]
            assert "Table 1 busy: Yurii v Marko, 5:4" in asked["message"]
            assert "waits as the table's next match" in asked["message"]
            assert club.client.sent == []
            body = {"table": "t1", "next_match": True, "by": "Ira"}
            sent = await post(f"{game}/W1-1/send", body, 200)
            assert (sent["to"], sent["next_match"]) == ("t1", True)
            assert club.client.sent == [("t1", f"T{tid}-W1-1")]
            await post(f"{game}/W1-2/send", {**body, "by": ""}, 409, "it holds W1-1")
            shown = await (await http.get(f"/api/tournaments/{tid}")).json()
            assert shown["at"] == {"W1-1": "Table 1"}
            assert [w["game"] for w in shown["waiting"]] == ["W1-2"]

            # a table comes online, free: W1-2 goes there by itself
            tables.table("t2")
            assert club.client.sent[-1] == ("t2", f"T{tid}-W1-2")
            shown = await (await http.get(f"/api/tournaments/{tid}")).json()
            assert shown["waiting"] == []
            # W1-1 waits at t1 as its next match, not in play there: the staff may move it
            tables.table("t3")
            moved = await post(f"{game}/W1-1/move", {"table": "t3"}, 200)
            assert (moved["from"], moved["to"], moved["next_match"]) == ("t1", "t3", False)
            assert club.client.sent[-2:] == [("t1", None), ("t3", f"T{tid}-W1-1")]
        finally:
            await http.close()

    asyncio.run(main())


def test_a_table_whose_players_confirm_a_result_is_asked_about_first(tmp_path, database_url):
    """Its match is over, its result open: the table keeps a game sent now until the result
    is closed (table/setup_flow.py), and the desk's question says so."""
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Oksana", "Petro")]
    over = ("players Yurii Marko", "race 1", "break A", "shot pots=8")

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        tables = HallTables(club)
        club.client, club.linked = Broker(tables), True
        tables.table("t1", *over, confirmation={"A": True, "B": False, "closed": None})
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
        try:
            made = await http.post("/api/tournaments", json={"players": ids}, headers=staff)
            tid = (await made.json())["id"]
            send = f"/api/tournaments/{tid}/games/W1-1/send"
            asked = await http.post(send, json={"table": "t1"}, headers=staff)
            said = await asked.json()
            assert asked.status == 409 and said["ask"] == "next_match", said
            assert said["message"].startswith("Table 1: Yurii v Marko confirming the result. ")
            assert "starts it as soon as their result is closed" in said["message"]
            assert club.client.sent == []
            closed = {"A": True, "B": True, "closed": "confirmed"}
            tables.state("t1", *over, confirmation=closed)  # free now: it goes by itself
            assert club.client.sent == [("t1", f"T{tid}-W1-1")]
        finally:
            await http.close()

    asyncio.run(main())
