"""The socket's messages: one JSON object a line (docs/API.md, "The table's socket").

Table -> client: ``{"type": "state", "state": {...}, "faults": [...], "hint": ..., "lang": "uk"}``
on connect and after every change shown (``state`` is the dict `scoreboard status --json`
prints); ``{"type": "event", "n": N, "line": "shot pots=1"}`` for each accepted event (``n``:
its line number in the match's journal). Client -> table: ``{"type": "command", "id": "x",
"cmd": "undo", ...}``, answered by ``{"type": "reply", "id": "x", "ok": true, "message": "..."}``.
"""

import json
import math
from dataclasses import dataclass, field

MAX_LINE = 64 * 1024  # a command longer than this is refused, and the client dropped


class ProtocolError(ValueError):
    """A line that is not a command the table can read; the message says why."""


@dataclass(frozen=True)
class Command:
    id: str
    cmd: str
    args: dict = field(default_factory=dict)


def encode(message: dict) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


def hint_message(hint) -> dict | None:
    """The app's hint (a key, or (key, ((field, value), ...))) as JSON."""
    if hint is None:
        return None
    key, fields = hint if isinstance(hint, tuple) else (hint, ())
    return {"key": key, "fields": dict(fields)}


def state_message(snapshot: dict, *, faults=(), hint=None, lang: str = "uk") -> dict:
    return {
        "type": "state",
        "state": snapshot,
        "faults": [dict(f) for f in faults],
        "hint": hint_message(hint),
        "lang": lang,
    }


def event_message(n: int, line: str) -> dict:
    return {"type": "event", "n": n, "line": line}


def reply_message(id: str, ok: bool, message: str = "") -> dict:
    return {"type": "reply", "id": id, "ok": ok, "message": message}


def command_message(id: str, cmd: str, **args) -> dict:
    return {"type": "command", "id": id, "cmd": cmd, **args}


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON has")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):  # 1e400 reads as inf
        raise ValueError(f"{text} is not a number JSON has")
    return number


def strict_loads(data: bytes | str):
    """JSON as RFC 8259 has it: no NaN or Infinity, written or overflowing (Python's json
    takes them, and a NaN time would upset a timer), and nesting too deep is a ValueError,
    never a RecursionError."""
    try:
        return json.loads(data, parse_constant=_no_constant, parse_float=_finite)
    except RecursionError:
        raise ValueError("nested too deep") from None


def parse_command(line: bytes) -> Command:
    """A client's line as a Command, or ProtocolError saying what is wrong with it."""
    try:
        message = strict_loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    if message.get("type") != "command":
        raise ProtocolError(f"unknown message type {message.get('type')!r} (send 'command')")
    id, cmd = message.get("id", ""), message.get("cmd")
    if not isinstance(id, str) or not isinstance(cmd, str) or not cmd:
        raise ProtocolError("a command needs a string 'id' and a string 'cmd'")
    args = {k: v for k, v in message.items() if k not in ("type", "id", "cmd")}
    return Command(id, cmd, args)
