"""The write endpoints (issue 12): pairing, and what a paired phone may ask the table to do.

Each is a JSON ``POST`` under ``/api/``; security.py says what every one must pass. The
net process only checks who asks; the table does what it is asked through its socket
(scoreboard/bridge) and decides itself what needs an OK press there (a change to a match
in play: docs/threat-model.md). Listed in docs/API.md.
"""

import asyncio
import contextlib
import math
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Protocol

from aiohttp import web

from scoreboard.bridge.client import TableUnreachable
from scoreboard.bridge.protocol import strict_loads
from scoreboard.bridge.rates import Rates
from scoreboard.net import security
from scoreboard.net.listen import read_body
from scoreboard.net.pair_page import pair_page
from scoreboard.net.pairing import CODE_LIFETIME, Pairing, PairingRefused
from scoreboard.net.phones import Phone, Phones

MAX_BODY = 16 * 1024
# A paired phone's writes to the table (issue 21): this many at once, then this many a second,
# and one at a time (the next when the table has answered the last); more get 429.
WRITES_BURST = 10
WRITES_PER_SECOND = 2.0
# The pairing page and its files: no inline script, so the policy can forbid any; never in
# a frame (a page of another origin could else lay it under its own buttons).
PAGES = {"/pair": "pair.html", "/pair.js": "pair.js", "/pair.css": "pair.css"}
TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Table(Protocol):
    """The table as the net process reaches it (bridge/client.py's TableClient): a command
    and its reply ``{"ok": bool, "message": str, ...}`` (scoreboard/bridge/protocol.py), or
    TableUnreachable when it is not there or does not answer."""

    async def command(self, cmd: str, **args) -> dict: ...


def attach(
    app: web.Application,
    table,
    state_dir,
    *,
    port: int,
    names=(),
    lang: str = "uk",
    host: str | None = None,
) -> "Writes":
    """Pairing and the writes on ``app`` (before it starts): the checks of security.py on
    every ``/api/`` request, the routes, and a task that answers the table's
    ``{"type": "pairing-asked"}`` (UNDO held, then FOUL) with a code. ``table``: the bridge's
    TableClient; ``host``: the address the server listens on (None: all of them)."""
    url = f"http://{page_host(host)}:{port}"
    writes = Writes(Phones(state_dir), Pairing(), table, url=url, default_lang=lang)
    app.middlewares.append(security.guard(names))
    writes.add_routes(app)

    async def listen(app: web.Application):
        task = asyncio.create_task(writes.listen(table.messages()), name="pairing")
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(listen)
    return writes


def page_host(host: str | None) -> str:
    """The host of the table's page in its QR code: the address the server listens on when
    it is one (`make sim`: 127.0.0.1), else the one phones reach this machine at."""
    if host and host not in ("0.0.0.0", "::"):
        return f"[{host}]" if ":" in host else host
    return own_address()


