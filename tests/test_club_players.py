"""The club's players over HTTP (scoreboard/club/players_api.py, issue 22), on SQLite and on
PostgreSQL: anyone reads the roster, staff add, rename and merge from the club's own page."""

import asyncio

from aiohttp.test_utils import TestClient, TestServer

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb.database import open_database

STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue


def run(body, tmp_path, database):
    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=database)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            await body(http, {**STAFF, "Origin": f"http://{http.host}:{http.port}"})
        finally:
            await http.close()

    asyncio.run(main())


def test_staff_add_rename_and_merge_players_and_anyone_reads_the_roster(tmp_path, database_url):
    async def body(http, staff):
        added = await http.post(
            "/api/players", json={"name": "Олена", "nickname": "Cue"}, headers=staff
        )
        assert added.status == 201
        olena = (await added.json())["id"]
        twin = (
            await (await http.post("/api/players", json={"name": "Olena"}, headers=staff)).json()
        )["id"]
        again = await http.post("/api/players", json={"name": "ОЛЕНА"}, headers=staff)
        assert again.status == 400 and "a player already" in await again.text()
        renamed = await http.post(
            f"/api/players/{olena}/rename", json={"name": "Олена К"}, headers=staff
        )
        assert renamed.status == 200
        merged = await http.post(f"/api/players/{twin}/merge", json={"into": olena}, headers=staff)
        assert merged.status == 200
        roster = await (await http.get("/api/players")).json()  # no password: anyone reads
        assert roster == {
            "players": [{"id": olena, "name": "Олена К", "full_name": "", "nickname": "Cue"}]
        }

    run(body, tmp_path, open_database(database_url))


def test_every_change_of_the_players_is_published_for_the_tables(tmp_path):
    """Issue 22: the club publishes its roster; every table's setup screen lists it."""
    published = []

    class Client:
        def roster(self, names):
            published.append(names)

    async def main():
        club = Club(
            book=ResultBook(tmp_path / "book"),
            staff_password="cue",
            database=open_database(f"sqlite:///{tmp_path}/club.db"),
        )
        club.client, club.linked = Client(), True
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
        try:
            for name in ("Тарас", "Олена"):
                await http.post("/api/players", json={"name": name}, headers=staff)
        finally:
            await http.close()

    asyncio.run(main())
    assert published == [["Тарас"], ["Олена", "Тарас"]]


def test_a_players_write_needs_the_staff_and_the_clubs_own_page(tmp_path):
    async def body(http, staff):
        origin = {"Origin": staff["Origin"]}
        assert (
            await http.post("/api/players", json={"name": "Olena"}, headers=origin)
        ).status == 401
        other = {**STAFF, "Origin": "http://evil.example"}
        assert (
            await http.post("/api/players", json={"name": "Olena"}, headers=other)
        ).status == 403
        assert (await (await http.get("/api/players")).json()) == {"players": []}

    run(body, tmp_path, open_database(f"sqlite:///{tmp_path}/club.db"))


def test_without_a_database_the_players_say_what_to_install(tmp_path, monkeypatch):
    """Without the desk extra the club's database cannot even be imported: every players' and
    tournaments' endpoint says what to install (a new user's trial found 500s)."""
    import sys

    for module in ("scoreboard.clubdb.players", "scoreboard.clubdb.tournaments"):
        monkeypatch.setitem(sys.modules, module, None)  # as if SQLAlchemy were not installed

    async def body(http, staff):
        for method, path in (
            ("GET", "/api/players"),
            ("POST", "/api/players"),
            ("GET", "/api/tournaments/1"),
            ("POST", "/api/tournaments"),
        ):
            response = await http.request(method, path, json={"name": "Olena"}, headers=staff)
            assert response.status == 503, (method, path)
            assert "pip install '.[desk]'" in await response.text()

    run(body, tmp_path, None)


def test_a_database_the_club_has_no_driver_for_is_said_in_words(tmp_path):
    import pytest

    from scoreboard.commands import UsageError
    from scoreboard.commands.club import open_club_database

    with pytest.raises(UsageError, match="cannot open the club's database mysql://"):
        open_club_database("mysql://club@localhost/club")


def test_scoreboard_club_keeps_its_players_in_the_data_folder_by_default(tmp_path):
    from scoreboard.commands.club import open_club_database

    engine = open_club_database(f"sqlite:///{tmp_path}/club.db")
    assert engine is not None and (tmp_path / "club.db").exists()
