"""Tables as the club's hall sees them, for the tests: each table's messages under
fp/v1/<table>/ (availability, info, state, faults, assign) taken by the real Hall
(scoreboard/club/hall.py), the states real Match snapshots of match logs."""

import json

from scoreboard.club.hall import Hall
from scoreboard.core.matchlog import replay


def snapshot(*lines: str, **extra) -> dict:
    """The state of the match log `lines`, with `extra` keys (a table's `confirmation`)."""
    return {**replay(list(lines)).snapshot(), **extra}


class HallTables:
    """A real Hall fed the tables' messages (through `club`'s take, the broker's callback, if
    given: then it is the club's hall); `assign` is the runner's: the broker's retained copy
    comes back into the hall at once, and `sent` keeps (table, assign id, players)."""

    def __init__(self, club=None):
        self.club = club
        self.hall = Hall() if club is None else club.hall
        self.sent: list[tuple[str, str, list]] = []
        self.now = 0.0

    def take(self, table: str, name: str, payload) -> None:
        self.now += 1
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        if self.club is not None:
            self.club.take(f"fp/v1/{table}/{name}", data)
        else:
            self.hall.take(f"fp/v1/{table}/{name}", data, now=self.now)

    def table(self, table: str, *lines: str, name: str | None = None, **extra) -> None:
        """`table` online with the match `lines` (none: a new table in the lag)."""
        self.take(table, "availability", b"online")
        self.take(table, "info", {"table": table, "name": name or f"Table {table[1:]}"})
        self.state(table, *(lines or ("players A B",)), **extra)

    def state(self, table: str, *lines: str, **extra) -> None:
        self.take(table, "state", snapshot(*lines, **extra))

    def offline(self, table: str) -> None:
        self.take(table, "availability", b"offline")

    def faults(self, table: str, *kinds: str) -> None:
        self.take(table, "faults", {"faults": [{"kind": k} for k in kinds], "updated": "x"})

    def views(self) -> list[dict]:
        return self.hall.views()

    def assign(self, table: str, settings: dict | None, aid: str) -> None:
        if settings is None:
            self.take(table, "assign", b"")
            return
        self.sent.append((table, aid, settings["players"]))
        self.take(table, "assign", {"id": aid, **settings})


class Broker:
    """The club's broker client (club.client) over `tables`: each assign published comes back
    from the broker as the table's retained `assign`; `sent` keeps (table, id or None)."""

    def __init__(self, tables: HallTables):
        self.tables, self.sent = tables, []

    def assign(self, table: str, settings: dict | None, *, id=None):
        self.sent.append((table, id if settings is not None else None))
        self.tables.assign(table, settings, id)
        return {"id": id}

    def roster(self, names) -> None:
        pass
