"""The club's web server (aiohttp): the hall TV's page, a table's overlay, the staff's setup of
a table's next match and a day's results; live by Server-Sent Events (docs/API.md "Club")."""

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import re
import time
from datetime import date, datetime
from pathlib import Path

from aiohttp import web

from scoreboard.bridge.protocol import strict_loads
from scoreboard.club.desk_api import DeskApi
from scoreboard.club.hall import Hall
from scoreboard.club.player_pages import PlayerPages
from scoreboard.club.players_api import PlayersApi
from scoreboard.club.results import BadResult, ResultBook
from scoreboard.club.table_keys import TableKeys
from scoreboard.club.table_time import TableTime
from scoreboard.club.updates import Updates
from scoreboard.core.settings import NAME_LETTERS, OPTIONS
from scoreboard.mqtt import topics
from scoreboard.net import security
from scoreboard.net.listen import read_body
from scoreboard.net.server import favicon
from scoreboard.rules.setup import hidden_characters

LOGGER = logging.getLogger("scoreboard.club")
STAFF_USER = "staff"
WRONG_BEFORE_LOCK = 5  # wrong staff passwords in a minute, then the writes lock for one
LOCK_SECONDS = 60.0
STATIC = Path(__file__).with_name("static")
HEARTBEAT = 2.0  # seconds between SSE heartbeats: a page says "connection lost" after 5 s
CLIENT_QUEUE = 512  # updates a page may fall behind by before it is dropped (it reconnects)
MAX_BODY = 16 * 1024  # a staff's assign is a few hundred bytes