def own_address() -> str:
    """The address phones on the club's network reach this machine at: the one its route
    out would use (a UDP socket connected to a documentation address sends nothing)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            return probe.getsockname()[0]
        except OSError:
            return "localhost"


@dataclass
class Writes:
    phones: Phones
    pairing: Pairing
    table: Table
    url: str = ""  # the table's address for phones, shown as a QR code with the code
    default_lang: str = "uk"  # the config's display language, until the table says its own
    clock: Callable[[], float] = time.monotonic
    _in_flight: set = field(default_factory=set)  # phones whose last write is not answered

    def __post_init__(self) -> None:
        self._rates = Rates(WRITES_BURST, WRITES_PER_SECOND, clock=self.clock)

    def lang(self) -> str:
        """The displays' language now (the table's state says it), else the config's."""
        state = getattr(self.table, "state", None)
        return state.get("lang", self.default_lang) if state else self.default_lang

    # -- the table asks ----------------------------------------------------------------------
    async def listen(self, messages) -> None:
        """Answer each ``pairing-asked`` the table sends (UNDO held, then FOUL) with a new code."""
        async for message in messages:
            if message.get("type") == "pairing-asked":
                # A table gone meanwhile shows no code: UNDO held, then FOUL, asks again.
                with contextlib.suppress(TableUnreachable):
                    await self.pairing_asked()

    async def pairing_asked(self) -> None:
        """A long press at the table asked for a code: make one and have the table show it."""
        code = self.pairing.new_code()
        await self.table.command(
            "pairing-code",
            code=code.code,
            seconds=CODE_LIFETIME,
            url=f"{self.url.rstrip('/')}/pair#code={code.code}" if self.url else "",
        )

    # -- the routes ------------------------------------------------------------------------------
    def add_routes(self, app: web.Application) -> None:
        for path in PAGES:
            app.router.add_get(path, self.page)
        app.router.add_get("/api/session", self.session)
        app.router.add_post("/api/pair", self.pair)
        app.router.add_get("/api/phones", self.list_phones)
        app.router.add_post("/api/phones/revoke", self.revoke)
        for cmd in ("undo", "setup", "roster"):
            app.router.add_post(f"/api/{cmd}", self._forward(cmd))

    async def page(self, request: web.Request) -> web.Response:
        name = PAGES[request.path]
        if name == "pair.html":
            text = pair_page(self.lang())
        else:
            text = (resources.files(__package__) / "pages" / name).read_text(encoding="utf-8")
        kind = TYPES[name[name.rindex(".") :]]
        return web.Response(text=text, content_type=kind, headers=PAGE_HEADERS)

    async def session(self, request: web.Request) -> web.Response:
        """Whether this browser is paired, and the CSRF token its writes must send."""
        phone = self._phone(request)
        browser = request.cookies.get(security.BROWSER_COOKIE) or security.new_browser_id()
        cookie = request.cookies[security.SESSION_COOKIE] if phone else browser
        response = web.json_response(
            {
                "paired": phone is not None,
                "phone": phone.public() if phone else None,
                "csrf": security.csrf_token(cookie),
            },
            headers={"Cache-Control": "no-store"},
        )
        if security.BROWSER_COOKIE not in request.cookies:
            _set_cookie(response, security.BROWSER_COOKIE, browser, max_age=None)
        return response

    async def pair(self, request: web.Request) -> web.Response:
        """The code shown at the table, for a session cookie good for 30 days."""
        refused = security.csrf_refusal(request, request.cookies.get(security.BROWSER_COOKIE))
        if refused is not None:
            return refused
        body = await _json_body(request)
        if isinstance(body, web.Response):
            return body
        try:
            self.pairing.redeem(body.get("code"))
        except PairingRefused as refused:
            if refused.reason == "locked":
                response = security.refuse(429, str(refused))
                response.headers["Retry-After"] = f"{refused.retry_after:.0f}"
                return response
            return security.refuse(400 if refused.reason == "malformed" else 401, str(refused))
        token, phone = self.phones.add(body.get("name"))
        # Paired all the same if the table does not hear it: its code times out by itself.
        with contextlib.suppress(TableUnreachable):
            await self.table.command("pairing-done", phone=phone.id, name=phone.name)
        response = web.json_response(
            {"ok": True, "phone": phone.public(), "csrf": security.csrf_token(token)}
        )
        _set_cookie(response, security.SESSION_COOKIE, token, max_age=self.phones.lifetime)
        return response

    async def list_phones(self, request: web.Request) -> web.Response:
        if self._phone(request) is None:
            return _not_paired()
        return web.json_response({"phones": [p.public() for p in self.phones.list()]})

    async def revoke(self, request: web.Request) -> web.Response:
        checked = await self._checked(request)
        if isinstance(checked, web.Response):
            return checked
        phone, body = checked
        if not self.phones.revoke(str(body.get("id", ""))):
            return security.refuse(404, f"no paired phone {body.get('id')!r}")
        response = web.json_response({"ok": True, "message": f"{body['id']} unpaired"})
        if body["id"] == phone.id:
            response.del_cookie(security.SESSION_COOKIE, path="/")
        return response

    def _forward(self, cmd: str):
        async def forward(request: web.Request) -> web.Response:
            """Ask the table; it answers whether it did it, or waits for an OK press."""
            checked = await self._checked(request)
            if isinstance(checked, web.Response):
                return checked
            phone, body = checked
            if (limited := self._limited(phone.id)) is not None:
                return limited
            args = {k: v for k, v in body.items() if k not in ("type", "id", "cmd", "phone")}
            self._in_flight.add(phone.id)
            try:
                reply = await self.table.command(cmd, phone=phone.id, **args)
            except TableUnreachable as exc:
                return security.refuse(503, f"the table does not answer: {exc}")
            finally:
                self._in_flight.discard(phone.id)
            reply = {k: v for k, v in reply.items() if k not in ("type", "id")}
            return web.json_response(reply, status=200 if reply.get("ok") else 409)

        forward.__name__ = f"post_{cmd}"
        return forward

    # -- checks ----------------------------------------------------------------------------------
    def _limited(self, phone_id: str) -> web.Response | None:
        """429 for a phone over its rate or with a write still unanswered; None: it may."""
        if phone_id in self._in_flight:
            return security.refuse(429, "one write at a time: the last is not answered yet")
        if wait := self._rates.take(phone_id):
            seconds = max(1, math.ceil(wait))
            response = security.refuse(429, f"too many writes from this phone: wait {seconds} s")
            response.headers["Retry-After"] = str(seconds)
            return response
        return None

    def _phone(self, request: web.Request) -> Phone | None:
        return self.phones.find(request.cookies.get(security.SESSION_COOKIE))

    async def _checked(self, request: web.Request) -> tuple[Phone, dict] | web.Response:
        """A paired phone's write (401 else), with its token (403 else), as JSON (415)."""
        phone = self._phone(request)
        if phone is None:
            return _not_paired()
        refused = security.csrf_refusal(request, request.cookies[security.SESSION_COOKIE])
        if refused is not None:
            return refused
        body = await _json_body(request)
        if isinstance(body, web.Response):
            return body
        return phone, body


def _not_paired() -> web.Response:
    return security.refuse(
        401, "this phone is not paired: at the table, hold UNDO, then press FOUL for a code"
    )


async def _json_body(request: web.Request) -> dict | web.Response:
    if request.content_type != "application/json":
        return security.refuse(415, "send JSON (Content-Type: application/json)")
    if request.content_length is None:
        # A body without a length (chunked) is refused before a byte of it is read, and the
        # connection closed: aiohttp would otherwise keep what it buffered (issue 21).
        response = security.refuse(411, "send the body with a Content-Length")
        response.force_close()
        return response
    if request.content_length > MAX_BODY:
        response = security.refuse(413, "too long")
        response.force_close()
        return response
    try:
        body = strict_loads(await read_body(request))
    except TimeoutError:
        response = security.refuse(408, "the body did not come in time")
        response.force_close()
        return response
    except (ValueError, UnicodeDecodeError) as exc:
        return security.refuse(400, f"not JSON: {exc}")
    if not isinstance(body, dict):
        return security.refuse(400, "send a JSON object")
    return body


def _set_cookie(response: web.Response, name: str, value: str, *, max_age) -> None:
    response.set_cookie(
        name,
        value,
        max_age=None if max_age is None else int(max_age),
        path="/",
        httponly=True,
        samesite="Strict",
    )
