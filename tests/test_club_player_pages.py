"""The players' own pages (scoreboard/club/player_pages.py, issue 22), on SQLite and on
PostgreSQL: the players with their ratings, one player's rating, history, last matches and
where they play next, read by anyone; the hall TV's QR code to them."""

import asyncio

from aiohttp.test_utils import TestClient, TestServer
from test_club_ratings import keep

from scoreboard.club.results import ResultBook
from scoreboard.club.server import STATIC, Club
from scoreboard.club.tournament_runner import TournamentRunner
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE
from scoreboard.desk.ratings import replay


class Tables:
    """Two tables as the hall sees them, and the assigns a runner sends them."""

    def __init__(self, *names):
        self.tables = {n: {"table": n, "online": True, "status": "idle"} for n in names}

    def views(self):
        return list(self.tables.values())

    def assign(self, table, settings, aid):
        self.tables[table] |= {"assign": {"id": aid, **settings}, "status": "playing"}


def test_who_plays_next_where_waiting_for_a_table_or_for_the_opponent(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n}") for n in range(1, 5)]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, draw_seed=1)
    tables = Tables("t1")
    runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
    runner.dispatch()  # one table: W1-1 goes out, W1-2 waits
    b = tournaments.load(engine, tid).bracket
    (a1, b1), (a2, b2) = b.sides("W1-1"), b.sides("W1-2")
    assert runner.next_for(a1) | {"tournament": 0} == {
        "tournament": 0,
        "tournament_name": "Friday",
        "game": "W1-1",
        "stage": "W",
        "round": 1,
        "opponent": b1,
        "table": "t1",
    }
    assert (runner.next_for(b2)["opponent"], runner.next_for(b2)["table"]) == (a2, None)
    tables.tables["t1"]["status"] = "idle"
    runner.result(
        {
            "table": "t1",
            "finished": True,
            "assign": f"T{tid}-W1-1",
            "winner": "A",
            "frames": {"A": 1, "B": 0},
            "players": {"A": a1, "B": b1},
        }
    )
    assert runner.next_for(b1) is None  # out
    assert (runner.next_for(a1)["game"], runner.next_for(a1)["opponent"]) == ("W2-1", None)


def run(body, tmp_path, engine):
    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            await body(club, http)
        finally:
            await http.close()

    asyncio.run(main())


def test_anyone_reads_the_players_and_a_players_page(tmp_path, database_url):
    engine = open_database(database_url)
    olena, taras, bo = (players.add(engine, n) for n in ("Олена", "Taras", "<b>Bo"))
    keep(engine, "Олена", "Taras", (3, 0), hour=10, table="t2")
    keep(engine, "Taras", "Олена", (2, 1), hour=11, table="t2")
    tid = tournaments.create(engine, "Friday", SINGLE, [olena, taras])
    tables = Tables("t1")

    async def body(club, http):
        runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
        club.desk.runners[tid] = runner
        runner.dispatch()
        listed = await http.get("/players")
        assert listed.status == 200
        text = await listed.text()
        assert "script-src 'none'" in listed.headers["Content-Security-Policy"]
        assert text.index("Олена") < text.index("Taras") < text.index("&lt;b&gt;Bo")
        assert "<b>Bo" not in text  # a name is text, never markup
        data = await (await http.get(f"/api/players/{olena}")).json()
        expected = replay([("Олена", "Taras", 3, 0), ("Taras", "Олена", 2, 1)])[0]
        assert data["rating"] == round(expected["Олена"])
        assert [m["opponent"] for m in data["last_matches"]] == ["Taras", "Taras"]
        assert [m["frames"] for m in data["last_matches"]] == [[1, 2], [3, 0]]
        assert data["history"][-1]["rating"] == data["last_matches"][0]["after"]
        assert data["next"] == [
            {
                "tournament": tid,
                "tournament_name": "Friday",
                "game": "W1-1",
                "stage": "W",
                "round": 1,
                "opponent": "Taras",
                "table": "t1",
                "table_name": "t1",
            }
        ]
        page = await (await http.get(f"/player/{olena}")).text()
        assert "now at table t1" in page and f"rating {data['rating']}" in page
        assert "no game in play" in await (await http.get(f"/player/{bo}")).text()
        assert (await http.get("/player/999")).status == 404
        assert (await http.get("/api/players/nobody")).status == 404

    run(body, tmp_path, engine)


def test_the_hall_shows_a_qr_code_to_the_players_pages_at_its_own_address(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")

    async def body(club, http):
        qr = await http.get("/players-qr.svg", headers={"Host": "club.local:8090"})
        assert qr.content_type == "image/svg+xml"
        assert "<title>http://club.local:8090/players</title>" in await qr.text()

    run(body, tmp_path, engine)
    hall = (STATIC / "hall.html").read_text(encoding="utf-8")
    assert '<a class="qr" href="/players"><img src="/players-qr.svg"' in hall
