"""The tables' keys at the club (issue 34): every result a table sends is checked against the
key the staff approved for the table whose topic it came on, before the club keeps it.

- signed by an approved key and its signature verifies: taken;
- its signature does not verify (a result changed on the way, or signed by another key than
  the one it names), or it is not signed, or signed by a key the staff withdrew: refused, said
  in the log and at the desk with why;
- signed by a key the club has not approved (a new table, a table with a new card): held and
  said ("awaiting the key of table t3"), the key awaiting the staff; taken once they approve.

A key also comes on first contact: the table's `info` carries it. Staff approve it at the
desk, or register a key read off the table (`scoreboard status`), or withdraw one; as every
staff write, with the staff password from the club's own page. A club without its database
keeps no keys: it takes a result signed by the key it names, or one not signed at all (a
table older than issue 34), and refuses one whose signature does not verify.
"""

import asyncio
import base64
import logging

from aiohttp import web

from scoreboard.club.bodies import database, json_object
from scoreboard.mqtt.topics import TABLE_ID
from scoreboard.signing import signature
from scoreboard.signing.table_key import fingerprint

# scoreboard.clubdb needs the desk extra (SQLAlchemy): imported where a database is there.

LOGGER = logging.getLogger("scoreboard.club")


class TableKeys:
    """`club`: check_staff(request), take_result(table, result), tell_pages(message);
    `engine`: the club's database, None when it has none."""

    def __init__(self, club, engine) -> None:
        self.club, self.engine = club, engine
        self._announced: dict[str, str] = {}  # table -> the key its info last named

    def routes(self) -> list:
        return [
            web.get("/api/table-keys", self.listing),
            web.post("/api/table-keys", self.approve),
            web.post("/api/table-keys/withdraw", self.withdraw),
            web.get("/table-keys.txt", self.keys_file),
        ]

    # -- from the broker (the asyncio loop) ---------------------------------------------------
    def announced(self, table: str, key) -> None:
        """The key a table's `info` names: awaiting the staff if the club did not know it."""
        if self.engine is None or not _is_key(key) or self._announced.get(table) == key:
            return
        from sqlalchemy.exc import SQLAlchemyError

        from scoreboard.clubdb import table_keys

        try:
            if table_keys.announce(self.engine, table, key) == table_keys.AWAITING:
                LOGGER.warning(
                    "club: table %s has a key the staff have not approved (fingerprint %s): "
                    "approve it at the desk",
                    table,
                    fingerprint(key),
                )
                self.club.tell_pages({"type": "keys"})
        except SQLAlchemyError as exc:
            LOGGER.warning("club: table %s's key not kept: %s", table, exc)
            return
        self._announced[table] = key

    def vet(self, table: str, result: dict) -> bool:
        """Whether to take `result`, which came on `table`'s topic; one not taken is kept with
        why (held or refused), said in the log and to the desk's page."""
        why = signature.check(result)  # by the key it names: a result changed on the way
        if self.engine is None:
            if why is None or why == "not signed":
                return True  # no keys kept: the broker's ACL is all the club has
            LOGGER.warning("club: result %s from %s refused: %s", result["match_id"], table, why)
            return False
        from sqlalchemy.exc import SQLAlchemyError

        from scoreboard.clubdb import table_keys

        try:
            if why is not None:
                return self._not_taken(table, result, table_keys.REFUSED, why)
            status = table_keys.status(self.engine, table, result["key"])
            if status is None:
                status = table_keys.announce(self.engine, table, result["key"])
            if status == table_keys.WITHDRAWN:
                return self._not_taken(
                    table, result, table_keys.REFUSED, "signed by a key the staff withdrew"
                )
            if status != table_keys.APPROVED:
                return self._not_taken(
                    table, result, table_keys.HELD, f"awaiting the key of table {table}"
                )
            table_keys.taken(self.engine, table, result["match_id"])
            return True
        except SQLAlchemyError as exc:  # the broker keeps it: it comes again
            LOGGER.warning(
                "club: result %s from %s not checked: %s", result["match_id"], table, exc
            )
            return False

    def refused(self, table: str, result: dict, why: str) -> None:
        """A result the club cannot keep for another reason (club/results.py `problem`)."""
        if self.engine is None:
            return
        from sqlalchemy.exc import SQLAlchemyError

        from scoreboard.clubdb import table_keys

        try:
            self._not_taken(table, result, table_keys.REFUSED, why)
        except SQLAlchemyError as exc:
            LOGGER.warning("club: result %s not kept as refused: %s", result["match_id"], exc)

    def _not_taken(self, table: str, result: dict, state: str, why: str) -> bool:
        from scoreboard.clubdb import table_keys

        table_keys.not_taken(self.engine, table, result, state, why)
        LOGGER.warning("club: result %s from %s %s: %s", result["match_id"], table, state, why)
        self.club.tell_pages({"type": "keys"})
        return False

    # -- the web ------------------------------------------------------------------------------
    async def listing(self, request: web.Request) -> web.Response:
        """Every key (each with its fingerprint) and every result not taken, with why."""
        engine = database(self.engine)
        from scoreboard.clubdb import table_keys

        keys = await asyncio.to_thread(table_keys.listed, engine)
        results = await asyncio.to_thread(table_keys.not_taken_listed, engine)
        return web.json_response(
            {
                "keys": [{**k, "fingerprint": fingerprint(k["key"])} for k in keys],
                "not_taken": results,
            }
        )

    async def approve(self, request: web.Request) -> web.Response:
        """Staff: `{"table": "t3", "key": "<base64>", "by": "Ira"}`, a key awaiting approval
        or one read off the table; the table's results held for it are taken now."""
        from scoreboard.clubdb import table_keys

        table, key, by = await self._staff_key(request)
        await asyncio.to_thread(table_keys.decide, self.engine, table, key, "approved", by=by)
        LOGGER.info(
            "club: %s approved table %s's key (fingerprint %s)", by, table, fingerprint(key)
        )
        taken = 0
        for result in await asyncio.to_thread(table_keys.held_for, self.engine, table):
            taken += bool(self.club.take_result(table, result))
        self.club.tell_pages({"type": "keys"})
        return web.json_response({"ok": True, "taken": taken})

    async def withdraw(self, request: web.Request) -> web.Response:
        """Staff: `{"table", "key", "by"}`: results signed by it are refused from now on."""
        from scoreboard.clubdb import table_keys

        table, key, by = await self._staff_key(request)
        if await asyncio.to_thread(table_keys.status, self.engine, table, key) is None:
            raise web.HTTPNotFound(text=f"table {table} has no such key")
        await asyncio.to_thread(table_keys.decide, self.engine, table, key, "withdrawn", by=by)
        LOGGER.warning("club: %s withdrew table %s's key (%s)", by, table, fingerprint(key))
        self.club.tell_pages({"type": "keys"})
        return web.json_response({"ok": True})

    async def keys_file(self, request: web.Request) -> web.Response:
        """The approved keys, `TABLE KEY` a line: `scoreboard verify EXPORT --keys FILE`."""
        engine = database(self.engine)
        from scoreboard.clubdb import table_keys

        keys = await asyncio.to_thread(table_keys.listed, engine)
        lines = [f"{k['table']} {k['key']}\n" for k in keys if k["status"] == "approved"]
        return web.Response(text="".join(lines), content_type="text/plain", charset="utf-8")

    async def _staff_key(self, request: web.Request) -> tuple[str, str, str]:
        from scoreboard.club.tournament_staff import staff_name

        self.club.check_staff(request)
        database(self.engine)
        body = await json_object(request)
        table, key = body.get("table"), body.get("key")
        if not isinstance(table, str) or not TABLE_ID.match(table):
            raise web.HTTPBadRequest(text="table: a table's id")
        key = key.strip() if isinstance(key, str) else key
        if not _is_key(key):
            raise web.HTTPBadRequest(
                text="key: the table's public key as `scoreboard status` shows it (44 letters "
                "of base64)"
            )
        return table, key, staff_name(body)


def _is_key(key) -> bool:
    """An Ed25519 public key as the tables write it: 32 bytes in base64."""
    try:
        return isinstance(key, str) and len(base64.b64decode(key, validate=True)) == 32
    except ValueError:
        return False
