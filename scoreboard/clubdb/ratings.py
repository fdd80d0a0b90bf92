"""The club's ratings (issue 22): Elo on frames (scoreboard/desk/ratings.py says why Elo) from
every finished match the tables sent (clubdb/matches.py), in the order they ended.

Nothing of it is stored: worked out again from the matches when asked, so a result replaced
(UNDO at the table after the end) or two players merged give the right ratings at once. A
match's players are found by their name as the table sent it, the roster's way (case and
spaces aside), as the roster had it when the match ended (a renamed player keeps their
matches; a name freed and taken by another takes none of theirs): a player merged into
another counts as that one; a name the roster never had is rated by itself, as sent. A club's thousands of matches take
milliseconds."""

from dataclasses import dataclass, field

from sqlalchemy import Engine, select

from scoreboard.clubdb.matches import aware, in_order
from scoreboard.clubdb.schema import player_names, players
from scoreboard.core.settings import log_name
from scoreboard.desk.ratings import rate


@dataclass
class Ratings:
    rating: dict[str, float] = field(default_factory=dict)  # by the roster's name
    history: dict[str, list[dict]] = field(default_factory=dict)  # each match, oldest first


def _key(name: str) -> str:
    return log_name(name).casefold()


def _owners(engine: Engine):
    """who(name, ended): the name a table sent -> the player it was on the roster when the
    match ended (the first to have it, for a match before anyone had it), by the name they
    count under now (a merged player's: the one kept); None for a name nobody had."""
    with engine.connect() as db:
        by_id = {
            r.id: r for r in db.execute(select(players.c.id, players.c.name, players.c.merged_into))
        }
        held = db.execute(
            select(player_names.c.key, player_names.c.since, player_names.c.player_id).order_by(
                player_names.c.since, player_names.c.id
            )
        ).all()
    owners: dict[str, list] = {}
    for key, since, pid in held:
        owners.setdefault(key, []).append((aware(since), pid))

    def now_name(pid: int) -> str:
        row, seen = by_id[pid], set()
        while row.merged_into is not None and row.id not in seen:  # merged, maybe twice
            seen.add(row.id)
            row = by_id[row.merged_into]
        return row.name

    def who(name: str, ended) -> str | None:
        had = owners.get(_key(name))
        if not had:
            return None
        pid = had[0][1]
        for since, owner in had:
            if ended is None or since <= ended:
                pid = owner
        return now_name(pid)

    return who


def club_ratings(engine: Engine) -> Ratings:
    who = _owners(engine)
    found = Ratings()
    for match in in_order(engine):
        if not match.result.get("finished", True):
            continue
        ended = aware(match.ended)
        a, b = (who(p, ended) or " ".join(p.split("_")) for p in (match.player_a, match.player_b))
        if a == b:
            continue
        frames = (match.frames_a, match.frames_b)
        for change, opponent, won in zip(
            rate(found.rating, a, b, *frames), (b, a), (frames, frames[::-1]), strict=False
        ):
            found.history.setdefault(change.player, []).append(
                {
                    "table": match.table_id,
                    "match_id": match.match_id,
                    "ended": match.result.get("ended"),
                    "opponent": opponent,
                    "frames": list(won),
                    "before": round(change.before, 1),
                    "after": round(change.after, 1),
                }
            )
    return found
