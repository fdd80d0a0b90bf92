"""The staff's desk page (issue 22): the club's players and its tournaments, in a real browser
(Playwright driving Debian's chromium, under the page's own content security policy). Staff
add players and start a tournament from it with the staff password; anyone lists the
tournaments."""

import contextlib

import pytest
from aiohttp import web
from browser import chromium
from helpers import PATIENCE
from test_club_players import run
from test_club_updates import Broker

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import DOUBLE, SINGLE


@contextlib.asynccontextmanager
async def staff_browser(club: Club):
    """The club's server on a loopback port and a chromium page that gives the staff password
    when asked: (page, the club's address)."""
    runner = web.AppRunner(club.app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
    try:
        async with chromium() as browser:
            context = await browser.new_context(
                http_credentials={"username": "staff", "password": "cue"}
            )
            page = await context.new_page()
            page.set_default_timeout(PATIENCE * 1000)
            yield page, url
            await browser.close()
    finally:
        await runner.cleanup()


def test_anyone_lists_the_tournaments_newest_first_with_their_champions(tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in ("Олена", "Тарас", "Ія")]
    first = tournaments.create(engine, "Monday", SINGLE, ids[:2], draw_seed=1)
    tournaments.record(engine, first, "W1-1", "Тарас", frames=(0, 2), by="staff")
    second = tournaments.create(engine, "Friday", DOUBLE, ids, draw_seed=2)

    async def body(http, staff):
        listed = (await (await http.get("/api/tournaments")).json())["tournaments"]
        assert [(t["id"], t["name"], t["players"], t["champion"]) for t in listed] == [
            (second, "Friday", 3, None),
            (first, "Monday", 2, "Тарас"),
        ]
        assert listed[0]["format"] == DOUBLE and listed[0]["created"]

    run(body, tmp_path, engine)


@pytest.mark.asyncio
async def test_staff_add_players_and_start_a_tournament_from_the_desk(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    players.add(engine, "Олена")

    async def body():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        async with staff_browser(club) as (page, url):
            await page.goto(f"{url}/desk")
            for name in ("Тарас", "Ія", "Петро"):
                await page.fill("#add [name=name]", name)
                await page.click("#add button")
                await page.wait_for_selector(f"#entrants label:has-text('{name}')")
            await page.fill("#create [name=name]", "Friday Cup")
            await page.select_option("#create [name=format]", "groups")
            await page.fill("#create [name=final_race]", "3")
            await page.select_option("#create [name=penalty]", "american")
            await page.fill("#create [name=draw]", "2026")
            for box in await page.query_selector_all("#entrants input"):
                await box.check()
            await page.click("#create button")
            await page.wait_for_url("**/tournament/*")
            await page.goto(f"{url}/desk")
            await page.wait_for_selector("#tournaments li:has-text('Friday Cup')")
            listed = await page.inner_text("#tournaments")
        return listed

    listed = await body()
    (made,) = tournaments.listed(engine)
    t = tournaments.load(engine, made["id"])
    assert (t.name, t.format, t.draw_seed) == ("Friday Cup", "groups", 2026)
    assert t.settings["race"] == {"*": 2, "final": 3}
    assert t.settings["options"] == {"penalty": "american", "jumped-ball": "foul"}
    assert sorted(t.bracket.players) == sorted(["Олена", "Тарас", "Ія", "Петро"])
    assert "4 players, in play" in listed


@pytest.mark.asyncio
async def test_staff_give_a_walkover_and_correct_a_result_on_the_tournaments_desk_page(tmp_path):
    """A player missing: the staff give the game to the other from the tournament's page at
    the desk, then correct it; each change kept with who made it."""
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, n) for n in ("Олена", "Тарас", "Ія", "Петро")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, draw_seed=5)
    a, b = tournaments.load(engine, tid).bracket.sides("W1-1")

    async def body():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        club.desk.start()
        async with staff_browser(club) as (page, url):
            await page.goto(f"{url}/desk/tournament/{tid}")
            await page.fill("#by", "Ann")
            await page.dispatch_event("#by", "change")
            row = "#game-W1-1"
            await page.click(f"{row} button:has-text('{b}')")  # a is missing: b goes on
            await page.wait_for_selector(f"{row} .where:has-text('{b} won')")
            await page.select_option(f"{row} select >> nth=-1", a)  # it was a after all
            inputs = await page.query_selector_all(f"{row} input[type=number]")
            await inputs[0].fill("2")
            await inputs[1].fill("1")
            await page.click(f"{row} button:has-text('save')")
            await page.wait_for_selector(f"{row} .where:has-text('{a} won 2:1')")

    await body()
    history = tournaments.history(engine, tid)
    assert [(h["winner"], h["walkover"], h["by"]) for h in history] == [
        (b, True, "staff Ann"),
        (a, False, "staff Ann"),
    ]
    assert tournaments.load(engine, tid).bracket.results["W1-1"].frames == (2, 1)


@pytest.mark.asyncio
async def test_staff_send_an_update_from_the_desk_and_see_each_tables_version(tmp_path):
    # Issue 23: the update reaches the tables from the club's desk (tests/test_club_updates.py
    # follows it to a table); the desk lists the version each table says it runs.
    bundle = tmp_path / "scoreboard-0.2.0-arm64.raucb"
    bundle.write_bytes(b"a signed update" * 1000)

    async def body():
        club = Club(
            book=ResultBook(tmp_path / "book"),
            staff_password="cue",
            updates_dir=tmp_path / "updates",
        )
        club.client, club.linked = broker, True
        club.take("fp/v1/t1/info", b'{"name": "Table 1", "version": "0.1.0"}')
        club.take("fp/v1/t1/availability", b"online")
        async with staff_browser(club) as (page, url):
            await page.goto(f"{url}/desk")
            await page.wait_for_selector("#versions td:has-text('0.1.0')")
            await page.set_input_files("#update [name=file]", str(bundle))
            await page.click("#update button")
            await page.wait_for_selector("#offered:not(:empty)")
            said = await page.text_content("#offered")
            assert "offered to every table" in said, said
            await page.wait_for_selector("#versions td:has-text('to 0.2.0 between matches')")

    broker = Broker()
    await body()
    (offer,) = broker.offers
    assert offer["version"] == "0.2.0" and offer["size"] == bundle.stat().st_size
    assert (tmp_path / "updates" / f"{offer['sha256']}.raucb").read_bytes() == bundle.read_bytes()
