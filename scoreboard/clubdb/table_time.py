"""Table time in the club's database (issue 22): seconds in play and idle added to each
table's day, and read back for a period as the rows a club bills from."""

from datetime import date

from sqlalchemy import Engine, insert, select, update

from scoreboard.clubdb.schema import table_time

IN_PLAY, IDLE = "in_play", "idle"


def add(engine: Engine, table: str, day: date, what: str, seconds: int) -> None:
    """`seconds` more of `what` (IN_PLAY or IDLE) for `table` on `day`."""
    if what not in (IN_PLAY, IDLE):
        raise ValueError(f"no such table time {what!r}")
    key = (table_time.c.table_id == table) & (table_time.c.day == day)
    with engine.begin() as db:
        if db.execute(select(table_time.c.day).where(key)).first() is None:
            db.execute(
                insert(table_time).values(
                    {"table_id": table, "day": day, IN_PLAY: 0, IDLE: 0} | {what: seconds}
                )
            )
        else:
            column = table_time.c[what]
            db.execute(update(table_time).where(key).values({what: column + seconds}))


def rows(engine: Engine, first: date, last: date) -> list[dict]:
    """Each table's days from `first` to `last` (both included), by day then table."""
    with engine.connect() as db:
        found = db.execute(
            select(table_time)
            .where(table_time.c.day >= first, table_time.c.day <= last)
            .order_by(table_time.c.day, table_time.c.table_id)
        ).all()
    return [
        {"table": r.table_id, "day": r.day, "in_play": r.in_play, "idle": r.idle} for r in found
    ]
