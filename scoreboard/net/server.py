"""The aiohttp application of `scoreboard net`: the pages and the read API (docs/API.md).

It reads the table through its local socket (scoreboard/bridge/client.py) and never the
other way round: whatever the browsers do, the table does not wait.
"""

import asyncio
import contextlib
import csv
import html
import io
import json
from pathlib import Path
from string import Template

from aiohttp import web

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.core.matchlog import replay
from scoreboard.net import writes
from scoreboard.net.sse import HEARTBEAT_SECONDS, Hub, sse
from scoreboard.net.view import page_words, view
from scoreboard.store import history_rows as history
from scoreboard.store import setup_store
from scoreboard.store.journal import read_journal

HERE = Path(__file__).parent
STATIC, PAGES = HERE / "static", HERE / "pages"
TABLE = web.AppKey("table", TableClient)
HUB = web.AppKey("hub", Hub)
STATE_DIR = web.AppKey("state_dir", str)
LANG = web.AppKey("lang", str)
ROSTER = web.AppKey("roster", tuple)


def make_app(
    state_dir: str,
    *,
    lang: str = "uk",
    heartbeat: float = HEARTBEAT_SECONDS,
    port: int = 8080,
    names=(),
    host: str | None = None,
    roster=(),
) -> web.Application:
    """The web face of the table whose state folder is `state_dir` (its socket is there):
    the pages and the read API here, pairing and the writes from writes.py (`port`, `host`
    and `names`: how phones reach the table, for its QR code and the Host check; `roster`:
    the config's players, offered on a phone when the club sent none)."""
    app = web.Application()
    app[STATE_DIR], app[LANG], app[ROSTER] = str(state_dir), lang, tuple(roster)
    app[HUB] = Hub(heartbeat=heartbeat)
    app[TABLE] = TableClient(socket_path(state_dir))
    app.router.add_get("/", live_page)
    app.router.add_get("/overlay", overlay_page)
    app.router.add_get("/history", history_page)
    app.router.add_get("/history.csv", history_csv)
    app.router.add_get("/history.json", history_json)
    app.router.add_get("/api/state", api_state)
    app.router.add_get("/api/events", api_events)
    app.router.add_get("/api/roster", api_roster)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_static("/static", STATIC, append_version=False)
    app.cleanup_ctx.append(_follow_table)
    app.on_shutdown.append(_end_streams)
    writes.attach(app, app[TABLE], state_dir, port=port, names=names, lang=lang, host=host)
    return app


async def _follow_table(app: web.Application):
    """While the server runs: every state the table sends goes to every SSE client."""
    table, hub = app[TABLE], app[HUB]
    table.start()

    async def pump():
        async for message in table.messages():
            if message["type"] == "state":
                hub.publish(sse("state", state_event(message)))
            elif message["type"] == "link" and not message["connected"]:
                hub.publish(sse("table", {"connected": False}), state=False)

    task = asyncio.get_running_loop().create_task(pump())
    yield
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await table.close()


async def _end_streams(app: web.Application) -> None:
    app[HUB].close()


async def api_roster(request: web.Request) -> web.Response:
    """The names the table's setup screen offers (the club's players, fp/club/roster, else the
    config's; then those used recently), for a phone's setup of the next match."""
    kept = setup_store.peek(request.app[STATE_DIR])
    last = kept.last.players if kept.last else ()
    return web.json_response({"roster": list(kept.offered(request.app[ROSTER], last))})


def state_event(message: dict) -> dict:
    """What /api/events sends: the table's state message and the page's texts for it."""
    return {k: message[k] for k in ("state", "faults", "hint", "lang")} | {"view": view(message)}


def lang_of(app: web.Application) -> str:
    """The displays' language now (the sim's `l` key changes it), else the config's."""
    message = app[TABLE].state
    return message.get("lang", app[LANG]) if message else app[LANG]


