"""What the club knows of each table, from the messages under fp/v1/<table>/: pure, so the
page, the tests and the bench read the same views."""

import re
from dataclasses import dataclass, field

from scoreboard.bridge.protocol import strict_loads
from scoreboard.club.free_table import in_use
from scoreboard.mqtt import topics

PHASES = ("lag", "break", "play", "foul", "break-foul", "frame-over", "match-over")


def _sides(value, kind) -> bool:
    return isinstance(value, dict) and all(isinstance(value.get(s), kind) for s in "AB")


def state_problem(state: dict) -> str | None:
    """Why a table's `state` cannot be shown (None: it can): each field the hall's page reads,
    of its type. Checked on arrival: a table's own credentials may publish anything (issue 21)."""
    checks = {
        "phase": lambda v: v in PHASES,
        "players": lambda v: _sides(v, str),
        "score": lambda v: _sides(v, int) and not any(isinstance(v[s], bool) for s in "AB"),
        "frames": lambda v: _sides(v, int) and not any(isinstance(v[s], bool) for s in "AB"),
        "race": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
        "target": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
        "striker": lambda v: v in (None, "A", "B"),
        "winner": lambda v: v in (None, "A", "B"),
        "events": lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    }
    for key, good in checks.items():
        if not good(state.get(key)):
            return f"{key}: {state.get(key)!r:.40}"
    return None


@dataclass
class Table:
    id: str
    online: bool | None = None  # None: never heard of its availability
    info: dict = field(default_factory=dict)
    state: dict | None = None
    faults: list = field(default_factory=list)
    updated: str | None = None  # when the table last changed (its own clock)
    received: float | None = None  # when the club last heard from it (the club's clock)
    assign: dict | None = None  # the next match the club set (retained)
    assigned: dict | None = None  # the table's answer to it

    def view(self) -> dict:
        """One table as the page shows it."""
        s = self.state or {}
        busy = in_use(s)  # club/free_table.py: the one free-table rule
        if self.online is False:
            status = "offline"
        elif self.faults:
            status = "fault"
        else:
            status = busy or "idle"
        pending = self.assign
        if pending and self.assigned and self.assigned.get("id") == pending.get("id"):
            pending = {**pending, "answer": self.assigned}
        return {
            "table": self.id,
            "name": self.info.get("name") or self.id,
            "version": self.info.get("version"),
            "status": status,
            "busy": busy,
            "online": self.online,
            "players": s.get("players"),
            "score": s.get("score"),
            "frames": s.get("frames"),
            "race": s.get("race"),
            "target": s.get("target"),
            "phase": s.get("phase"),
            "striker": s.get("striker"),
            "winner": s.get("winner"),
            "events": s.get("events"),
            "faults": [f.get("kind") for f in self.faults],
            "updated": self.updated,
            "received": self.received,
            "assign": pending,
        }


class Hall:
    """Every table the broker has told of. `take` answers which table changed and, for a
    finished match, its result (the caller keeps it)."""

    def __init__(self):
        self.tables: dict[str, Table] = {}

    def table(self, table_id: str) -> Table:
        if table_id not in self.tables:
            self.tables[table_id] = Table(table_id)
        return self.tables[table_id]

    def take(self, topic: str, payload: bytes, *, now: float) -> tuple[str | None, dict | None]:
        """(the table that changed or None, a result or None) for one MQTT message. A payload
        that does not read is ignored: one bad table must not stop the hall's screen."""
        parts = topics.split(topic)
        if parts is None:
            return None, None
        table_id, name, rest = parts
        try:
            data = strict_loads(payload) if payload and name != topics.AVAILABILITY else None
        except (ValueError, UnicodeDecodeError):
            return None, None
        t = self.table(table_id)
        if name == topics.AVAILABILITY:
            t.online = payload == topics.ONLINE.encode()
        elif name == topics.STATE and isinstance(data, dict) and state_problem(data) is None:
            t.state = data
        elif name == topics.FAULTS and isinstance(data, dict):
            faults = data.get("faults", [])
            t.faults = [
                f for f in (faults if isinstance(faults, list) else [])
                if isinstance(f, dict) and isinstance(f.get("kind"), str)
            ]  # fmt: skip
            updated = data.get("updated")
            t.updated = updated if isinstance(updated, str) else None
        elif name == topics.INFO and isinstance(data, dict):
            t.info = {k: v for k, v in data.items() if isinstance(v, str | int | float | None)}
        elif name == topics.ASSIGN:
            t.assign = data if isinstance(data, dict) else None
        elif name == topics.ASSIGNED and isinstance(data, dict):
            t.assigned = data
        elif name == topics.RESULT and rest and isinstance(data, dict):
            return None, {**data, "table": table_id, "match_id": rest[0]}
        else:
            return None, None
        t.received = now
        return table_id, None

    def views(self) -> list[dict]:
        return [self.tables[k].view() for k in sorted(self.tables, key=_natural)]


def _natural(name: str):
    """table2 before table10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", name)]
