"""A tournament kept in the club's database: its players in seed order, its format, its
settings and every result with who recorded it and when. Its bracket (who plays whom next,
who is out, the standings) is worked out by scoreboard/desk/ from those, never stored: the
database cannot disagree with itself. Each result is written in one transaction with the
tournament's row locked, so two tables finishing at once are taken one after the other."""

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, insert, select, update

from scoreboard.clubdb.ratings import club_ratings
from scoreboard.clubdb.schema import corrections, entries, games, players, tournaments
from scoreboard.desk import formats
from scoreboard.desk.bracket import Bracket, BracketError
from scoreboard.desk.bracket import PlayedSince as LaterGamesPlayed
from scoreboard.desk.draw import by_rating, drawn


class TournamentError(ValueError):
    """A tournament the desk cannot make or a result it cannot take; the message says why."""


class Changed(TournamentError):
    """The game's result is not what the caller saw: another result came first (a table's and
    a staff's at once); nothing was written."""


ANY = object()  # record(expect=ANY): whatever the game holds, the new result replaces it


class PlayedSince(TournamentError):
    """A result that cannot be corrected: later games that depend on it were played."""


@dataclass
class Tournament:
    id: int
    name: str
    format: str
    settings: dict
    draw_seed: int | None
    player_ids: dict[str, int]  # name -> player id, in seed order
    bracket: Bracket


def create(
    engine: Engine,
    name: str,
    format: str,
    player_ids: list[int],
    *,
    settings: dict | None = None,
    draw_seed: int | None = None,
    ratings: dict[str, float] | None = None,
) -> int:
    """A new tournament of `player_ids`, seeded by a recorded draw (`draw_seed`) or else by
    rating (`ratings`, by name; None: the club's, clubdb/ratings.py); its id."""
    if draw_seed is None and ratings is None:
        ratings = club_ratings(engine).rating
    with engine.begin() as db:
        found = {
            r.id: r.name
            for r in db.execute(
                select(players.c.id, players.c.name).where(
                    players.c.id.in_(player_ids), players.c.merged_into.is_(None)
                )
            )
        }
        if missing := [pid for pid in player_ids if pid not in found]:
            raise TournamentError(f"no player {missing[0]} (never added, or merged into another)")
        if len(set(player_ids)) != len(player_ids):
            raise TournamentError("a player is entered twice")
        names = [found[pid] for pid in player_ids]
        order = (
            drawn(names, draw_seed) if draw_seed is not None else by_rating(names, ratings or {})
        )
        try:
            formats.make(order, format, settings)
        except BracketError as exc:
            raise TournamentError(str(exc)) from None
        by_name = {found[pid]: pid for pid in player_ids}
        tid = db.execute(
            insert(tournaments).values(
                name=name,
                format=format,
                settings=settings or {},
                draw_seed=draw_seed,
                created=datetime.now(UTC),
            )
        ).inserted_primary_key[0]
        db.execute(
            insert(entries),
            [
                {"tournament_id": tid, "seed": n, "player_id": by_name[p]}
                for n, p in enumerate(order, 1)
            ],
        )
        return tid


def load(engine: Engine, tournament_id: int) -> Tournament:
    with engine.connect() as db:
        return _load(db, tournament_id)


def _load(db, tournament_id: int) -> Tournament:
    row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    if row is None:
        raise TournamentError(f"no tournament {tournament_id}")
    seeded = db.execute(
        select(entries.c.player_id, players.c.name)
        .join(players, players.c.id == entries.c.player_id)
        .where(entries.c.tournament_id == tournament_id)
        .order_by(entries.c.seed)
    ).all()
    ids = {name: pid for pid, name in seeded}
    names = {pid: name for pid, name in seeded}
    bracket = formats.make([name for _, name in seeded], row.format, row.settings)
    played = db.execute(select(games).where(games.c.tournament_id == tournament_id)).all()
    # In the bracket's order: a result needs its players, whom earlier results decide.
    order = {g.id: n for n, g in enumerate(bracket.games)}
    for game in sorted(played, key=lambda g: order[g.game]):
        frames = (game.frames_a, game.frames_b) if game.frames_a is not None else None
        bracket.record(game.game, names[game.winner_id], frames=frames, walkover=game.walkover)
    return Tournament(row.id, row.name, row.format, row.settings, row.draw_seed, ids, bracket)