# -- pages ---------------------------------------------------------------------------------------
def page(name: str, lang: str, **fields) -> web.Response:
    words = page_words(lang)
    text = Template((PAGES / name).read_text(encoding="utf-8")).substitute(
        lang=lang, **{f"w_{k}": html.escape(v) for k, v in words.items()}, **fields
    )
    return web.Response(text=text, content_type="text/html", charset="utf-8")


async def live_page(request: web.Request) -> web.Response:
    return page("live.html", lang_of(request.app))


async def overlay_page(request: web.Request) -> web.Response:
    """OBS: `?width=` the bar's width in px (default: the whole source), `?height=` its height
    (default 64), `?bottom=` its distance from the bottom (default 0)."""
    size = {
        key: _px(request.query.get(key), default, limit)
        for key, default, limit in (("width", 0, 7680), ("height", 64, 1080), ("bottom", 0, 4320))
    }
    width = f"{size['width']}px" if size["width"] else "100%"
    return page(
        "overlay.html",
        lang_of(request.app),
        width=width,
        height=f"{size['height']}px",
        bottom=f"{size['bottom']}px",
    )


def _px(value: str | None, default: int, limit: int) -> int:
    try:
        return max(0, min(int(value), limit)) if value is not None else default
    except ValueError:
        return default


async def favicon(request: web.Request) -> web.FileResponse:
    """The pages' icon (a rack of pyramid balls), where browsers ask for it; the club's too."""
    return web.FileResponse(STATIC / "favicon.png", headers={"Cache-Control": "max-age=86400"})


async def history_page(request: web.Request) -> web.Response:
    matches = await _matches(request)
    words = page_words(lang_of(request.app))
    rows = []
    for row in map(history.flat, matches):
        cells = (
            row["number"] or "–",
            row["started"],
            f"{row['player_a']} – {row['player_b']}",
            f"{row['frames_a']}:{row['frames_b']}"
            + ("" if row["finished"] == "yes" else f" ({words['unfinished']})"),
            row["frame_scores"],
        )
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in cells) + "</tr>")
    body = "\n".join(rows) or f'<tr><td colspan="5">{html.escape(words["no_matches"])}</td></tr>'
    return page("history.html", lang_of(request.app), rows=body)


async def history_csv(request: web.Request) -> web.Response:
    """The same as `scoreboard history --csv`."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=history.COLUMNS)
    writer.writeheader()
    writer.writerows(history.flat(row) for row in await _matches(request))
    return web.Response(
        text=out.getvalue(),
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="matches.csv"'},
    )


async def history_json(request: web.Request) -> web.Response:
    """The same as `scoreboard history --json`."""
    text = json.dumps(await _matches(request), ensure_ascii=False, indent=1)
    return web.Response(
        text=text + "\n",
        content_type="application/json",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="matches.json"'},
    )


async def _matches(request: web.Request) -> list[dict]:
    """The archive, read off the server's loop (a big archive must not stall the streams)."""
    try:
        return await asyncio.to_thread(history.rows, request.app[STATE_DIR])
    except OSError as exc:
        raise web.HTTPServiceUnavailable(text=f"cannot read the archive: {exc}") from None


# -- API -----------------------------------------------------------------------------------------
async def api_state(request: web.Request) -> web.Response:
    """The same JSON as `scoreboard status --json`: the table's, or the journal's if the table
    is not running."""
    message = request.app[TABLE].state
    if message is None:
        try:
            lines = (await asyncio.to_thread(read_journal, request.app[STATE_DIR])).lines
            snapshot = replay(lines).snapshot()
        except Exception as exc:  # unreadable, or one that does not replay (none: a new match)
            raise web.HTTPServiceUnavailable(text=f"no state: {exc}") from None
    else:
        snapshot = message["state"]
    return web.json_response(snapshot, dumps=lambda d: json.dumps(d, ensure_ascii=False))


async def api_events(request: web.Request) -> web.StreamResponse:
    return await request.app[HUB].stream(request)
