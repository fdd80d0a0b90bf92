"""A table that holds a tournament's game not played yet is not the staff's to set up by hand
(issue 22): an assign or a clear from the setup page would overwrite the game's, and the game
would wait for ever at a table that no longer has it. A real Mosquitto, the club's server."""

import asyncio

import aiohttp
from helpers import until
from mqtt_table import state_message
from test_club_browser import serve_club, table_publisher
from test_club_players import STAFF

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE


def test_the_staff_cannot_overwrite_a_tables_tournament_game(broker, tmp_path):
    async def body():
        engine = open_database(f"sqlite:///{tmp_path}/club.db")
        ids = [players.add(engine, n) for n in ("Олена", "Тарас")]
        tid = tournaments.create(
            engine, "Friday", SINGLE, ids, draw_seed=1, settings={"tables": ["t1"]}
        )
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        client, runner, port = await serve_club(club, broker)
        publishers = []
        for n in ("t1", "t2"):
            publisher = table_publisher(broker, tmp_path, n)
            publisher.take(state_message(["players A B", "race 1"]))  # idle: the lag
            publishers.append(publisher)
        await until(lambda: len(club.hall.tables) == 2 and club.linked, what="two tables")
        club.desk.start()
        club.desk.tables_changed()
        await until(lambda: club.hall.tables["t1"].assign, what="the game at t1")
        url, headers = f"http://127.0.0.1:{port}", {**STAFF, "Origin": f"http://127.0.0.1:{port}"}
        casual = {"players": ["Ія", "Петро"], "race": 1}
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{url}/api/tables/t1/assign", json=casual, headers=headers) as r:
                said = (r.status, await r.text())
            async with http.delete(f"{url}/api/tables/t1/assign", headers=headers) as r:
                cleared = r.status
            async with http.post(f"{url}/api/tables/t2/assign", json=casual, headers=headers) as r:
                other = r.status
        assert said[0] == 409 and "game W1-1 of Friday" in said[1], said
        assert cleared == 409 and other == 200
        assert club.hall.tables["t1"].assign["id"] == f"T{tid}-W1-1"
        for publisher in publishers:
            publisher.stop()
        client.stop()
        await runner.cleanup()

    asyncio.run(body())
