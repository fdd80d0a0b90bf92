"""Every finished match in the club's database (scoreboard/clubdb/matches.py, issue 22), on
SQLite and on PostgreSQL: a result kept once, a changed one replacing it, and the result books
of a club that had no database (results-*.jsonl) imported whole, each result once."""

import json
import logging

from scoreboard.club.book_import import import_books
from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import matches, table_keys
from scoreboard.clubdb.database import open_database
from scoreboard.commands.club import import_results
from scoreboard.mqtt import topics
from scoreboard.mqtt.results import digest
from scoreboard.signing import signature
from scoreboard.signing.table_key import load_or_make


def result(table="t1", hour=10, a="Olena", b="Taras", frames=(2, 1), **more):
    mid = f"20261203T{hour:02d}0000Z"
    return {
        "table": table,
        "match_id": mid,
        "players": {"A": a, "B": b},
        "race": 2,
        "target": 8,
        "finished": True,
        "winner": "A" if frames[0] > frames[1] else "B",
        "frames": {"A": frames[0], "B": frames[1]},
        "frame_scores": [],
        "last_frame": [8, 0],
        "fouls": {"A": {}, "B": {}},
        "longest_run": {"A": 5, "B": 0},
        "started": f"2026-12-03T{hour:02d}:00:00Z",
        "ended": f"2026-12-03T{hour:02d}:40:00Z",
        **more,
    }


def test_a_result_is_kept_once_and_a_changed_one_replaces_it(database_url):
    engine = open_database(database_url)
    first = result(assign="T1-W1-1")
    assert matches.keep(engine, first, digest(first)) == matches.KEPT
    assert matches.keep(engine, first, digest(first)) == matches.SAME
    undone = result(frames=(1, 2), assign="T1-W1-1")  # UNDO at the table, another end
    assert matches.keep(engine, undone, digest(undone)) == matches.REPLACED
    (row,) = matches.in_order(engine)
    assert (row.table_id, row.player_a, row.winner, row.frames_a, row.frames_b) == (
        "t1",
        "Olena",
        "B",
        1,
        2,
    )
    assert row.assign_id == "T1-W1-1" and row.result == undone


def test_the_club_keeps_a_tables_result_in_its_database(tmp_path, database_url):
    engine = open_database(database_url)
    club = Club(book=ResultBook(tmp_path / "book"), database=engine)
    key = load_or_make(tmp_path / "t3")  # the table's, approved by the staff (issue 34)
    table_keys.decide(engine, "t3", key.public, table_keys.APPROVED, by="staff")
    sent = signature.sign(result(table="t3"), key)
    club.take(topics.topic("t3", topics.RESULT, sent["match_id"]), json.dumps(sent).encode())
    club.take(
        topics.topic("t3", topics.RESULT, sent["match_id"]), json.dumps(sent).encode()
    )  # again
    assert [(r.table_id, r.match_id) for r in matches.in_order(engine)] == [
        ("t3", sent["match_id"])
    ]


def test_the_result_books_are_imported_every_result_once(tmp_path, database_url):
    """Two days' books as a club kept them: a result replaced by UNDO after the end, one sent
    twice, a line torn by a power cut and one an older club took that no book keeps."""
    folder = tmp_path / "club-data"
    book = ResultBook(folder)
    sent = [result(hour=h, table=f"t{h % 3}") for h in range(9, 21)]
    sent.append(result(hour=9, table="t0", ended="2026-12-04T00:30:00Z"))  # next day's book
    for r in sent:
        book.add(r)
    book.add(sent[0])  # the broker's retained copy again: not written twice
    book.add(result(hour=10, table="t1", frames=(0, 2)))  # UNDO after the end, another end
    with open(folder / "results-2026-12-03.jsonl", "a", encoding="utf-8") as f:
        f.write('{"table":"t9","match_id":"x","play\n')  # torn
        f.write(json.dumps({**result(hour=22), "winner": "C"}) + "\n")  # never kept
    engine = open_database(database_url)
    done = import_books(engine, folder)
    assert (done.kept, done.replaced, len(done.skipped)) == (12, 0, 2), done
    assert "not JSON" in done.skipped[0] and "winner must be A, B" in done.skipped[1]
    kept = {(r.table_id, r.match_id): r for r in matches.in_order(engine)}
    assert kept.keys() == set(ResultBook(folder).by_key) and len(kept) == 12
    assert kept[("t1", "20261203T100000Z")].frames_b == 2  # the replacement, not the first
    again = import_books(engine, folder)  # the next start: nothing new, nothing twice
    assert (again.kept, again.replaced, again.same) == (0, 0, 12)
    ResultBook(folder).add(result(hour=11, table="t2", frames=(2, 0)))  # changed since
    third = import_books(engine, folder)
    assert (third.kept, third.replaced, third.same) == (0, 1, 11)
    assert matches.count(engine) == 12


def test_the_club_says_at_its_start_what_it_imported_and_each_line_it_skipped(tmp_path, caplog):
    folder = tmp_path / "club-data"
    ResultBook(folder).add(result())
    with open(folder / "results-2026-12-03.jsonl", "a", encoding="utf-8") as f:
        f.write('{"torn\n')
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    with caplog.at_level(logging.INFO, logger="scoreboard.club"):
        import_results(engine, folder)
    said = [r.getMessage() for r in caplog.records]
    assert (
        "club: the result books in the database: 1 new, 0 replaced, 0 held already, "
        "1 skipped" in said
    )
    assert (
        "club: result book results-2026-12-03.jsonl:2: not JSON (a line torn by a power "
        "cut): skipped" in said
    )


def test_a_result_the_database_refuses_never_stops_the_import(tmp_path, database_url):
    """Found in review: a book's line PostgreSQL cannot hold (a match id longer than its
    column) raised out of the import, and so out of the club's every start."""
    folder = tmp_path / "club-data"
    book = ResultBook(folder)
    book.add(result(hour=10))
    book.add(result(hour=11, match_id="2026" * 20))
    engine = open_database(database_url)
    done = import_books(engine, folder)  # raises nothing, whatever the engine
    assert done.kept + len(done.skipped) == 2 and done.kept >= 1
    if engine.dialect.name == "postgresql":  # SQLite does not hold a column to its length
        assert done.skipped and "not kept" in done.skipped[0], done
