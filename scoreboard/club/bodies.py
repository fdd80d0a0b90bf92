"""A staff write's body on the club's server: JSON (RFC 8259's: no NaN), an object, arrived in
time (net/listen.py read_body); aiohttp's HTTP errors say what is wrong."""

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
