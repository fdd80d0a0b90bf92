"""A player's page and the hall's QR code in a real browser (issue 22): Debian's chromium
through Playwright, the club's server on loopback. The QR code on the hall page, as a phone's
camera reads it (zxing-cpp from the screen), leads to the players' pages at the address the
browser used; a player's page fits a phone and says where they play next.
`UPDATE_GALLERY=1` saves the player's page to docs/gallery/web/player.png."""

import io
import os

import pytest
import zxingcpp
from aiohttp import web
from browser import chromium
from helpers import PATIENCE
from PIL import Image
from test_club_player_pages import Tables
from test_club_ratings import keep

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.club.tournament_runner import TournamentRunner
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE

GALLERY = os.path.join(os.path.dirname(__file__), "..", "docs", "gallery", "web")
PHONE = {"width": 360, "height": 740}


@pytest.mark.asyncio
async def test_the_halls_qr_code_leads_a_phone_to_a_players_page(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    names = ["Олена", "Тарас", "Ія", "Петро"]
    ids = [players.add(engine, n, full_name=f"{n} Коваль") for n in names]
    for hour, (a, b, frames) in enumerate(
        [("Олена", "Тарас", (3, 1)), ("Ія", "Петро", (2, 3)), ("Олена", "Петро", (3, 0))], 9
    ):
        keep(engine, a, b, frames, hour=hour, table="t2")
    tid = tournaments.create(engine, "Friday Cup", SINGLE, ids)  # by rating: Олена first

    async def body():
        club = Club(book=ResultBook(tmp_path / "book"), database=engine)
        tables = Tables("t4")
        runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
        club.desk.runners[tid] = runner
        runner.dispatch()  # W1-1 (Олена's) goes to table t4
        served = web.AppRunner(club.app())
        await served.setup()
        site = web.TCPSite(served, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        try:
            async with chromium() as browser:
                hall = await browser.new_page(viewport={"width": 1920, "height": 1080})
                hall.set_default_timeout(PATIENCE * 1000)
                await hall.goto(f"http://127.0.0.1:{port}/")
                qr = hall.locator("a.qr img")
                await hall.wait_for_function("document.querySelector('a.qr img').naturalWidth > 0")
                shot = Image.open(io.BytesIO(await qr.screenshot())).convert("L")
                (read,) = zxingcpp.read_barcodes(shot)
                assert read.text == f"http://127.0.0.1:{port}/players"
                phone = await browser.new_page(viewport=PHONE)
                phone.set_default_timeout(PATIENCE * 1000)
                await phone.goto(read.text)
                await phone.click("text=Олена")
                await phone.wait_for_selector("ul.next")
                assert "now at table t4" in await phone.locator("ul.next").inner_text()
                assert await phone.locator("table.matches tr").count() == 3  # head + 2
                width = await phone.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], width
                if os.environ.get("UPDATE_GALLERY"):
                    await phone.screenshot(path=os.path.join(GALLERY, "player.png"))
                await browser.close()
        finally:
            await served.cleanup()

    await body()
