"""What the club's desk endpoints (players, tournaments) share: a staff write's body, JSON (RFC
8259's: no NaN), an object, arrived in time (net/listen.py read_body); and the club's database,
or a 503 that says what to install. aiohttp's HTTP errors say what is wrong."""

from aiohttp import web

from scoreboard.bridge.protocol import strict_loads
from scoreboard.net.listen import read_body


async def json_object(request: web.Request) -> dict:
    try:
        body = strict_loads(await read_body(request))
    except TimeoutError:
        raise web.HTTPRequestTimeout(text="the body did not come in time") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise web.HTTPBadRequest(text=f"not JSON: {exc}") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="send a JSON object")
    return body


NO_DATABASE = (
    "the club runs without its database: install the desk extra (pip install '.[desk]') and "
    "start scoreboard club again"
)


def database(engine):
    """`engine`, or 503 when the club has none; asked before scoreboard.clubdb is imported,
    which needs the desk extra (SQLAlchemy)."""
    if engine is None:
        raise web.HTTPServiceUnavailable(text=NO_DATABASE)
    return engine
