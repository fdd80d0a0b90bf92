"""The staff's hand on a tournament's games (scoreboard/club/tournament_staff.py, issue 22), on
SQLite and PostgreSQL, through the club's HTTP server: a game that cannot start is moved to
another free table (the old table's assign cleared) or given as a walkover; a result is
entered or corrected at the desk, recorded with who and when, refused (409) when later games
were played on it; a game in play at its table is never taken from it."""

import asyncio
import contextlib

from aiohttp.test_utils import TestClient, TestServer

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database

STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue


class Hall:
    def __init__(self, *names):
        self.tables = {
            n: {"table": n, "name": n, "online": True, "status": "idle", "assign": None}
            for n in names
        }

    def views(self):
        return [dict(v) for v in self.tables.values()]


class Client:
    """The club's broker client: what it published, and the hall sees it come back."""

    def __init__(self, hall):
        self.hall, self.sent = hall, []

    def assign(self, table, settings, *, id=None):
        self.sent.append((table, id if settings is not None else None))
        self.hall.tables[table]["assign"] = None if settings is None else {"id": id, **settings}


@contextlib.asynccontextmanager
async def staffed(tmp_path, engine, hall):
    """The club's server on `engine` with the fake hall and broker client: (club, its HTTP
    client, the staff's headers from the club's own page)."""
    club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
    club.hall, club.client, club.linked = hall, Client(hall), True
    http = TestClient(TestServer(club.app()))
    await http.start_server()
    try:
        yield club, http, {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
    finally:
        await http.close()


def test_staff_move_give_walkovers_and_correct_results(tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Olena", "Taras", "Ivan", "Petro")]
    hall = Hall("t1", "t2", "t3", "t4")
    hall.tables["t4"]["online"] = False

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        club.hall, club.client, club.linked = hall, Client(hall), True
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}

        async def post(path, body, status, words=""):
            response = await http.post(path, json=body, headers=staff)
            text = await response.text()
            assert response.status == status and words in text, (path, body, text)
            return await response.json() if status == 200 else text

        try:
            made = await http.post(
                "/api/tournaments",
                json={"players": ids, "draw_seed": 1, "tables": ["t1", "t2", "t3", "t4"]},
                headers=staff,
            )
            tid = (await made.json())["id"]
            assert club.client.sent == [("t1", f"T{tid}-W1-1"), ("t2", f"T{tid}-W1-2")]
            t = tournaments.load(engine, tid)
            a1, b1 = t.bracket.sides("W1-1")
            a2, _ = t.bracket.sides("W1-2")
            game = f"/api/tournaments/{tid}/games"

            # a staff write only
            origin = {"Origin": staff["Origin"]}
            for action in ("walkover", "move", "result"):
                refused = await http.post(f"{game}/W1-1/{action}", json={}, headers=origin)
                assert refused.status in (401, 403), action
            await post(f"{game}/W9-9/walkover", {"winner": a1}, 404, "no game 'W9-9'")

            # in play at its table: the table's to finish
            playing = {"status": "playing", "busy": "playing", "players": {"A": a1, "B": b1}}
            hall.tables["t1"] |= playing
            await post(f"{game}/W1-1/walkover", {"winner": a1}, 409, "in play at table t1")
            await post(f"{game}/W1-1/move", {"table": "t3"}, 409, "in play at table t1")
            hall.tables["t1"] |= {"status": "idle", "busy": None}  # not started: one is missing

            # moved: never to a table that is off or holds another game
            await post(f"{game}/W1-1/move", {"table": "t4"}, 409, "t4 is not free")
            await post(f"{game}/W1-1/move", {"table": "t2"}, 409, "t2 is not free")
            club.client.sent.clear()
            moved = await post(f"{game}/W1-1/move", {"table": "t3", "by": "Ira"}, 200)
            assert (moved["from"], moved["to"]) == ("t1", "t3")
            assert club.client.sent == [("t1", None), ("t3", f"T{tid}-W1-1")]
            assert hall.tables["t1"]["assign"] is None

            # given as a walkover: its table cleared, recorded with who
            club.client.sent.clear()
            await post(f"{game}/W1-1/walkover", {"winner": "Nobody"}, 400, "winner:")
            given = await post(f"{game}/W1-1/walkover", {"winner": b1, "by": "Ira"}, 200)
            assert given["cleared"] == "t3" and club.client.sent == [("t3", None)]
            await post(f"{game}/W1-1/walkover", {"winner": a1}, 409, "is decided")

            # a result entered at the desk moves the bracket on: the final goes out
            await post(f"{game}/W1-2/result", {"winner": a2, "frames": [0, 2]}, 400, "frames:")
            await post(f"{game}/W1-2/result", {"winner": a2, "frames": [2, 2]}, 400, "frames:")
            club.client.sent.clear()
            entered = await post(f"{game}/W1-2/result", {"winner": a2, "frames": [2, 1]}, 200)
            assert entered["cleared"] == "t2"
            assert club.client.sent[0] == ("t2", None)
            assert [s for _, s in entered["sent"]] == ["W2-1"]

            # corrected: the frames of a game while the next is out, the same players in it...
            await post(f"{game}/W1-2/result", {"winner": a2, "frames": [2, 0], "by": "Ira"}, 200)
            assert tournaments.load(engine, tid).bracket.results["W1-2"].frames == (2, 0)
            # ...but not its winner: the table would play the wrong final (found in review)
            fixed = {"winner": a1, "frames": [2, 0], "by": "Ira"}
            await post(f"{game}/W1-1/result", fixed, 409, "W2-1 is out at table t1")
            assert tournaments.load(engine, tid).bracket.sides("W2-1")[0] == b1
            final = tournaments.load(engine, tid).bracket.sides("W2-1")
            await post(f"{game}/W2-1/result", {"winner": final[0], "frames": [2, 0]}, 200)
            await post(f"{game}/W1-1/result", fixed, 409, "W2-1 played since")
            return tid, a1, b1
        finally:
            await http.close()

    tid, a1, b1 = asyncio.run(main())
    history = [
        (h["game"], h["winner"], h["walkover"], h["by"]) for h in tournaments.history(engine, tid)
    ]
    assert history[:2] == [("W1-1", b1, True, "staff Ira"), ("W1-2", history[1][1], False, "staff")]
    assert history[2] == ("W1-2", history[1][1], False, "staff Ira")  # its frames corrected
    assert len(history) == 4  # the refused corrections wrote nothing
    assert all(h["at"] is not None for h in tournaments.history(engine, tid))
    assert tournaments.load(engine, tid).bracket.champion() == b1


def test_a_tournament_played_on_confirm_proposes_its_games_and_staff_send_them(
    tmp_path, database_url
):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Olena", "Taras", "Ivan", "Petro")]
    hall = Hall("t1", "t2", "t3")

    async def main():
        async with staffed(tmp_path, engine, hall) as (club, http, staff):
            body = {"players": ids, "draw_seed": 1, "dispatch": "confirm"}
            made = await (await http.post("/api/tournaments", json=body, headers=staff)).json()
            tid = made["id"]
            assert made["sent"] == [] and club.client.sent == []  # nothing goes by itself
            shown = await (await http.get(f"/api/tournaments/{tid}")).json()
            assert [(p["game"], p["table_id"]) for p in shown["proposed"]] == [
                ("W1-1", "t1"),
                ("W1-2", "t2"),
            ]
            game = f"/api/tournaments/{tid}/games"
            sent = await http.post(f"{game}/W1-1/send", json={"by": "Ira"}, headers=staff)
            assert sent.status == 200 and (await sent.json())["to"] == "t1"
            other = await http.post(f"{game}/W1-2/send", json={"table": "t3"}, headers=staff)
            assert other.status == 200, await other.text()
            again = await http.post(f"{game}/W1-1/send", json={}, headers=staff)
            assert again.status == 409 and "not waiting" in await again.text()
            assert club.client.sent == [("t1", f"T{tid}-W1-1"), ("t3", f"T{tid}-W1-2")]
            shown = await (await http.get(f"/api/tournaments/{tid}")).json()
            assert shown["proposed"] == [] and shown["at"] == {"W1-1": "t1", "W1-2": "t3"}

    asyncio.run(main())


def test_a_corrected_grand_final_that_wants_a_second_one_sends_it(tmp_path, database_url):
    """Found in review: the tournament was over, so it had no runner; a correction of the
    grand final that made the losers' champion win it left the second final unsent."""
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Olena", "Taras")]
    tid = tournaments.create(engine, "Cup", "double", ids, draw_seed=1)
    a, b = tournaments.load(engine, tid).bracket.sides("W1-1")
    tournaments.record(engine, tid, "W1-1", a, frames=(2, 0), table="t1", by="table t1")
    assert tournaments.load(engine, tid).bracket.sides("GF") == (a, b)
    tournaments.record(engine, tid, "GF", a, frames=(2, 1), table="t1", by="table t1")
    assert tournaments.load(engine, tid).bracket.champion() == a
    hall = Hall("t1", "t2")

    async def main():
        async with staffed(tmp_path, engine, hall) as (club, http, staff):
            club.desk.start()  # the tournament is over: nothing to play on
            fixed = {"winner": b, "frames": [1, 2], "by": "Ira"}
            r = await http.post(
                f"/api/tournaments/{tid}/games/GF/result", json=fixed, headers=staff
            )
            return r.status, await r.json()

    status, answer = asyncio.run(main())
    assert status == 200 and answer["sent"] == [["t1", "GF2"]], answer
    assert tournaments.load(engine, tid).bracket.champion() is None  # GF2 decides it now


def test_a_result_that_came_first_is_never_overwritten_unseen(database_url):
    """Found in review: a table's result and a staff's walkover at once; whichever is written
    second finds the game decided and writes nothing (Changed), in the database's lock."""
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Olena", "Taras")]
    tid = tournaments.create(engine, "Cup", "single", ids, draw_seed=1)
    a, b = tournaments.load(engine, tid).bracket.sides("W1-1")
    tournaments.record(engine, tid, "W1-1", a, frames=(2, 1), by="table t1", expect=None)
    try:
        tournaments.record(engine, tid, "W1-1", b, walkover=True, by="staff", expect=None)
    except tournaments.Changed as exc:
        assert "decided meanwhile" in str(exc)
    else:
        raise AssertionError("the walkover overwrote the table's result")
    assert [h["winner"] for h in tournaments.history(engine, tid)] == [a]
    kept = tournaments.load(engine, tid).bracket.results["W1-1"]
    tournaments.record(engine, tid, "W1-1", b, frames=(1, 2), by="staff", expect=kept)  # seen
    assert tournaments.load(engine, tid).bracket.champion() == b
