"""The hall TV's bracket in a real browser (issue 22): Playwright driving Debian's chromium,
the club's server on a real Mosquitto with four tables online, a double elimination started
by the staff. Its first games go to the four tables; results arrive as the tables send them
(each carrying its assign's id); the page moves the bracket on without a reload.
`UPDATE_GALLERY=1` saves it to docs/gallery/web/tournament.png (the README shows it)."""

import json
import os

import paho.mqtt.client as paho
import pytest
from browser import chromium
from helpers import PATIENCE, until
from mqtt_table import approve_table_keys, match_lines, state_message
from test_club_browser import GALLERY, serve_club, table_publisher

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players
from scoreboard.clubdb.database import open_database
from scoreboard.core.matchlog import replay
from scoreboard.core.summary import summarise
from scoreboard.mqtt.results import payload
from scoreboard.signing import signature
from scoreboard.signing.table_key import load_or_make

STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue
NAMES = ["Олена", "Тарас", "Ія", "Петро", "Марко", "Софія", "Богдан", "Ірина"]


def table_result(table: str, assign: str, a: str, b: str, started: str) -> dict:
    """What a table sends when A has won the match it was assigned (its result payload)."""
    lines = match_lines(started, a, b, pots=(3, 5))
    lines.insert(1, f"# setup for={assign}")
    return payload(table, {"number": None, **summarise(replay(lines), lines), "archived": False})


@pytest.mark.asyncio
async def test_the_bracket_moves_on_as_the_tables_results_arrive(broker, tmp_path):
    async def body():
        engine = open_database(f"sqlite:///{tmp_path}/club.db")
        ids = [players.add(engine, n) for n in NAMES]
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        client, runner, port = await serve_club(club, broker)
        publishers = []
        for n in range(1, 5):
            publisher = table_publisher(broker, tmp_path, f"t{n}", f"Table {n}")
            publisher.take(state_message(["players A B", "race 1"]))  # idle: the lag
            publishers.append(publisher)
        await until(lambda: len(club.hall.tables) == 4 and club.linked, what="four tables")
        approve_table_keys(engine, {f"t{n}": tmp_path / f"t{n}" for n in range(1, 5)})
        import aiohttp

        async with aiohttp.ClientSession() as http:
            origin = {"Origin": f"http://127.0.0.1:{port}", **STAFF}
            body = {
                "name": "Friday Cup",
                "format": "double",
                "players": ids,
                "race": 2,
                "draw_seed": 20261204,
            }
            async with http.post(
                f"http://127.0.0.1:{port}/api/tournaments", json=body, headers=origin
            ) as r:
                assert r.status == 201, await r.text()
                created = await r.json()
        tid = created["id"]
        await until(
            lambda: all(club.hall.tables[f"t{n}"].assign for n in range(1, 5)),
            what="the assigns retained",
        )

        table_mqtt = paho.Client(paho.CallbackAPIVersion.VERSION2)
        table_mqtt.connect("127.0.0.1", broker.port)
        table_mqtt.loop_start()
        async with chromium() as browser:
            page = await browser.new_page(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
            page.set_default_timeout(PATIENCE * 1000)
            await page.goto(f"http://127.0.0.1:{port}/tournament/{tid}")
            await page.wait_for_function("document.querySelectorAll('.game.playing').length == 4")
            # Above the bracket: each game at its table, waiting for the players' press...
            await page.wait_for_function("document.querySelectorAll('#live .waiting').length == 4")
            # ...then live, as the table's own card has it, once the players have started.
            a, b = club.hall.tables["t1"].assign["players"]
            lines = match_lines("2026-12-04T09:00:00Z", a, b, pots=(3,))
            publishers[0].take(state_message(lines))
            score = replay(lines).snapshot()["score"]
            await page.wait_for_function("document.querySelectorAll('#live .playing').length == 1")
            live = await page.inner_text("#live .playing")
            game = club.hall.tables["t1"].assign["id"].split("-", 1)[1]
            assert "Table 1" in live and game in live and a in live and b in live
            assert f"{score['A']} : {score['B']}" in live and score != {"A": 0, "B": 0}
            publishers[0].take(state_message(["players A B", "race 1"]))  # over: idle again
            # The tables finish: A wins each first-round game; the results carry the assigns.
            for n, table in enumerate(("t1", "t2", "t3", "t4")):
                assign = club.hall.tables[table].assign
                a, b = assign["players"]
                result = table_result(table, assign["id"], a, b, f"2026-12-04T1{n}:00:00Z")
                result = signature.sign(result, load_or_make(tmp_path / table))  # issue 34
                table_mqtt.publish(
                    f"fp/v1/{table}/result/{result['match_id']}",
                    json.dumps(result),
                    qos=1,
                    retain=True,
                )
            await page.wait_for_function("document.querySelectorAll('.seat.won').length == 4")
            await page.wait_for_function("document.querySelectorAll('.game.playing').length == 4")
            text = await page.inner_text("#bracket")
            assert "Winners" in text and "Losers" in text and "Final" in text
            if os.environ.get("UPDATE_GALLERY"):
                GALLERY.mkdir(parents=True, exist_ok=True)
                await page.screenshot(path=str(GALLERY / "tournament.png"))
            await browser.close()
        table_mqtt.loop_stop()
        for publisher in publishers:
            publisher.stop()
        client.stop()
        await runner.cleanup()

    await body()


@pytest.mark.asyncio
async def test_the_groups_tables_on_the_hall_page(tmp_path):
    """Groups then a knockout: the page shows each group's table as it stands and the groups'
    games by round, before the knockout is known."""
    from aiohttp.test_utils import TestServer

    from scoreboard.clubdb import tournaments

    async def body():
        engine = open_database(f"sqlite:///{tmp_path}/club.db")
        ids = [players.add(engine, n) for n in NAMES]
        settings = {"groups": 2, "qualify": 2, "race": 2}
        tid = tournaments.create(engine, "Cup", "groups", ids, settings=settings, draw_seed=4)
        t = tournaments.load(engine, tid)
        first = t.bracket.ready()[0]
        winner = t.bracket.sides(first.id)[1]
        tournaments.record(engine, tid, first.id, winner, frames=(0, 2))
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        server = TestServer(club.app(), host="127.0.0.1")
        await server.start_server()
        try:
            async with chromium() as browser:
                page = await browser.new_page(viewport={"width": 1920, "height": 1080})
                page.set_default_timeout(PATIENCE * 1000)
                await page.goto(f"http://127.0.0.1:{server.port}/tournament/{tid}")
                # A selector, not a script: under the page's policy (no eval) a predicate
                # string fails as soon as it must be evaluated again (a busy machine).
                await page.wait_for_selector(".group-table >> nth=1")
                rows = await page.eval_on_selector_all(
                    ".group-table tr", "rows => rows.map(r => r.innerText.split('\\t'))"
                )
                text = await page.inner_text("#bracket")
                await browser.close()
        finally:
            await server.close()
        return rows, text, winner

    rows, text, winner = await body()
    assert len(rows) == 2 * 5  # a header and four players a group
    assert rows[1][:3] == [winner, "1", "1"]  # the only winner so far leads their group
    assert "Group 1" in text and "Group 2" in text and "Groups" in text and "Winners" in text