class Club:
    """The hall, the result book and the pages that follow them."""

    def __init__(
        self,
        *,
        book: ResultBook,
        client=None,
        staff_password: str = "",
        clock=time.time,
        names=(),
        database=None,
        updates_dir: Path | None = None,
    ):
        self.hall = Hall()
        self.updates = Updates(self, updates_dir)  # updates for the tables, from the desk
        self.players = PlayersApi(self, database)  # the club's players (its database)
        self.desk = DeskApi(self, database)  # its tournaments, played on the tables
        self.player_pages = PlayerPages(self, database)  # each player's page, read only
        self.table_time = TableTime(database)  # each table's minutes in play and idle, by day
        self.keys = TableKeys(self, database)  # the tables' keys: each result checked (issue 34)
        self._status: dict[str, str] = {}  # each table's status last seen (idle, playing...)
        self.book = book
        self.client = client  # ClubClient, for assign; None in tests that only read
        self.staff_password = staff_password
        self.clock = clock
        # The names the club's page is reached by besides its own (a club's DNS name for it).
        self.names = security.own_names() | {n.lower() for n in names}
        self._wrong: list[float] = []  # when the last wrong staff passwords were given
        self._locked_until = float("-inf")
        self.linked = False
        self.pages: set[asyncio.Queue] = set()
        self.dropped = 0

    # -- from the broker (the asyncio loop) ---------------------------------------------------
    def take(self, topic: str, payload: bytes) -> None:
        table, result = self.hall.take(topic, payload, now=self.clock())
        if result is not None:
            self.take_result(result["table"], result)
        if table is not None:
            if topics.split(topic)[1] == topics.INFO:  # it names the table's key (issue 34)
                self.keys.announced(table, self.hall.tables[table].info.get("key"))
            view = self.hall.tables[table].view()
            self._send({"type": "table", "table": view}, table=table)
            self.desk.seen(view)  # a tournament's game now shown at a table: its page redraws
            self.table_time.seen(view, self.clock())
            if self._status.get(table) != view["status"]:
                self._status[table] = view["status"]
                self.desk.tables_changed()  # a table free now may take a waiting game
            self.desk.waiting_changed()  # why a game waits may have changed with the table

    def take_result(self, table: str, result: dict) -> bool:
        """A table's result, which came on `table`'s topic: checked against the table's key
        (club/table_keys.py), kept, told to the pages, given to its tournament; whether it
        was taken."""
        if not self.keys.vet(table, result):
            return False  # held for its key, or refused: kept and said
        new = False
        try:
            new = self.book.add(result)
        except BadResult as exc:
            LOGGER.warning("club: result from %s refused: %s", table, exc)
            self.keys.refused(table, result, str(exc))
            return False
        except OSError as exc:
            LOGGER.warning("club: cannot keep result %s: %s", result.get("match_id"), exc)
        new = self.keep_match(result) or new  # in the database before it is shown
        if new:
            self._send({"type": "result", "result": result})
        self.desk.result(result)  # a tournament's game: its bracket moves on
        return True

    def link(self, up: bool) -> None:
        self.linked = up
        self._send({"type": "broker", "connected": up})
        if not up:
            self.table_time.lost(self.clock())  # the tables are not seen: not counted
        if up:
            self.publish_roster()
            self.desk.linked()
        self.desk.waiting_changed()  # "the club has lost the broker", or no longer

    def keep_match(self, result: dict) -> bool:
        """A table's result in the club's database (every match, for the ratings); whether it
        is new or changed. Nothing without a database; a database that fails is said in the
        log (the result book has the result, the next start imports it)."""
        if self.players.engine is None:
            return False
        from sqlalchemy.exc import SQLAlchemyError

        from scoreboard.clubdb import matches
        from scoreboard.mqtt.results import digest

        try:
            return matches.keep(self.players.engine, result, digest(result)) != matches.SAME
        except SQLAlchemyError as exc:
            LOGGER.warning("club: result %s not in the database: %s", result["match_id"], exc)
            return False

    def publish_roster(self) -> None:
        """The club's players (its database) for every table's setup screen; nothing without
        a database (a table then keeps its own list)."""
        if self.client is None or self.players.engine is None or not self.linked:
            return
        from scoreboard.clubdb import players

        self.client.roster([p["name"] for p in players.roster(self.players.engine)][:200])

    def tell_pages(self, message: dict) -> None:
        """A message for every page that follows /api/events (a tournament that changed)."""
        self._send(message)

    def send_assign(self, table: str, settings: dict, assign_id: str) -> None:
        """A tournament's game for `table` (club/tournament_runner.py), as the club's assign."""
        if self.client is not None:
            self.client.assign(table, settings, id=assign_id)

    def _send(self, message: dict, *, table: str | None = None) -> None:
        data = _sse(message)
        for queue in list(self.pages):
            try:
                queue.put_nowait((table, data))
            except asyncio.QueueFull:  # a page that does not read: dropped, it reconnects
                self.dropped += 1
                self.pages.discard(queue)
                while not queue.empty():
                    queue.get_nowait()
                queue.put_nowait(None)

    def hello(self) -> dict:
        return {
            "type": "hall",
            "tables": self.hall.views(),
            "broker": self.linked,
            "now": self.clock(),
        }

    # -- the web ------------------------------------------------------------------------------
    def app(self) -> web.Application:
        # Each page's policy, read once; set wherever the page is served (its route, /static).
        self.policies = {
            page.name: content_security_policy(page.read_text(encoding="utf-8"))
            for page in STATIC.glob("*.html")
        }
        app = web.Application(
            middlewares=[_no_cache, _pages_policy(self.policies)], client_max_size=MAX_BODY
        )
        app.add_routes(
            [
                web.get("/", self.page("hall.html")),
                web.get("/table/{table}/overlay", self.page("overlay.html")),
                web.get("/setup/{table}", self.page("setup.html")),
                web.get("/tournament/{id}", self.page("tournament.html")),
                web.get("/desk", self.page("desk.html")),
                web.get("/desk/tournament/{id}", self.page("desk_tournament.html")),
                web.get("/tournament/{id}/print", self.page("print.html")),
                web.get("/api/tables", self.tables),
                web.get("/api/events", self.events),
                web.post("/api/tables/{table}/assign", self.assign),
                web.delete("/api/tables/{table}/assign", self.assign),
                web.get("/results.csv", self.results_csv),
                web.get("/results.json", self.results_json),
                web.get("/favicon.ico", favicon),
                *self.players.routes(),
                *self.player_pages.routes(),
                *self.desk.routes(),
                *self.table_time.routes(),
                *self.updates.routes(),
                *self.keys.routes(),
                web.static("/static", STATIC),
            ]
        )
        app.cleanup_ctx.append(self.table_time.ticking(self.clock))
        return app

    def page(self, name: str):
        async def handler(request: web.Request) -> web.Response:
            table = request.match_info.get("table")
            if table is not None and not topics.TABLE_ID.match(table):
                raise web.HTTPNotFound(text="no such table")
            response = web.FileResponse(STATIC / name)
            response.headers["Content-Security-Policy"] = self.policies[name]
            return response

        return handler

    async def tables(self, request: web.Request) -> web.Response:
        return web.json_response(self.hello())

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The hall on connect, then each table's change; a heartbeat every 2 s."""
        only = request.query.get("table")
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        )
        await response.prepare(request)
        queue: asyncio.Queue = asyncio.Queue(CLIENT_QUEUE)
        self.pages.add(queue)
        try:
            await response.write(_sse(self.hello()))
            while True:
                try:
                    item = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except TimeoutError:
                    beat = {"type": "heartbeat", "now": self.clock(), "broker": self.linked}
                    item = (None, _sse(beat))
                if item is None:
                    break
                table, data = item
                if only is None or table in (None, only):
                    await response.write(data)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.pages.discard(queue)
        return response

    async def assign(self, request: web.Request) -> web.Response:
        """The staff's next match for a table: `{"players": [A, B], "race": 3, "target": 8,
        "breaker": "lag"}` as the table's retained `assign`; DELETE clears it."""
        self.check_staff(request)
        table = request.match_info["table"]
        if not topics.TABLE_ID.match(table):
            raise web.HTTPNotFound(text="no such table")
        if self.client is None or not self.linked:
            raise web.HTTPServiceUnavailable(text="the club is not connected to the broker")
        if held := self.desk.holding(table):
            raise web.HTTPConflict(
                text=f"{table} holds {held}, not played yet: give it as a walkover or move it "
                "to another table on the desk first"
            )
        if request.method == "DELETE":
            self.client.assign(table, None)
            return web.json_response({"ok": True})
        try:
            settings = assign_settings(strict_loads(await read_body(request)))
        except TimeoutError:
            raise web.HTTPRequestTimeout(text="the body did not come in time") from None
        except (ValueError, TypeError, UnicodeDecodeError) as exc:
            raise web.HTTPBadRequest(text=str(exc)) from None
        return web.json_response({"ok": True, "assign": self.client.assign(table, settings)})

    def check_staff(self, request: web.Request) -> None:
        """Writes come from the club's own pages only: a Host that names the club and an
        Origin that is this host, as the table's own writes (net/security.py), so no other
        site can make a staff's browser write (DNS rebinding neither); and user `staff` with
        the staff password, without which the club sets up no match (it serves the whole
        club's network: the hall TV and OBS read from other machines). Five wrong passwords
        lock the staff's writes for a minute, the right one too, as a table's pairing does."""
        if not security.is_own_host(request, self.names):
            raise web.HTTPForbidden(text=f"{request.host!r} is not this club's address")
        if not security.is_same_origin(request):
            raise web.HTTPForbidden(text="a write must come from the club's own page")
        password = self.staff_password
        if not password:
            raise web.HTTPForbidden(
                text="no staff password is set: start scoreboard club with --staff-password-file "
                "to set up matches from this page"
            )
        now = self.clock()
        if now < self._locked_until:
            raise web.HTTPTooManyRequests(
                text=f"too many wrong passwords: try again in {self._locked_until - now:.0f} s"
            )
        given = request.headers.get("Authorization", "")
        try:
            scheme, encoded = given.split(" ", 1)
            user, _, secret = base64.b64decode(encoded, validate=True).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            scheme, user, secret = "", "", ""
        right = hmac.compare_digest(secret.encode(), password.encode())
        if scheme.lower() == "basic" and user == STAFF_USER and right:
            self._wrong.clear()
            return
        if given:  # a browser's first try sends nothing: no guess
            self._wrong = [t for t in self._wrong if now - t < LOCK_SECONDS] + [now]
            if len(self._wrong) >= WRONG_BEFORE_LOCK:
                self._wrong.clear()
                self._locked_until = now + LOCK_SECONDS
                LOGGER.warning(
                    "club: %d wrong staff passwords: locked for a minute", WRONG_BEFORE_LOCK
                )
        raise web.HTTPUnauthorized(
            text="the staff password is needed (user staff)",
            headers={"WWW-Authenticate": 'Basic realm="club staff"'},
        )

    async def results_csv(self, request: web.Request) -> web.Response:
        day = _day(request)
        return web.Response(
            text=self.book.csv(day),
            content_type="text/csv",
            charset="utf-8",
            headers={"Content-Disposition": f'attachment; filename="results-{day}.csv"'},
        )

    async def results_json(self, request: web.Request) -> web.Response:
        """The day's results as the tables sent them, signed (issue 34)."""
        return web.json_response(self.book.exported(_day(request)))


