"""The club's players: the name the tables show (12 letters at most, as a table takes it,
core/settings.py), a full name and a nickname. Names are one per player whatever their case
("Олена" and "ОЛЕНА" are one player). A merge (the same person entered twice) moves the one's
whole history to the other and frees the name: both histories are then one."""

from datetime import UTC, datetime

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from scoreboard.clubdb.schema import corrections, entries, games, player_names, players
from scoreboard.core.settings import clean_name, log_name, name_problem


class PlayerError(ValueError):
    """A player the desk cannot add, rename or merge; the message says why."""


def _key(name: str) -> str:
    return log_name(name).casefold()


def _checked(name: str) -> str:
    name = clean_name(name)
    if problem := name_problem(name):
        raise PlayerError(problem)
    return name


def add(engine: Engine, name: str, *, full_name: str = "", nickname: str = "") -> int:
    """A new player; their id."""
    name = _checked(name)
    now = datetime.now(UTC)
    try:
        with engine.begin() as db:
            row = db.execute(
                insert(players).values(
                    name=name,
                    key=_key(name),
                    full_name=clean_name(full_name),
                    nickname=clean_name(nickname),
                    created=now,
                )
            )
            pid = row.inserted_primary_key[0]
            db.execute(insert(player_names).values(player_id=pid, key=_key(name), since=now))
            return pid
    except IntegrityError:
        raise PlayerError(f"{name!r} is a player already") from None


def rename(engine: Engine, player_id: int, name: str) -> None:
    name = _checked(name)
    try:
        with engine.begin() as db:
            done = db.execute(
                update(players)
                .where(players.c.id == player_id, players.c.merged_into.is_(None))
                .values(name=name, key=_key(name))
            )
            if done.rowcount != 1:
                raise PlayerError(f"no player {player_id}")
            db.execute(  # their matches under the old name stay theirs (clubdb/ratings.py)
                insert(player_names).values(
                    player_id=player_id, key=_key(name), since=datetime.now(UTC)
                )
            )
    except IntegrityError:
        raise PlayerError(f"{name!r} is a player already") from None


def merge(engine: Engine, keep: int, gone: int) -> None:
    """`gone` was `keep` entered twice: every entry and result of `gone` becomes `keep`'s, and
    `gone` leaves the roster (kept, pointing at `keep`, so nothing refers to nobody)."""
    if keep == gone:
        raise PlayerError("a player cannot be merged with themselves")
    with engine.begin() as db:
        found = {
            row.id: row for row in db.execute(select(players).where(players.c.id.in_((keep, gone))))
        }
        for pid in (keep, gone):
            if pid not in found or found[pid].merged_into is not None:
                raise PlayerError(f"no player {pid}")
        both = select(entries.c.tournament_id).where(entries.c.player_id == keep)
        clash = db.execute(
            select(entries.c.tournament_id).where(
                entries.c.player_id == gone, entries.c.tournament_id.in_(both)
            )
        ).first()
        if clash is not None:
            raise PlayerError(f"both play in tournament {clash[0]}: they are two players")
        db.execute(update(entries).where(entries.c.player_id == gone).values(player_id=keep))
        db.execute(update(games).where(games.c.winner_id == gone).values(winner_id=keep))
        db.execute(
            update(corrections).where(corrections.c.winner_id == gone).values(winner_id=keep)
        )
        db.execute(
            update(players)
            .where(players.c.id == gone)
            .values(merged_into=keep, key=f"merged {gone}: {found[gone].key}")
        )


def roster(engine: Engine) -> list[dict]:
    """The players, by name: what the tables list (a merged one is not there)."""
    with engine.connect() as db:
        rows = db.execute(
            select(players).where(players.c.merged_into.is_(None)).order_by(players.c.key)
        )
        return [
            {"id": r.id, "name": r.name, "full_name": r.full_name, "nickname": r.nickname}
            for r in rows
        ]