def record(
    engine: Engine,
    tournament_id: int,
    game: str,
    winner: str,
    *,
    frames: tuple[int, int] | None = None,
    walkover: bool = False,
    table: str | None = None,
    by: str = "staff",
    expect=ANY,
) -> Tournament:
    """A game's result (or a correction of it), kept with who recorded it and when; the
    tournament as it is after it. TournamentError if the bracket cannot take it; Changed
    if `expect` is given (the game's Result as the caller saw it, None: not decided) and the
    game holds another by the time the result is written."""
    now = datetime.now(UTC)
    with engine.begin() as db:
        # One result at a time for a tournament: a write before anything is read takes the
        # row's lock on PostgreSQL and the database's write lock on SQLite (a SELECT ... FOR
        # UPDATE is nothing there, and a staff's write runs in a thread beside the loop's).
        db.execute(
            update(tournaments).where(tournaments.c.id == tournament_id).values(id=tournaments.c.id)
        )
        t = _load(db, tournament_id)
        if expect is not ANY and t.bracket.results.get(game) != expect:
            raise Changed(f"{game} was decided meanwhile: see its result and correct it if need be")
        try:
            t.bracket.record(game, winner, frames=frames, walkover=walkover)
        except LaterGamesPlayed as exc:
            raise PlayedSince(str(exc)) from None
        except BracketError as exc:
            raise TournamentError(str(exc)) from None
        values = {
            "winner_id": t.player_ids[winner],
            "frames_a": frames[0] if frames else None,
            "frames_b": frames[1] if frames else None,
            "walkover": walkover,
        }
        key = (games.c.tournament_id == tournament_id) & (games.c.game == game)
        if db.execute(select(games.c.game).where(key)).first() is None:
            db.execute(
                insert(games).values(
                    tournament_id=tournament_id,
                    game=game,
                    table_id=table,
                    recorded=now,
                    recorded_by=by,
                    **values,
                )
            )
        else:
            db.execute(update(games).where(key).values(recorded=now, recorded_by=by, **values))
        db.execute(
            insert(corrections).values(
                tournament_id=tournament_id, game=game, at=now, by=by, **values
            )
        )
        return t


def history(engine: Engine, tournament_id: int) -> list[dict]:
    """Every result and correction of a tournament, in the order recorded: who, when, what."""
    with engine.connect() as db:
        rows = db.execute(
            select(corrections, players.c.name)
            .join(players, players.c.id == corrections.c.winner_id)
            .where(corrections.c.tournament_id == tournament_id)
            .order_by(corrections.c.id)
        ).all()
    return [
        {
            "game": r.game,
            "winner": r.name,
            "frames": [r.frames_a, r.frames_b],
            "by": r.by,
            "walkover": r.walkover,
            "at": r.at,
        }
        for r in rows
    ]


def in_play(engine: Engine) -> list[int]:
    """The tournaments not over yet, oldest first: the club plays them on."""
    with engine.connect() as db:
        ids = [r.id for r in db.execute(select(tournaments.c.id).order_by(tournaments.c.id))]
    return [tid for tid in ids if not load(engine, tid).bracket.done()]


def listed(engine: Engine) -> list[dict]:
    """Every tournament, newest first: what the desk lists (its players, its champion if any)."""
    with engine.connect() as db:
        rows = db.execute(
            select(tournaments.c.id, tournaments.c.created).order_by(tournaments.c.id.desc())
        ).all()
        out = []
        for tid, created in rows:
            t = _load(db, tid)
            out.append(
                {
                    "id": t.id,
                    "name": t.name,
                    "format": t.format,
                    "players": len(t.player_ids),
                    "champion": t.bracket.champion(),
                    "created": created.isoformat(),
                }
            )
    return out


def played(engine: Engine, tournament_id: int) -> dict[str, dict]:
    """Where and when each recorded game of a tournament was played, by game id: its table
    (None: given at the desk), when it was last recorded and by whom."""
    with engine.connect() as db:
        rows = db.execute(select(games).where(games.c.tournament_id == tournament_id)).all()
    return {
        r.game: {"table": r.table_id, "recorded": r.recorded, "recorded_by": r.recorded_by}
        for r in rows
    }