def _day(request: web.Request) -> date:
    """`?day=YYYY-MM-DD`, today (the club's time zone) by default; 400 for another form."""
    try:
        return date.fromisoformat(request.query.get("day") or datetime.now().date().isoformat())
    except ValueError:
        raise web.HTTPBadRequest(text="day must be YYYY-MM-DD") from None


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _pages_policy(policies: dict[str, str]):
    """A page's Content-Security-Policy also where /static serves it as a file."""

    @web.middleware
    async def middleware(request, handler):
        response = await handler(request)
        name = request.path.removeprefix("/static/")
        if request.path.startswith("/static/") and name in policies:
            response.headers["Content-Security-Policy"] = policies[name]
        return response

    return middleware


def content_security_policy(html: str) -> str:
    """A page's policy: its own files, and its own inline scripts by their hashes only, so no
    script or event handler that came in with a table's data can run (issue 21)."""
    hashes = " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in INLINE_SCRIPT.findall(html)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    )


def _sse(message: dict) -> bytes:
    data = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    return f"data: {data}\n\n".encode()


@web.middleware
async def _no_cache(request, handler):
    response = await handler(request)
    if not isinstance(response, web.FileResponse) or request.path.startswith("/api"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def assign_settings(data) -> dict:
    """The next match as the staff's form sends it, checked as the table would check it."""
    if not isinstance(data, dict):
        raise ValueError("send a JSON object")
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ValueError("players: two names")
    names = []
    for name in players:
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LETTERS:
            raise ValueError(f"players: each name 1 to {NAME_LETTERS} letters")
        if hidden_characters(name) or "#" in name or "=" in name:
            raise ValueError("players: no control or format characters, '#' or '='")
        names.append(name.strip())
    if names[0].casefold() == names[1].casefold():
        raise ValueError("players: two different names")
    settings = {"players": names}
    for key, low, high in (("race", 1, 99), ("target", 1, 8)):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ValueError(f"{key}: a whole number from {low} to {high}")
            settings[key] = value
    if "breaker" in data:
        if data["breaker"] not in ("lag", "A", "B"):
            raise ValueError("breaker: lag, A or B")
        settings["breaker"] = data["breaker"]
    if "options" in data:
        options = data["options"]
        if not isinstance(options, dict) or any(
            OPTIONS.get(k) is None or v not in OPTIONS[k] for k, v in options.items()
        ):
            choices = "; ".join(f"{k}: {', '.join(v)}" for k, v in OPTIONS.items())
            raise ValueError(f"options: {choices}")
        settings["options"] = dict(options)
    if "lang" in data:
        if data["lang"] not in ("uk", "ru", "en"):
            raise ValueError("lang: uk, ru or en")
        settings["lang"] = data["lang"]
    return settings
