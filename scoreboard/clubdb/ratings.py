"""The club's ratings (issue 22): Elo on frames (scoreboard/desk/ratings.py says why Elo) from
every finished match the tables sent (clubdb/matches.py), in the order they ended.

Nothing of it is stored: worked out again from the matches when asked, so a result replaced
(UNDO at the table after the end) or two players merged give the right ratings at once. A
match's players are found by their name as the table sent it, the roster's way (case and
spaces aside): a player merged into another counts as that one; a name the roster does not
have is rated by itself, as the table sent it. A club's thousands of matches take
milliseconds."""

from dataclasses import dataclass, field

from sqlalchemy import Engine, select

from scoreboard.clubdb.matches import in_order
from scoreboard.clubdb.schema import players
from scoreboard.core.settings import log_name
from scoreboard.desk.ratings import rate

MERGED = "merged "  # a merged player's key: "merged <id>: <the key it had>" (clubdb/players.py)


@dataclass
class Ratings:
    rating: dict[str, float] = field(default_factory=dict)  # by the roster's name
    history: dict[str, list[dict]] = field(default_factory=dict)  # each match, oldest first


def _key(name: str) -> str:
    return log_name(name).casefold()


def _names(engine: Engine) -> dict[str, str]:
    """Every name a player had on the roster (their key) -> the name they count under now."""
    with engine.connect() as db:
        rows = db.execute(
            select(players.c.id, players.c.name, players.c.key, players.c.merged_into)
        )
        by_id = {r.id: r for r in rows}
    out = {}
    for row in by_id.values():
        now, seen = row, set()
        while now.merged_into is not None and now.id not in seen:  # merged, maybe twice
            seen.add(now.id)
            now = by_id[now.merged_into]
        key = row.key.split(": ", 1)[1] if row.key.startswith(MERGED) else row.key
        out[key] = now.name
    return out


def club_ratings(engine: Engine) -> Ratings:
    names = _names(engine)
    found = Ratings()
    for match in in_order(engine):
        if not match.result.get("finished", True):
            continue
        a, b = (
            names.get(_key(p), " ".join(p.split("_"))) for p in (match.player_a, match.player_b)
        )
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
