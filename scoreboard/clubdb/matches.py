"""Every finished match the tables sent (issue 22), one row per (table, match id), with the
result as sent. The same result again is nothing new; a changed one (UNDO at the table after
the end, then another end) replaces it, as the club's result book does (club/results.py).
The caller checks a result before (club/results.py `problem`) and gives what it comes to
(mqtt/results.py `digest`, which leaves out when it was archived)."""

from datetime import UTC, datetime

from sqlalchemy import Engine, func, insert, select, update

from scoreboard.clubdb.schema import matches

KEPT, REPLACED, SAME = "kept", "replaced", "same"


def _time(value) -> datetime | None:
    try:
        return datetime.strptime(value or "", "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except (TypeError, ValueError):
        return None


def keep(engine: Engine, result: dict, digest: str) -> str:
    """Keep a table's result: KEPT (new), REPLACED (changed) or SAME (held already)."""
    key = (matches.c.table_id == result["table"]) & (matches.c.match_id == result["match_id"])
    frames, players = result["frames"], result["players"]
    values = {
        "started": _time(result.get("first_shot") or result.get("started")),
        "ended": _time(result.get("ended")),
        "player_a": players["A"],
        "player_b": players["B"],
        "winner": result.get("winner"),
        "frames_a": frames["A"],
        "frames_b": frames["B"],
        "assign_id": result.get("assign"),
        "digest": digest,
        "result": result,
    }
    with engine.begin() as db:
        held = db.execute(select(matches.c.digest).where(key)).first()
        if held is None:
            db.execute(
                insert(matches).values(
                    table_id=result["table"], match_id=result["match_id"], **values
                )
            )
            return KEPT
        if held.digest == digest:
            return SAME
        db.execute(update(matches).where(key).values(**values))
        return REPLACED


def in_order(engine: Engine) -> list:
    """Every match, in the order they ended (those with no end last, by table and id)."""
    with engine.connect() as db:
        rows = db.execute(select(matches).order_by(matches.c.table_id, matches.c.match_id)).all()
    never = datetime.max.replace(tzinfo=UTC)
    return sorted(rows, key=lambda r: (aware(r.ended) or never, r.table_id, r.match_id))


def aware(moment: datetime | None) -> datetime | None:
    """SQLite gives back its times without their zone: they were kept in UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment


def count(engine: Engine) -> int:
    with engine.connect() as db:
        return db.execute(select(func.count()).select_from(matches)).scalar_one()


def for_tournament(engine: Engine, tournament_id: int) -> dict[str, dict]:
    """The tables' results that carry an assign of `tournament_id` (``T<id>-<game>``), as
    sent, by assign id."""
    with engine.connect() as db:
        rows = db.execute(
            select(matches.c.assign_id, matches.c.result).where(
                matches.c.assign_id.like(f"T{tournament_id}-%")
            )
        ).all()
    return {r.assign_id: r.result for r in rows}
