"""The MQTT topics of a table and their payloads: one place for both sides (table and club).

Every topic is under ``fp/v1/<table>/`` (docs/API.md "MQTT"); every payload is UTF-8 JSON
but `availability` (``online``/``offline``).
"""

import json
import re
from datetime import UTC, datetime

from scoreboard.bridge.protocol import strict_loads
from scoreboard.core.settings import ASSIGN_ID
from scoreboard.texts.i18n import LANGUAGES

PREFIX = "fp/v1"
ONLINE, OFFLINE = "online", "offline"
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
MATCH_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")

# What a table publishes (each retained but `event`) and what it reads (`assign`).
AVAILABILITY = "availability"
STATE = "state"
FAULTS = "faults"
EVENT = "event"
INFO = "info"
ASSIGN = "assign"
ASSIGNED = "assigned"
RESULT = "result"


def topic(table: str, name: str, *rest: str) -> str:
    return "/".join((PREFIX, table, name, *rest))


def split(topic_name: str) -> tuple[str, str, tuple[str, ...]] | None:
    """``fp/v1/<table>/<name>[/...]`` as (table, name, rest); None for any other topic."""
    parts = topic_name.split("/")
    if len(parts) < 4 or "/".join(parts[:2]) != PREFIX or not TABLE_ID.match(parts[2]):
        return None
    return parts[2], parts[3], tuple(parts[4:])


def encode(payload) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def now_iso(t: float | None = None) -> str:
    moment = datetime.now(UTC) if t is None else datetime.fromtimestamp(t, UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def faults_payload(faults, *, updated: str) -> dict:
    """The table's faults as the `faults` topic carries them, with when the table last
    changed (the socket leaves out what is the screens' own, a fault's `page`: app.Shown.data,
    so a long fault does not publish every 2 s)."""
    return {
        "faults": [dict(f) for f in faults],
        "updated": updated,
    }


def info_payload(
    *, table: str, name: str, version: str, displays: list[str], language: str
) -> dict:
    return {
        "table": table,
        "name": name or table,
        "version": version,
        "displays": displays,
        "language": language,
        "languages": list(LANGUAGES),
    }


def match_id(started: str | None) -> str | None:
    """A finished match's id in `result/<match_id>`: the moment it started, compact
    (``20261203T143000Z``): the same while it waits in the journal and once archived."""
    if not started:
        return None
    compact = started.replace("-", "").replace(":", "")
    return compact if MATCH_ID.match(compact) else None


class AssignError(ValueError):
    """An `assign` payload the table cannot take; the message says why."""


ASSIGN_KEYS = {"players", "race", "target", "options", "lang", "breaker"}
# The largest assign a table reads: a real one is a few hundred bytes; a larger one is refused
# here, once, never passed on as a command longer than the local socket's line (64 KiB),
# which dropped the link to the table again on every retained copy (issue 21).
MAX_ASSIGN = 8 * 1024


def parse_assign(data: bytes) -> dict | None:
    """The club's next match for a table: ``{"id": "...", "players": ["Olena", "Taras"],
    "race": 3, "target": 8, ...}`` (any of the setup command's keys; docs/API.md). An empty
    payload (a cleared retained message) is None. The table checks the values themselves."""
    if not data:
        return None
    if len(data) > MAX_ASSIGN:
        raise AssignError(f"too large: {len(data)} bytes (at most {MAX_ASSIGN})")
    try:
        payload = strict_loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AssignError(f"not JSON: {exc}") from None
    if not isinstance(payload, dict):
        raise AssignError("must be a JSON object")
    if not isinstance(payload.get("id"), str) or not 1 <= len(payload["id"]) <= 64:
        raise AssignError("needs an 'id': a string of 1 to 64 characters")
    unknown = set(payload) - ASSIGN_KEYS - {"id", "by", "at"}
    if unknown:
        raise AssignError(f"unknown keys: {', '.join(sorted(unknown))}")
    return payload


# The club's players, for every table's setup screen (issue 22): one retained message the
# club writes and every table reads, outside the tables' own topics (the ACL keeps the club
# from writing as a table).
ROSTER = "fp/club/roster"
MAX_ROSTER = 16 * 1024  # 200 names of 12 letters, 4 bytes each at most, and the JSON around


def parse_roster(data: bytes) -> list[str] | None:
    """The club's roster, ``{"roster": ["Олена", "Тарас", ...]}``; an empty payload (cleared)
    is None. The names are the table's to check (its roster command)."""
    if not data:
        return None
    if len(data) > MAX_ROSTER:
        raise AssignError(f"roster too large: {len(data)} bytes (at most {MAX_ROSTER})")
    try:
        payload = strict_loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AssignError(f"roster not JSON: {exc}") from None
    names = payload.get("roster") if isinstance(payload, dict) else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise AssignError('a roster is {"roster": [names]}')
    return names


def setup_args(assign: dict) -> dict:
    """The bridge's `setup` command arguments for an assign payload: its settings, and its id,
    which the match's result carries back (issue 22: the club's tournament moves on)."""
    args = {k: v for k, v in assign.items() if k in ASSIGN_KEYS}
    if ASSIGN_ID.match(assign["id"]):  # an id the table can journal (any other: untagged)
        args["assign"] = assign["id"]
    return args


# An update for the tables (issue 23): the club's desk offers a signed update it keeps and
# serves; each card-image table fetches it, checks its SHA-256, and installs it between
# matches once RAUC has checked the club's signature (scoreboard/mqtt/update_offer.py). One
# retained message the club writes and every table reads; empty: nothing offered.
UPDATE = "fp/club/update"
MAX_UPDATE_BYTES = 4 << 30  # a card's root slot is 1.25 GiB; a bundle is smaller still
_VERSION = re.compile(r"^[A-Za-z0-9._+~-]{1,40}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


def parse_update(data: bytes) -> dict | None:
    """``{"version": "0.2.0", "sha256": "<hex>", "size": N, "url": "http://club:8090/updates/<sha256>.raucb"}``;
    an empty payload (withdrawn) is None."""
    if not data:
        return None
    if len(data) > 4096:
        raise AssignError(f"update offer too large: {len(data)} bytes")
    try:
        payload = strict_loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise AssignError(f"update offer not JSON: {exc}") from None
    if not isinstance(payload, dict) or set(payload) != {"version", "sha256", "size", "url"}:
        raise AssignError('an update offer is {"version", "sha256", "size", "url"}')
    version, sha, size, url = (payload[k] for k in ("version", "sha256", "size", "url"))
    if not isinstance(version, str) or not _VERSION.match(version):
        raise AssignError("an update's version is 1 to 40 letters, digits and ._+~-")
    if not isinstance(sha, str) or not _SHA256.match(sha):
        raise AssignError("an update's sha256 is 64 lowercase hex digits")
    if not isinstance(size, int) or isinstance(size, bool) or not 0 < size <= MAX_UPDATE_BYTES:
        raise AssignError(f"an update's size is 1 to {MAX_UPDATE_BYTES} bytes")
    if not isinstance(url, str) or not re.match(r"^https?://[^\s/]+/\S{1,400}$", url):
        raise AssignError("an update's url is http(s)://host/path")
    return payload
