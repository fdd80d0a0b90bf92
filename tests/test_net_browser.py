"""The web pages in a real browser (Debian's chromium through Playwright) against the real
server on loopback and a real table (the Appliance on gpiozero's mock pins, as the sim runs
it): the live page follows a button press, says "connection lost", the overlay is transparent.
`SCOREBOARD_GALLERY=1` also writes the screenshots in docs/gallery/web/."""

import asyncio
import dataclasses
import os
from pathlib import Path

import pytest
from bridge_helpers import table, web_config
from browser import chromium
from helpers import PATIENCE, press

from scoreboard.net.server import HUB, TABLE, make_app

pytestmark = pytest.mark.asyncio
GALLERY = Path(__file__).parent.parent / "docs" / "gallery" / "web"
PHONE = {"width": 360, "height": 640}
START = 1_700_000_000_000  # ms since 1970: any fixed moment for a page's stopped clock
LOADED = "!document.getElementById('board').classList.contains('waiting')"


@pytest.fixture
def a(tmp_path):
    config = web_config()
    config = dataclasses.replace(
        config, match=dataclasses.replace(config.match, player_a="Olena", player_b="Taras")
    )
    appliance = table(tmp_path, config)
    yield appliance
    appliance.close()


async def serve(aiohttp_server, state_dir, **kwargs):
    server = await aiohttp_server(make_app(state_dir, lang="en", **kwargs), host="127.0.0.1")
    async with asyncio.timeout(PATIENCE):
        await server.app[TABLE].wait_connected()
    return server, f"http://127.0.0.1:{server.port}"


async def shoot(page, name: str) -> None:
    if os.environ.get("SCOREBOARD_GALLERY"):
        GALLERY.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=GALLERY / name, omit_background=True)


async def test_the_live_page_updates_after_a_button_press_at_the_table(a, tmp_path, aiohttp_server):
    server, url = await serve(aiohttp_server, tmp_path)
    async with chromium() as browser:
        page = await browser.new_page(viewport=PHONE)
        await page.goto(url + "/")
        await page.wait_for_function(LOADED, timeout=PATIENCE * 1000)
        assert await page.inner_text("#headline") == "Who breaks first?"
        pins = a.config.pins
        press(a, pins.player_a)  # lag: A breaks (GR-8.4)
        name_a = a.app.match.snapshot()["players"]["A"]
        await page.wait_for_function(
            f"document.getElementById('headline').textContent === {name_a + ' breaks'!r}",
            timeout=PATIENCE * 1000,
        )
        # The breaker is at the table.
        assert await page.get_attribute("#side-A", "class") == "side striker"
        # Fits a 360 px phone: nothing wider than the screen.
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        await shoot(page, "live.png")
        press(a, pins.foul)  # the break was a foul: what the page says about it (GR-13.2)
        await page.wait_for_function(
            "document.querySelectorAll('#foul li').length > 0", timeout=PATIENCE * 1000
        )
        assert await page.inner_text("#foul li:nth-child(2)") == "+1 Taras: takes ball"
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        await shoot(page, "live-foul.png")


async def test_the_live_page_says_connection_lost_5_s_after_the_last_heartbeat(
    a, tmp_path, aiohttp_server
):
    server, url = await serve(aiohttp_server, tmp_path, heartbeat=3600)  # none comes
    async with chromium() as browser:
        page = await browser.new_page(viewport=PHONE)
        # The page's time, stopped before the page loads: it moves only when the test says.
        # Installed, it flows with real time (a slow page load or test step on a busy machine
        # counted towards the 5 s); pause_at must be ahead of it, so an hour on (the blank
        # page has no timers to run).
        await page.clock.install(time=START)
        await page.clock.pause_at(START + 3_600_000)
        await page.goto(url + "/")
        await page.wait_for_function(LOADED, timeout=PATIENCE * 1000)
        server.app[HUB].current = None  # a reconnect would not hear the state either
        await page.clock.run_for(4500)
        assert await page.is_hidden("#banner")
        await page.clock.run_for(1000)  # 5.5 s without a word from the server
        assert await page.inner_text("#banner") == "Connection lost"


async def test_the_live_page_connects_again_by_itself(a, tmp_path, aiohttp_server):
    server, url = await serve(aiohttp_server, tmp_path)
    async with chromium() as browser:
        page = await browser.new_page(viewport=PHONE)
        await page.goto(url + "/")
        await page.wait_for_function(LOADED, timeout=PATIENCE * 1000)
        hub = server.app[HUB]
        hub.close()  # every stream cut, as by a Wi-Fi drop
        async with asyncio.timeout(PATIENCE):
            while not hub.clients:  # the page is back, on its own
                await asyncio.sleep(0.01)
        press(a, a.config.pins.player_b)
        name_b = a.app.match.snapshot()["players"]["B"]
        await page.wait_for_function(
            f"document.getElementById('headline').textContent === {name_b + ' breaks'!r}",
            timeout=PATIENCE * 1000,
        )


async def test_the_overlay_has_a_transparent_background(a, tmp_path, aiohttp_server):
    server, url = await serve(aiohttp_server, tmp_path)
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1280, "height": 200})
        await page.goto(url + "/overlay?height=72")
        await page.wait_for_selector("#bar:not([hidden])", timeout=PATIENCE * 1000)
        for element in ("document.documentElement", "document.body"):
            colour = await page.evaluate(f"getComputedStyle({element}).backgroundColor")
            assert colour == "rgba(0, 0, 0, 0)"
        box = await page.locator("#bar").bounding_box()
        assert box["height"] == 72 and box["y"] + box["height"] == 200  # the lower third
        picture = await page.screenshot(omit_background=True)
        from io import BytesIO

        from PIL import Image

        image = Image.open(BytesIO(picture)).convert("RGBA")
        assert image.getpixel((5, 5))[3] == 0  # above the bar: nothing drawn
        assert image.getpixel((5, 190))[3] > 0  # the bar
        press(a, a.config.pins.player_a)  # A breaks: she is marked at the table
        await page.wait_for_selector("#name-A.striker", timeout=PATIENCE * 1000)
        await shoot(page, "overlay.png")
