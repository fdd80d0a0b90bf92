"""A paired phone lists the club's players (issue 22): `GET /api/roster` on the table's
`scoreboard net` gives the names its setup screen offers (the club's roster, fp/club/roster,
kept in setup.json; else the config's; then the names used recently), and the phone's setup
form offers them, in a real browser with a real table."""

import asyncio

import pytest
from browser import chromium
from helpers import PATIENCE
from test_browser_pairing import WAIT, a, paired_page, served  # noqa: F401 (a: a fixture)

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.core.settings import MatchSettings
from scoreboard.net.server import make_app
from scoreboard.store.setup_store import FILE_NAME, Kept, SetupStore

pytestmark = pytest.mark.asyncio


async def test_the_roster_is_the_clubs_else_the_configs_then_the_recent_names(
    tmp_path, aiohttp_client
):
    client = await aiohttp_client(make_app(tmp_path, roster=("Cfg A", "Cfg B")))

    async def roster():
        response = await client.get("/api/roster")
        assert response.status == 200
        return (await response.json())["roster"]

    assert await roster() == ["Cfg A", "Cfg B"]  # nothing kept yet: the config's
    last = MatchSettings(players=("Petro", "Ivan"))
    SetupStore(tmp_path).save(Kept(last=last, recent=("Ivan", "ОЛЕНА")))
    assert await roster() == ["Cfg A", "Cfg B", "Ivan", "ОЛЕНА", "Petro"]
    SetupStore(tmp_path).save(Kept(last=last, recent=("Ivan",), roster=("Олена", "Тарас")))
    assert await roster() == ["Олена", "Тарас", "Ivan", "Petro"]  # the club's, instead
    (tmp_path / FILE_NAME).write_text("{damaged")
    assert await roster() == ["Cfg A", "Cfg B"]
    assert (tmp_path / FILE_NAME).read_text() == "{damaged"  # the table's to set aside


async def test_a_paired_phone_offers_the_clubs_players(a, tmp_path, aiohttp_server):  # noqa: F811
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        # The club's roster as the table's MQTT publisher gives it: the table's roster command.
        async with TableClient(socket_path(tmp_path)) as publisher:
            async with asyncio.timeout(PATIENCE):
                await publisher.wait_connected()
            reply = await publisher.command("roster", roster=["Олена", "Тарас Б"])
            assert reply["ok"], reply
        page = await paired_page(a, browser, url)
        offered = page.locator("#roster option")
        await offered.nth(1).wait_for(state="attached", timeout=WAIT)
        names = await offered.evaluate_all("options => options.map(o => o.value)")
        assert names[:2] == ["Олена", "Тарас Б"]
        for side in ("#player-a", "#player-b"):
            assert await page.get_attribute(side, "list") == "roster"
        await page.fill("#player-b", "Тарас Б")  # picked from the list: sent as it is
        await page.click("#setup-button")
        await page.locator("#message").filter(has_text="this match").wait_for(timeout=WAIT)
        assert a.app.match.snapshot()["players"]["B"] == "Тарас Б"
