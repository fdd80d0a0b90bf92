"""The tables' public keys in the club's database, and the results not taken (issue 34).

A key is the table's word for which results are its own: the club takes a result only when it
is signed by a key its staff approved for the table whose topic it came on. A key the club
hears of first from the table (its `info`, a result it signed) waits for the staff as
AWAITING; one a table at most, a newer one taking its place, so no table can fill the desk's
list. Staff approve a key, or register one they read off the table (`scoreboard status`), or
withdraw one (a card stolen). A result the club does not take is kept here with why: HELD for
a key not approved yet, taken once it is; or REFUSED."""

from datetime import UTC, datetime

from sqlalchemy import Engine, delete, insert, select, update

from scoreboard.clubdb.schema import results_not_taken, table_keys

AWAITING, APPROVED, WITHDRAWN = "awaiting", "approved", "withdrawn"
HELD, REFUSED = "held", "refused"


def _now() -> datetime:
    return datetime.now(UTC)


def status(engine: Engine, table: str, key: str) -> str | None:
    """AWAITING, APPROVED, WITHDRAWN, or None: the club has not heard of this key for it."""
    where = (table_keys.c.table_id == table) & (table_keys.c.key == key)
    with engine.connect() as db:
        return db.execute(select(table_keys.c.status).where(where)).scalar()


def announce(engine: Engine, table: str, key: str) -> str:
    """A key the table says is its own: AWAITING the staff if the club did not know it (in place
    of another key of the table awaiting them); its status."""
    with engine.begin() as db:
        where = (table_keys.c.table_id == table) & (table_keys.c.key == key)
        held = db.execute(select(table_keys.c.status).where(where)).scalar()
        if held is not None:
            return held
        db.execute(
            delete(table_keys).where(
                (table_keys.c.table_id == table) & (table_keys.c.status == AWAITING)
            )
        )
        db.execute(insert(table_keys).values(table_id=table, key=key, status=AWAITING, seen=_now()))
    return AWAITING


def decide(engine: Engine, table: str, key: str, verdict: str, *, by: str) -> None:
    """The staff's word on a key: APPROVED (registered if the club did not know it) or
    WITHDRAWN."""
    if verdict not in (APPROVED, WITHDRAWN):
        raise ValueError(f"no such verdict on a key: {verdict!r}")
    now = _now()
    decided = {"status": verdict, "decided": now, "decided_by": by}
    where = (table_keys.c.table_id == table) & (table_keys.c.key == key)
    with engine.begin() as db:
        if db.execute(select(table_keys.c.status).where(where)).first() is None:
            db.execute(insert(table_keys).values(table_id=table, key=key, seen=now, **decided))
        else:
            db.execute(update(table_keys).where(where).values(**decided))


def listed(engine: Engine) -> list[dict]:
    """Every key the club knows, by table, the awaiting ones of a table first."""
    with engine.connect() as db:
        rows = db.execute(select(table_keys)).all()
    order = {AWAITING: 0, APPROVED: 1, WITHDRAWN: 2}
    rows = sorted(rows, key=lambda r: (r.table_id, order.get(r.status, 3), r.key))
    return [
        {
            "table": r.table_id,
            "key": r.key,
            "status": r.status,
            "seen": _iso(r.seen),
            "decided": _iso(r.decided),
            "decided_by": r.decided_by,
        }
        for r in rows
    ]


def not_taken(engine: Engine, table: str, result: dict, state: str, reason: str) -> None:
    """`result` kept as HELD or REFUSED with `reason`, in place of what was kept for its match."""
    key = result.get("key") if isinstance(result.get("key"), str) else None
    values = {"state": state, "reason": reason[:200], "key": key, "at": _now(), "result": result}
    where = (results_not_taken.c.table_id == table) & (
        results_not_taken.c.match_id == result["match_id"]
    )
    with engine.begin() as db:
        if db.execute(select(results_not_taken.c.state).where(where)).first() is None:
            db.execute(
                insert(results_not_taken).values(
                    table_id=table, match_id=result["match_id"], **values
                )
            )
        else:
            db.execute(update(results_not_taken).where(where).values(**values))


def taken(engine: Engine, table: str, match_id: str) -> None:
    """The match's result was taken: nothing of it is held or refused any more."""
    with engine.begin() as db:
        db.execute(
            delete(results_not_taken).where(
                (results_not_taken.c.table_id == table) & (results_not_taken.c.match_id == match_id)
            )
        )


def held_for(engine: Engine, table: str) -> list[dict]:
    """The results of `table` held for a key, as sent, oldest first."""
    where = (results_not_taken.c.table_id == table) & (results_not_taken.c.state == HELD)
    with engine.connect() as db:
        rows = db.execute(
            select(results_not_taken.c.result).where(where).order_by(results_not_taken.c.at)
        ).all()
    return [r.result for r in rows]


def not_taken_listed(engine: Engine) -> list[dict]:
    """Every result not taken, newest first: table, match id, held or refused, why, when."""
    with engine.connect() as db:
        rows = db.execute(
            select(
                results_not_taken.c.table_id,
                results_not_taken.c.match_id,
                results_not_taken.c.state,
                results_not_taken.c.reason,
                results_not_taken.c.key,
                results_not_taken.c.at,
            )
        ).all()
    rows = sorted(rows, key=lambda r: (_iso(r.at), r.table_id, r.match_id), reverse=True)
    return [
        {
            "table": r.table_id,
            "match_id": r.match_id,
            "state": r.state,
            "reason": r.reason,
            "key": r.key,
            "at": _iso(r.at),
        }
        for r in rows
    ]


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is None:  # SQLite gives its times back without their zone: kept in UTC
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
