"""Pairing and writes in a real browser (issue 12): Debian's chromium through Playwright,
the real `scoreboard net` app on loopback and a real table (the Appliance on gpiozero's mock
pins): UNDO held at the table, then FOUL, the code read off the OLED's QR code, typed on the phone's
page; a wrong code; a page of another origin. docs/threat-model.md names these."""

import asyncio
import contextlib
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import zxingcpp
from aiohttp import web
from bridge_helpers import table
from browser import chromium
from helpers import PATIENCE, press, settle

from scoreboard.net import security
from scoreboard.net.phones import Phones
from scoreboard.net.server import TABLE, make_app

pytestmark = pytest.mark.asyncio
WAIT = PATIENCE * 1000  # Playwright's timeouts, in ms: only how long a broken test takes
GALLERY = Path(__file__).parent.parent / "docs" / "gallery" / "web"
PHONE = {"width": 360, "height": 640}


async def shoot(page, name: str) -> None:
    """`SCOREBOARD_GALLERY=1`: the page as a phone shows it, for docs/gallery/web/."""
    if os.environ.get("SCOREBOARD_GALLERY"):
        GALLERY.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=GALLERY / name)


@pytest.fixture
def a(tmp_path):
    appliance = table(tmp_path)
    yield appliance
    appliance.close()


@contextlib.asynccontextmanager
async def served(a, aiohttp_server, state_dir):
    """`scoreboard net` for the table, and the table's loop run while the test awaits."""
    server = await aiohttp_server(make_app(state_dir, lang="en"), host="127.0.0.1")
    async with asyncio.timeout(PATIENCE):
        await server.app[TABLE].wait_connected()

    async def pump():  # the table's one thread: commands from the socket, timers
        while True:
            a.loop.run_pending()
            await asyncio.sleep(0.005)

    task = asyncio.create_task(pump())
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        task.cancel()


async def code_on_the_oled(a) -> str:
    """Hold UNDO at the table, then press FOUL; the code, as a phone's camera reads the OLED's
    QR code."""
    press(a, a.config.pins.player_a)  # A breaks
    settle(a, 1.0)
    press(a, a.config.pins.undo, seconds=a.config.timings.undo_hold_time + 0.1)
    press(a, a.config.pins.foul)  # the question's other answer: a phone
    async with asyncio.timeout(PATIENCE):
        while a.app.phone.code is None:
            await asyncio.sleep(0.005)
    (read,) = zxingcpp.read_barcodes(a.app.screens[0].image.convert("L"))
    return urlsplit(read.text).fragment.removeprefix("code=")


async def test_pairing_by_code_in_the_browser(a, tmp_path, aiohttp_server):
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        code = await code_on_the_oled(a)
        page = await browser.new_page(viewport=PHONE)
        await page.goto(f"{url}/pair#code={code}")  # the QR code's page, the code filled in
        assert await page.input_value("#code") == code
        await page.fill("#name", "Olena's phone")
        await shoot(page, "pair.png")
        await page.click("#pair-button")
        await page.wait_for_selector("#paired:not([hidden])", timeout=WAIT)
        assert await page.inner_text("#me") == "Olena's phone"
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert a.app.phone.code is None  # the table closed the code
        # The session cookie is HttpOnly: the page's own script cannot read it.
        assert security.SESSION_COOKIE not in await page.evaluate("document.cookie")
        # UNDO from the phone waits for an OK press at the table.
        await page.click("#undo")
        locator = page.locator("#message")
        await locator.filter(has_text="waiting for OK at the table").wait_for(timeout=WAIT)
        assert a.app.match.snapshot()["phase"] == "break"
        await shoot(page, "pair-paired.png")
        press(a, a.config.pins.player_b)  # OK
        assert a.app.match.snapshot()["phase"] == "lag"
        # Issue 22: the page says what the table did, never "waiting" for ever.
        await locator.filter(has_text="Undone: who breaks").wait_for(timeout=WAIT)


async def test_an_undo_refused_at_the_table_says_so_on_the_phone(a, tmp_path, aiohttp_server):
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        page = await paired_page(a, browser, url)
        await page.click("#undo")
        message = page.locator("#message")
        await message.filter(has_text="Waiting for OK").wait_for(timeout=WAIT)
        press(a, a.config.pins.foul)  # refused at the table
        await message.filter(has_text="Refused at the table.").wait_for(timeout=WAIT)
        assert a.app.match.snapshot()["phase"] == "break"  # nothing undone


