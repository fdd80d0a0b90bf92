"""Pairing and writes in a real browser (issue 12): Playwright drives Debian's chromium
against the real aiohttp server on a loopback port; docs/threat-model.md names these."""

import asyncio
import shutil
import threading

import pytest
from aiohttp import web

from scoreboard.net import security
from scoreboard.net.pairing import Pairing
from scoreboard.net.phones import Phones
from scoreboard.net.writes import Writes

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api")


class RecordingTable:
    def __init__(self):
        self.asked = []

    async def command(self, cmd, **args):
        self.asked.append((cmd, args))
        return {"type": "reply", "id": "1", "ok": True, "message": "done"}

    def writes(self):
        return [cmd for cmd, _ in self.asked if cmd not in ("pairing-code", "pairing-done")]


class Served:
    """An aiohttp app on 127.0.0.1 and a free port, on a thread of its own."""

    def __init__(self, app: web.Application):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.runner = web.AppRunner(app)
        self.port = self.call(self._start())

    async def _start(self) -> int:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        return site._server.sockets[0].getsockname()[1]

    def call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self):
        self.call(self.runner.cleanup())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)


@pytest.fixture
def table(tmp_path):
    recording = RecordingTable()
    writes = Writes(Phones(tmp_path), Pairing(), recording)
    app = web.Application(middlewares=[security.guard()])
    writes.add_routes(app)
    served = Served(app)
    served.writes, served.table = writes, recording
    yield served
    served.close()


@pytest.fixture
def browser():
    if not shutil.which(CHROMIUM):
        pytest.skip(f"no chromium at {CHROMIUM} (.ci/run installs it from apt)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def show_code(table) -> str:
    """What holding FOUL at the table does: the net process makes a code for the OLED."""
    table.call(table.writes.pairing_asked())
    return table.table.asked[-1][1]["code"]


def pair(page, table, code: str):
    page.goto(f"{table.url}/pair")
    page.fill("#code", code)
    page.fill("#name", "Olena's phone")
    page.click("#pair-button")


def test_pairing_by_code_in_the_browser(table, browser):
    page = browser.new_page()
    pair(page, table, show_code(table))
    page.wait_for_selector("#paired:not([hidden])")
    assert page.inner_text("#me") == "Olena's phone"
    assert [p.name for p in table.writes.phones.list()] == ["Olena's phone"]
    page.click("#undo")
    sync_api.expect(page.locator("#message")).to_have_text("done")
    assert table.table.writes() == ["undo"]
    # The session cookie is HttpOnly: the page's own script cannot read it.
    assert security.SESSION_COOKIE not in page.evaluate("document.cookie")


def test_a_wrong_code_does_not_pair_in_the_browser(table, browser):
    page = browser.new_page()
    code = show_code(table)
    pair(page, table, f"{(int(code) + 1) % 10**6:06d}")
    sync_api.expect(page.locator("#message")).to_contain_text("wrong")
    assert page.is_hidden("#paired")
    assert table.writes.phones.list() == []
    cookies = {c["name"] for c in page.context.cookies()}
    assert security.SESSION_COOKIE not in cookies


EVIL = """<!doctype html><body>
<form id="form" method="post" action="{table}/api/undo" enctype="text/plain">
<input name='{{"a":"' value='"}}'></form>
<script>
window.fetched = fetch("{table}/api/undo", {{method: "POST", credentials: "include",
  headers: {{"Content-Type": "application/json", "X-CSRF-Token": "guessed"}}, body: "{{}}"}})
  .then(r => "answered " + r.status, e => "blocked");
</script></body>"""


def test_a_page_from_another_origin_cannot_write(table, browser, tmp_path):
    context = browser.new_context()
    page = context.new_page()
    pair(page, table, show_code(table))
    page.wait_for_selector("#paired:not([hidden])")

    async def evil_page(request):
        return web.Response(text=EVIL.format(table=table.url), content_type="text/html")

    evil_app = web.Application()
    evil_app.router.add_get("/", evil_page)
    evil = Served(evil_app)  # the same host, another port: the same site, another origin
    try:
        attacker = context.new_page()  # the paired phone's browser, cookie and all
        attacker.goto(evil.url)
        assert attacker.evaluate("window.fetched") == "blocked"  # its preflight was refused
        with attacker.expect_navigation():
            attacker.evaluate("document.getElementById('form').submit()")
        assert '"ok": false' in attacker.content()
        assert "table's own page" in attacker.content()
    finally:
        evil.close()
    assert table.table.writes() == []
