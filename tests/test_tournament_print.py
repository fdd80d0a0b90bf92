"""A tournament printed as a bracket on one A4 page (issue 22): Debian's chromium, driven by
Playwright, prints /tournament/<id>/print to PDF (A4): one page for 64 players in double
elimination and for 8. `UPDATE_GALLERY=1` saves the 64 players' page as
docs/gallery/web/tournament-print.png."""

import os
import re

import pytest
from aiohttp import web
from browser import chromium
from test_club_browser import GALLERY

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import DOUBLE, SINGLE


def pages(pdf: bytes) -> int:
    """The pages of a PDF as chromium writes it: its page objects."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize(("count", "kind"), [(64, DOUBLE), (8, SINGLE)])
@pytest.mark.asyncio
async def test_a_bracket_prints_on_one_a4_page(tmp_path, count, kind):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, f"Гравець{n}"[:12]) for n in range(1, count + 1)]
    tid = tournaments.create(engine, "Friday Cup", kind, ids, draw_seed=1)

    async def body():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        runner = web.AppRunner(club.app())
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        try:
            async with chromium() as browser:
                page = await browser.new_page()
                await page.goto(f"http://127.0.0.1:{port}/tournament/{tid}/print")
                await page.wait_for_selector("body[data-fitted]", state="attached")
                games = await page.locator(".game").count()
                await page.emulate_media(media="print")
                pdf = await page.pdf(format="A4", prefer_css_page_size=True)
                if os.environ.get("UPDATE_GALLERY") and count == 64:
                    await page.set_viewport_size({"width": 1062, "height": 733})
                    await page.screenshot(path=str(GALLERY / "tournament-print.png"))
                await browser.close()
        finally:
            await runner.cleanup()
        return games, pdf

    games, pdf = await body()
    assert games == len(tournaments.load(engine, tid).bracket.games)
    assert pages(pdf) == 1
