"""The club's ratings from every finished match (scoreboard/clubdb/ratings.py, issue 22), on
SQLite and on PostgreSQL: in the order the matches ended, recomputed when a result is replaced
or two players merged, and used to seed a tournament."""

from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, insert, update

from scoreboard.clubdb import matches, players, schema, tournaments
from scoreboard.clubdb.database import migrate, open_database
from scoreboard.clubdb.ratings import club_ratings
from scoreboard.clubdb.schema import player_names
from scoreboard.desk.bracket import SINGLE
from scoreboard.desk.ratings import START, replay
from scoreboard.mqtt.results import digest


def keep(engine, a, b, frames, *, hour, table="t1"):
    result = {
        "table": table,
        "match_id": f"20261203T{hour:02d}0000Z",
        "players": {"A": a, "B": b},
        "finished": True,
        "winner": "A" if frames[0] > frames[1] else "B",
        "frames": {"A": frames[0], "B": frames[1]},
        "started": f"2026-12-03T{hour:02d}:00:00Z",
        "ended": f"2026-12-03T{hour:02d}:30:00Z",
    }
    matches.keep(engine, result, digest(result))


def test_ratings_follow_the_matches_in_the_order_they_ended(database_url):
    engine = open_database(database_url)
    for name in ("Олена", "Тарас Б", "Ivan"):
        players.add(engine, name)
    # Kept out of order (two tables), played in this order: 10:30, 11:30, 12:30.
    keep(engine, "Ivan", "Олена", (0, 2), hour=12, table="t0")
    keep(engine, "ОЛЕНА", "Тарас_Б", (2, 1), hour=10)  # as a table sends them: its case, "_"
    keep(engine, "Тарас_Б", "Ivan", (2, 0), hour=11)
    keep(engine, "Guest", "Ivan", (0, 0), hour=13)  # a walkover: no frame, no change
    expected, _ = replay(
        [("Олена", "Тарас Б", 2, 1), ("Тарас Б", "Ivan", 2, 0), ("Ivan", "Олена", 0, 2)]
    )
    found = club_ratings(engine)
    assert found.rating == pytest.approx(expected)
    olena = found.history["Олена"]
    assert [(h["opponent"], h["frames"]) for h in olena] == [("Тарас Б", [2, 1]), ("Ivan", [2, 0])]
    assert olena[0]["before"] == START and olena[-1]["after"] == round(expected["Олена"], 1)
    assert "Guest" not in found.rating


def test_a_replaced_result_and_a_merge_are_counted_at_once(database_url):
    engine = open_database(database_url)
    olena, _, twin = (players.add(engine, n) for n in ("Olena", "Taras", "Olena K"))
    keep(engine, "Olena", "Taras", (2, 0), hour=10)
    keep(engine, "Olena K", "Taras", (2, 0), hour=11)
    assert len(club_ratings(engine).history["Olena"]) == 1
    players.merge(engine, olena, twin)  # the same person entered twice
    merged = club_ratings(engine)
    assert set(merged.rating) == {"Olena", "Taras"} and len(merged.history["Olena"]) == 2
    assert merged.rating == pytest.approx(
        replay([("Olena", "Taras", 2, 0), ("Olena", "Taras", 2, 0)])[0]
    )
    keep(engine, "Olena", "Taras", (0, 2), hour=10)  # UNDO at the table after the end
    assert club_ratings(engine).rating == pytest.approx(
        replay([("Olena", "Taras", 0, 2), ("Olena", "Taras", 2, 0)])[0]
    )


def test_a_tournament_not_drawn_is_seeded_by_the_clubs_ratings(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in ("Ann", "Bob", "Cid", "Dan")]
    keep(engine, "Dan", "Ann", (3, 0), hour=10)
    keep(engine, "Cid", "Bob", (3, 1), hour=11)
    tid = tournaments.create(engine, "Friday", SINGLE, ids)
    assert tournaments.load(engine, tid).bracket.players == ["Dan", "Cid", "Bob", "Ann"]


def test_a_renamed_player_keeps_their_matches_and_a_freed_name_takes_none(database_url):
    """Тарас renamed Тарас Б when a second Taras joined, who took the name "Тарас": the
    matches played before are the first Taras's, those after the second's."""
    engine = open_database(database_url)
    players.add(engine, "Olena")
    taras = players.add(engine, "Тарас")
    with engine.begin() as db:  # the roster made the day before the matches
        db.execute(update(player_names).values(since=datetime(2026, 12, 2, tzinfo=UTC)))
    keep(engine, "Olena", "Тарас", (0, 2), hour=10)
    players.rename(engine, taras, "Тарас Б")
    players.add(engine, "Тарас")  # now: after 10:30
    assert set(club_ratings(engine).rating) == {"Olena", "Тарас Б"}
    with engine.begin() as db:  # the second Taras since 11:00
        db.execute(
            update(player_names)
            .where(player_names.c.since > datetime(2026, 12, 3, tzinfo=UTC))
            .values(since=datetime(2026, 12, 3, 11, tzinfo=UTC))
        )
    keep(engine, "Olena", "Тарас", (2, 1), hour=12)
    keep(engine, "ТАРАС_Б", "Olena", (2, 0), hour=13)  # under the new name, as a table sends it
    found = club_ratings(engine)
    assert [h["opponent"] for h in found.history["Olena"]] == ["Тарас Б", "Тарас", "Тарас Б"]
    assert (len(found.history["Тарас Б"]), len(found.history["Тарас"])) == (2, 1)


def test_the_migration_gives_the_players_of_an_older_club_their_names(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path}/club.db")
    migrate(engine, "0001")
    made = datetime(2026, 11, 1, tzinfo=UTC)
    with engine.begin() as db:
        db.execute(
            insert(schema.players),
            [
                {
                    "id": 1,
                    "name": "Olena",
                    "key": "olena",
                    "full_name": "",
                    "nickname": "",
                    "merged_into": None,
                    "created": made,
                },
                {
                    "id": 2,
                    "name": "Olena K",
                    "key": "merged 2: olena_k",
                    "full_name": "",
                    "nickname": "",
                    "merged_into": 1,
                    "created": made,
                },
            ],
        )
    engine = open_database(f"sqlite:///{tmp_path}/club.db")  # the newest schema
    keep(engine, "Olena_K", "Taras", (2, 0), hour=10)
    assert set(club_ratings(engine).rating) == {"Olena", "Taras"}
