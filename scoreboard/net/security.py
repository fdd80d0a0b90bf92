"""Who may write to the table over the network (issue 12, docs/threat-model.md).

Reading needs nothing. A write is a JSON ``POST`` under ``/api/`` and must pass, in order:

1. **Host**: the name the browser asked for is this table's own (its host name, that name
   with ``.local``, an address of this machine, ``localhost``), else 403: a page from
   another site whose name was pointed at the table's address (DNS rebinding) is refused.
   Checked on every write and on the pairing reads (:data:`PAIRING_READS`); the public
   reads answer whatever name they are asked by.
2. **Origin**: present and the same as the table's (scheme, name and port), else 403: a
   page from another origin cannot write, even one on the same machine whose cookies the
   browser would send (SameSite ignores ports).
3. **Pairing**: a cookie of a paired phone (phones.py), else 401; ``/api/pair`` itself
   needs none.
4. **CSRF token**: the header ``X-CSRF-Token`` equal to the token ``GET /api/session``
   gives this browser (derived from its cookie, so another origin can neither read nor
   guess it), else 403; and a JSON body (``Content-Type: application/json``), else 415.

No response carries ``Access-Control-Allow-*``: a preflight (``OPTIONS``) is refused, so
a browser never lets another origin send the header a write needs.
"""

import hashlib
import hmac
import ipaddress
import secrets
import socket
from urllib.parse import urlsplit

from aiohttp import web

SESSION_COOKIE = "sb_session"  # a paired phone's token, 30 days
BROWSER_COOKIE = "sb_browser"  # any browser's random id until it pairs: the pair call's CSRF
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = ("GET", "HEAD")
# Reads about pairing, Host-checked like a write; the other reads are public (the score, the
# overlay, the history), whatever name a browser reached them by (a club's DNS name for OBS).
PAIRING_READS = ("/api/session", "/api/phones")


def host_name(host: str | None) -> str | None:
    """The name in a Host header or an origin's netloc, without port, lowercased."""
    if not host:
        return None
    try:
        name = urlsplit("//" + host).hostname
    except ValueError:
        return None
    return name.rstrip(".").lower() if name else None


def own_names() -> set[str]:
    """The names this machine answers to, besides its addresses."""
    name = socket.gethostname().lower()
    return {"localhost", name, f"{name}.local", socket.getfqdn().lower()}


def is_own_host(request: web.Request, names: set[str]) -> bool:
    """Host names this table: one of ``names``, or the address the request came in on (a
    phone that typed the table's IP), or a loopback address."""
    name = host_name(request.host)
    if name is None:
        return False
    if name in names:
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False  # a name that is not ours: DNS rebinding
    if address.is_loopback:
        return True
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    if not sockname:
        return False
    try:
        return address == ipaddress.ip_address(sockname[0].split("%")[0])
    except ValueError:
        return False


def is_same_origin(request: web.Request) -> bool:
    """The request's Origin is the table's own: the page that sent it came from here."""
    origin = request.headers.get("Origin")
    if not origin or origin == "null":
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    # The whole origin: the scheme too (https://table:8080 is not the http page's origin).
    return parts.scheme == request.scheme and parts.netloc.lower() == request.host.lower()


def csrf_token(cookie_value: str) -> str:
    """The token a page must send back in the header: bound to the browser's cookie."""
    return hmac.new(cookie_value.encode(), b"scoreboard csrf", hashlib.sha256).hexdigest()


def has_csrf_token(request: web.Request, cookie_value: str | None) -> bool:
    sent = request.headers.get(CSRF_HEADER, "")
    return bool(cookie_value) and hmac.compare_digest(sent, csrf_token(cookie_value))


def csrf_refusal(request: web.Request, cookie_value: str | None) -> web.Response | None:
    """None when the request carries this browser's token; else the 403 that says whether
    none was sent or a wrong one (an old page's, another browser's)."""
    if has_csrf_token(request, cookie_value):
        return None
    if not request.headers.get(CSRF_HEADER):
        return refuse(403, "no CSRF token: load the page again")
    return refuse(403, "wrong CSRF token: load the page again")


def new_browser_id() -> str:
    return secrets.token_urlsafe(24)


def refuse(status: int, message: str) -> web.Response:
    return web.json_response({"ok": False, "message": message}, status=status)


def guard(names=()):
    """The middleware for the checks 1 and 2 above, and the refusal of preflights; pairing and the token are checked by each write (writes.py).
    ``names``: more names the table is reached by (a club's own DNS name for it)."""
    allowed = own_names() | {n.lower() for n in names}

    @web.middleware
    async def middleware(request: web.Request, handler):
        if request.method == "OPTIONS":
            return refuse(403, "no cross-origin requests")
        writing = request.method not in SAFE_METHODS
        if writing or request.path in PAIRING_READS:
            if not is_own_host(request, allowed):
                return refuse(403, f"{request.host!r} is not this table's address")
            if writing and not is_same_origin(request):
                return refuse(403, "a write must come from the table's own page")
        return await handler(request)

    return middleware
