"""Every write the club takes is the staff's (issue 22's Done-when): each route that is not a
GET, found from the club's own router so a new one cannot be missed, refuses a write without
the staff password (401) and one from another site's page even with it (403), and changes
nothing; the players' pages and every other read take no write at all."""

import asyncio

from aiohttp.test_utils import TestClient, TestServer
from test_club_players import STAFF

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE

FILL = {"id": "1", "game": "W1-1", "table": "t1"}


def writes(app) -> list[tuple[str, str]]:
    out = []
    for route in app.router.routes():
        info = route.resource.get_info() if route.resource else {}
        path = info.get("formatter") or info.get("path")
        if route.method not in ("GET", "HEAD", "*") and path:
            out.append((route.method, path.format(**FILL)))
    return out


def test_every_write_needs_the_staff_password_and_the_clubs_own_page(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, n) for n in ("Олена", "Тарас")]
    tournaments.create(engine, "Friday", SINGLE, ids, draw_seed=1)

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        own = {"Origin": f"http://{http.host}:{http.port}"}
        found = writes(http.app)
        answers = []
        try:
            for method, path in found:
                bare = await http.request(method, path, json={}, headers=own)
                other = {**STAFF, "Origin": "http://evil.example"}
                foreign = await http.request(method, path, json={}, headers=other)
                answers.append((method, path, bare.status, foreign.status))
            for path in ("/players", "/player/1", "/api/players/1"):
                answers.append(("POST", path, (await http.post(path, headers=own)).status, None))
        finally:
            await http.close()
        return found, answers

    found, answers = asyncio.run(main())
    paths = {p for _, p in found}
    assert {"/api/tournaments", "/api/players", "/api/tournaments/1/games/W1-1/result"} <= paths
    assert len(found) >= 10, found  # the assign, players', tournaments' and staff's writes
    for method, path, bare, foreign in answers:
        if foreign is None:
            assert bare == 405, (path, bare)  # a player's page reads only
        else:
            assert (bare, foreign) == (401, 403), (method, path, bare, foreign)
    assert tournaments.history(engine, 1) == [] and len(players.roster(engine)) == 2
