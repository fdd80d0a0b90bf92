"""The players' own pages (issue 22), read only, for anyone in the club (a phone that scanned
the hall TV's QR code): `/players`, the club's players with their ratings; `/player/<id>`,
one player's rating and its history, their last matches, and when and on which table they
play next; `/api/players/<id>`, the same as JSON; `/players-qr.svg`, the QR code the hall TV
shows, to `/players` at the address the TV's browser reached the club by.

The pages are written here, with no script (a Content-Security-Policy that allows none), and
reload themselves every 30 s: the next game's table appears without a touch."""

import asyncio
import html
import io
from datetime import UTC, datetime

from aiohttp import web

from scoreboard.club.bodies import database

POLICY = (
    "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; "
    "form-action 'none'; frame-ancestors 'none'"
)
LAST_MATCHES = 10
RELOAD = 30  # seconds


class PlayerPages:
    """`club.desk.next_for(name)`: where each tournament in play sends the player next."""

    def __init__(self, club, engine) -> None:
        self.club, self.engine = club, engine

    def routes(self) -> list:
        return [
            web.get("/players", self.players_page),
            web.get("/player/{id}", self.player_page),
            web.get("/api/players/{id}", self.player_json),
            web.get("/players-qr.svg", self.qr_code),
        ]

    # -- what the pages say -------------------------------------------------------------------
    def _rated(self) -> list[dict]:
        """The roster with each one's rating (None: no match yet), best first."""
        from scoreboard.clubdb import players
        from scoreboard.clubdb.ratings import club_ratings

        found = club_ratings(self.engine)
        out = []
        for p in players.roster(self.engine):
            rating = found.rating.get(p["name"])
            played = len(found.history.get(p["name"], []))
            out.append({**p, "rating": _round(rating), "matches": played})
        return sorted(out, key=lambda p: (p["rating"] is None, -(p["rating"] or 0)))

    def _player(self, pid: int) -> dict | None:
        from scoreboard.clubdb import players
        from scoreboard.clubdb.ratings import club_ratings

        player = next((p for p in players.roster(self.engine) if p["id"] == pid), None)
        if player is None:
            return None
        found = club_ratings(self.engine)
        history = found.history.get(player["name"], [])
        return {
            **player,
            "rating": _round(found.rating.get(player["name"])),
            "history": [{"ended": h["ended"], "rating": h["after"]} for h in history],
            "last_matches": history[::-1][:LAST_MATCHES],
        }

    async def _found(self, request: web.Request) -> dict:
        database(self.engine)
        try:
            pid = int(request.match_info["id"])
        except ValueError:
            raise web.HTTPNotFound(text="no such player") from None
        player = await asyncio.to_thread(self._player, pid)
        if player is None:
            raise web.HTTPNotFound(text="no such player")
        player["next"] = self.club.desk.next_for(player["name"])  # the loop's: the runners
        return player

    # -- the web ------------------------------------------------------------------------------
    async def player_json(self, request: web.Request) -> web.Response:
        return web.json_response(await self._found(request))

    async def player_page(self, request: web.Request) -> web.Response:
        p = await self._found(request)
        e = html.escape
        full = " · ".join(e(x) for x in (p["full_name"], p["nickname"]) if x)
        rating = "not rated yet" if p["rating"] is None else f"rating {p['rating']}"
        nexts = "".join(f"<li>{_next(n)}</li>" for n in p["next"]) or "<li>no game in play</li>"
        rows = "".join(
            f"<tr><td>{_when(m['ended'])}</td><td>{e(m['table'])}</td><td>{e(m['opponent'])}"
            f"</td><td>{m['frames'][0]}:{m['frames'][1]}</td>"
            f"<td>{m['after']:.0f} ({m['after'] - m['before']:+.0f})</td></tr>"
            for m in p["last_matches"]
        )
        trend = " → ".join(f"{h['rating']:.0f}" for h in p["history"][-12:])
        body = (
            f"<h1>{e(p['name'])}</h1><p class=full>{full}</p><p class=rating>{rating}</p>"
            f"<h2>Next</h2><ul class=next>{nexts}</ul>"
            f"<h2>Rating</h2><p class=trend>{trend or '—'}</p>"
            f"<h2>Last matches</h2><table class=matches><tr><th>ended</th><th>table</th>"
            f"<th>against</th><th>frames</th><th>rating</th></tr>{rows}</table>"
        )
        return _page(p["name"], body)

    async def players_page(self, request: web.Request) -> web.Response:
        database(self.engine)
        rated = await asyncio.to_thread(self._rated)
        e = html.escape
        rows = "".join(
            f"<tr><td><a href=/player/{p['id']}>{e(p['name'])}</a></td>"
            f"<td>{e(p['full_name'])}</td><td>{'—' if p['rating'] is None else p['rating']}</td>"
            f"<td>{p['matches']}</td></tr>"
            for p in rated
        )
        body = (
            "<h1>Players</h1><table class=players><tr><th>name</th><th>full name</th>"
            f"<th>rating</th><th>matches</th></tr>{rows}</table>"
        )
        return _page("Players", body)

    async def qr_code(self, request: web.Request) -> web.Response:
        """The players' pages at the address this browser reached the club by."""
        import segno

        out = io.BytesIO()
        url = f"{request.scheme}://{request.host}/players"
        segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, title=url)
        return web.Response(body=out.getvalue(), content_type="image/svg+xml")


def _when(ended: str | None) -> str:
    """When a match ended, short, in the club's time zone (a phone's narrow screen)."""
    try:
        moment = datetime.strptime(ended or "", "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return ""
    return moment.astimezone().strftime("%d.%m %H:%M")


def _round(rating: float | None) -> int | None:
    return None if rating is None else round(rating)


def _next(game: dict) -> str:
    e = html.escape
    against = f"against {e(game['opponent'])}" if game["opponent"] else "against the winner to come"
    where = (
        f"<b>now at table {e(game['table_name'])}</b>"
        if game["table"]
        else "waiting for a free table"
        if game["opponent"]
        else "waiting for the opponent"
    )
    return f"{e(game['tournament_name'])}, {e(game['game'])} {against}: {where}"


def _page(title: str, body: str) -> web.Response:
    text = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<meta http-equiv=refresh content={RELOAD}><title>{html.escape(title)}</title>"
        "<link rel=stylesheet href=/static/club.css></head><body class=player-page>"
        f"<header><span>{html.escape(title)}</span><span><a href=/players>players</a>"
        f"<a href=/>all tables</a></span></header><main>{body}</main></body></html>"
    )
    response = web.Response(text=text, content_type="text/html", charset="utf-8")
    response.headers["Content-Security-Policy"] = POLICY
    return response