async def test_a_paired_phone_sets_up_the_next_match_on_its_page(a, tmp_path, aiohttp_server):
    """Issue 22: the README said a paired phone sets up the next match, and no page did; the
    live page did not lead to /pair either."""
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        page = await paired_page(a, browser, url)
        await page.goto(f"{url}/")
        await page.click("a[href='/pair']")
        await page.wait_for_selector("#paired:not([hidden])", timeout=WAIT)
        message = page.locator("#message")
        await page.fill("#race", "3")  # the rest left as it is
        await page.click("#setup-button")
        await message.filter(has_text="this match").wait_for(timeout=WAIT)
        s = a.app.match.snapshot()
        assert s["race"] == 3 and s["phase"] == "break" and s["breaker"] == "A"  # kept
        await page.evaluate("document.getElementById('message').textContent = ''")
        before = a.app.match.snapshot()["players"]
        await page.fill("#player-a", "Ія")  # only A: B stays who is at the table
        await page.click("#setup-button")
        await message.filter(has_text="this match").wait_for(timeout=WAIT)
        s = a.app.match.snapshot()
        assert s["players"] == {"A": "Ія", "B": before["B"]} and s["race"] == 3
        assert s["phase"] == "lag"  # another player: they lag for the break
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        await shoot(page, "pair-setup.png")


async def paired_page(a, browser, url):
    """A phone's page, paired with the code the table shows (A breaks first)."""
    code = await code_on_the_oled(a)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(f"{url}/pair#code={code}")
    await page.click("#pair-button")
    await page.wait_for_selector("#paired:not([hidden])", timeout=WAIT)
    return page


async def test_a_wrong_code_does_not_pair_in_the_browser(a, tmp_path, aiohttp_server):
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        code = await code_on_the_oled(a)
        page = await browser.new_page()
        await page.goto(f"{url}/pair")
        await page.fill("#code", f"{(int(code) + 1) % 10**6:06d}")
        await page.click("#pair-button")
        await page.locator("#message").filter(has_text="wrong").wait_for(timeout=WAIT)
        assert await page.is_hidden("#paired")
        assert Phones(tmp_path).list() == []
        cookies = {c["name"] for c in await page.context.cookies()}
        assert security.SESSION_COOKIE not in cookies
        assert a.app.phone.code is not None  # still shown: the right code still pairs


EVIL = """<!doctype html><body>
<form id="form" method="post" action="{table}/api/undo" enctype="text/plain">
<input name='{{"a":"' value='"}}'></form>
<script>
window.fetched = fetch("{table}/api/undo", {{method: "POST", credentials: "include",
  headers: {{"Content-Type": "application/json", "X-CSRF-Token": "guessed"}}, body: "{{}}"}})
  .then(r => "answered " + r.status, e => "blocked");
</script></body>"""


async def test_a_page_from_another_origin_cannot_write(a, tmp_path, aiohttp_server):
    async with served(a, aiohttp_server, tmp_path) as url, chromium() as browser:
        code = await code_on_the_oled(a)
        context = await browser.new_context()
        page = await context.new_page()
        await page.goto(f"{url}/pair#code={code}")
        await page.click("#pair-button")
        await page.wait_for_selector("#paired:not([hidden])", timeout=WAIT)

        async def evil_page(request):
            return web.Response(text=EVIL.format(table=url), content_type="text/html")

        evil_app = web.Application()
        evil_app.router.add_get("/", evil_page)
        # The same host, another port: the same site (the cookie goes along), another origin.
        evil = await aiohttp_server(evil_app, host="127.0.0.1")
        attacker = await context.new_page()  # the paired phone's browser, cookie and all
        await attacker.goto(f"http://127.0.0.1:{evil.port}/")
        assert await attacker.evaluate("window.fetched") == "blocked"  # preflight refused
        async with attacker.expect_navigation():
            await attacker.evaluate("document.getElementById('form').submit()")
        assert "table's own page" in await attacker.content()  # 403, by the Origin check
        settle(a, 1.0)
        assert a.app.match.snapshot()["phase"] == "break"  # nothing undone
        assert a.app.phone.request is None  # nothing even asked at the table
