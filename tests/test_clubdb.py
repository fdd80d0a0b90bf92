"""The club's database (scoreboard/clubdb/, issue 22), each test on SQLite and on a real
PostgreSQL (tests/postgres.py): the migrations, the players, a tournament's results kept and
a club restarted mid-tournament."""

import random
import sqlite3

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.clubdb.players import PlayerError
from scoreboard.clubdb.schema import metadata
from scoreboard.clubdb.tournaments import TournamentError
from scoreboard.desk.bracket import DOUBLE, SINGLE, Bracket


def test_the_migrations_make_exactly_the_schema(database_url):
    engine = open_database(database_url)
    with engine.connect() as db:
        assert compare_metadata(MigrationContext.configure(db), metadata) == []
    open_database(database_url)  # again: already at the newest, nothing to do


def test_sqlite_is_kept_with_a_write_ahead_log(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    players.add(engine, "Олена")
    with sqlite3.connect(tmp_path / "club.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_players_are_one_per_name_whatever_its_case_and_as_a_table_takes_them(database_url):
    engine = open_database(database_url)
    olena = players.add(engine, "Олена", full_name="Олена  Коваль", nickname="Cue")
    with pytest.raises(PlayerError, match="a player already"):
        players.add(engine, "ОЛЕНА")
    with pytest.raises(PlayerError, match="at most 12 letters"):
        players.add(engine, "Олександра-Марія")
    with pytest.raises(PlayerError, match="no control or format"):
        players.add(engine, "Оле\u200bна")
    taras = players.add(engine, "Тарас")
    players.rename(engine, taras, "Тарас Б")
    with pytest.raises(PlayerError, match="a player already"):
        players.rename(engine, taras, "олена")
    assert players.roster(engine) == [
        {"id": olena, "name": "Олена", "full_name": "Олена Коваль", "nickname": "Cue"},
        {"id": taras, "name": "Тарас Б", "full_name": "", "nickname": ""},
    ]


def test_a_merge_keeps_both_histories_and_frees_the_name(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in ("Olena", "Taras", "Ivan", "Olena K")]
    olena, taras, ivan, twin = ids
    tid = tournaments.create(engine, "Friday", SINGLE, [twin, taras], draw_seed=1)
    t = tournaments.load(engine, tid)
    tournaments.record(engine, tid, "W1-1", "Olena K", frames=(2, 0), by="table t1")
    players.merge(engine, olena, twin)
    t = tournaments.load(engine, tid)
    assert t.bracket.champion() == "Olena" and set(t.player_ids) == {"Olena", "Taras"}
    assert [p["name"] for p in players.roster(engine)] == ["Ivan", "Olena", "Taras"]
    assert tournaments.history(engine, tid)[0]["winner"] == "Olena"
    players.add(engine, "Olena K")  # the name is free again
    other = tournaments.create(engine, "Saturday", SINGLE, [olena, ivan], draw_seed=2)
    with pytest.raises(PlayerError, match="both play in tournament"):
        players.merge(engine, olena, ivan)
    assert tournaments.load(engine, other).player_ids.keys() == {"Olena", "Ivan"}


def test_a_recorded_draw_is_kept_and_repeatable(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n:02d}") for n in range(1, 17)]
    one = tournaments.create(engine, "A", DOUBLE, ids, draw_seed=20261204)
    two = tournaments.create(engine, "B", DOUBLE, ids[::-1], draw_seed=20261204)
    a, b = tournaments.load(engine, one), tournaments.load(engine, two)
    assert a.bracket.players == b.bracket.players and a.draw_seed == 20261204
    by_rating = tournaments.create(engine, "C", SINGLE, ids[:3], ratings={"P03": 1600.0})
    assert tournaments.load(engine, by_rating).bracket.players[0] == "P03"


def test_a_result_the_bracket_cannot_take_is_refused_and_nothing_is_kept(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in ("Olena", "Taras", "Ivan", "Petro")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, draw_seed=3)
    with pytest.raises(TournamentError, match="not ready"):
        tournaments.record(engine, tid, "W2-1", "Olena")
    a, b = tournaments.load(engine, tid).bracket.sides("W1-1")
    other = next(p for p in ("Olena", "Taras", "Ivan", "Petro") if p not in (a, b))
    with pytest.raises(TournamentError, match="does not play"):
        tournaments.record(engine, tid, "W1-1", other)
    assert tournaments.history(engine, tid) == []
    with pytest.raises(TournamentError, match="no player"):
        tournaments.create(engine, "Bad", SINGLE, [ids[0], 999])


def test_a_correction_is_recorded_with_who_and_when(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in ("Olena", "Taras")]
    tid = tournaments.create(engine, "Final", SINGLE, ids, draw_seed=4)
    a, b = tournaments.load(engine, tid).bracket.sides("W1-1")
    tournaments.record(engine, tid, "W1-1", a, frames=(3, 1), table="t2", by="table t2")
    tournaments.record(engine, tid, "W1-1", b, frames=(1, 3), by="staff")
    said = tournaments.history(engine, tid)
    assert [(h["winner"], h["by"], h["frames"]) for h in said] == [
        (a, "table t2", [3, 1]),
        (b, "staff", [1, 3]),
    ]
    assert said[0]["at"] <= said[1]["at"]
    assert tournaments.load(engine, tid).bracket.champion() == b


def test_a_32_player_double_elimination_goes_on_where_it_was_after_a_restart(database_url):
    """The club restarted after every result: a new engine each time, as a new process."""
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n:02d}") for n in range(1, 33)]
    tid = tournaments.create(engine, "Cup", DOUBLE, ids, draw_seed=7)
    rng = random.Random(7)
    recount = Bracket(tournaments.load(engine, tid).bracket.players, DOUBLE)
    while ready := (t := tournaments.load(open_database(database_url), tid)).bracket.ready():
        game = rng.choice(ready)
        winner = rng.choice(t.bracket.sides(game.id))
        frames = (2, rng.randrange(2)) if winner == t.bracket.sides(game.id)[0] else (1, 2)
        tournaments.record(open_database(database_url), tid, game.id, winner, frames=frames)
        recount.record(game.id, winner, frames=frames)
    t = tournaments.load(engine, tid)
    assert t.bracket.champion() == recount.champion() is not None
    assert t.bracket.standings() == recount.standings()
    assert len(tournaments.history(engine, tid)) in (62, 63)
