"""The tables' keys at the club (issue 34), on SQLite and on PostgreSQL: a result signed by the
key the staff approved for its table is taken; a changed, forged or unsigned one is refused and
said (the log, the desk's list with why); one signed by a key not approved yet is held and said
("awaiting the key of table t3"), and taken once the staff approve it. The whole path through a
real Mosquitto with the table's real publisher, and the staff's approval over HTTP."""

import asyncio
import json
import logging
from datetime import date

from aiohttp.test_utils import TestClient, TestServer
from helpers import until
from mqtt_table import match_lines, write_journal
from test_club import Running, result
from test_club_players import STAFF
from test_signing_results import CONFIRMED

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import matches, table_keys
from scoreboard.clubdb.database import open_database
from scoreboard.mqtt import topics
from scoreboard.signing import signature
from scoreboard.signing.table_key import fingerprint, load_or_make

STARTED = "2026-12-03T10:00:00Z"


def take(club: Club, table: str, sent: dict) -> None:
    """`sent` as it arrives on `table`'s result topic."""
    topic = topics.topic(table, topics.RESULT, sent["match_id"])
    club.take(topic, json.dumps(sent, ensure_ascii=False).encode())


def kept(club: Club) -> dict:
    return {key: r["winner"] for key, r in club.book.by_key.items()}


def test_issue_34_a_changed_forged_or_unsigned_result_is_refused_and_said(
    tmp_path, database_url, caplog
):
    engine = open_database(database_url)
    club = Club(book=ResultBook(tmp_path / "book"), database=engine)
    key = load_or_make(tmp_path / "t1")
    table_keys.decide(engine, "t1", key.public, table_keys.APPROVED, by="staff Ira")
    genuine = signature.sign(result(), key)
    with caplog.at_level(logging.WARNING, logger="scoreboard.club"):
        take(club, "t1", genuine)
        assert kept(club) == {("t1", genuine["match_id"]): "A"}
        # One score changed on the way (the same match: it would replace the table's own).
        take(club, "t1", {**genuine, "frames": {"A": 0, "B": 1}, "winner": "B"})
        # The table's own signed result, published on another table's topic.
        take(club, "t2", genuine)
        # Not signed at all; and signed by a stranger's key in the table's name.
        take(club, "t1", result(mid="20261203T120000Z"))
        stranger = load_or_make(tmp_path / "stranger")
        take(club, "t1", signature.sign(result(mid="20261203T130000Z"), stranger))
    said = [r.getMessage() for r in caplog.records]
    assert kept(club) == {("t1", genuine["match_id"]): "A"}  # the table's own, still
    assert len(matches.in_order(engine)) == 1
    refused = {(n["table"], n["match_id"]): (n["state"], n["reason"]) for n in not_taken(engine)}
    assert refused == {
        ("t1", genuine["match_id"]): ("refused", "signature did not verify"),
        ("t2", genuine["match_id"]): ("refused", "signature did not verify"),
        ("t1", "20261203T120000Z"): ("refused", "not signed"),
        ("t1", "20261203T130000Z"): ("held", "awaiting the key of table t1"),  # a new key
    }
    assert f"club: result {genuine['match_id']} from t1 refused: signature did not verify" in said
    assert "club: result 20261203T120000Z from t1 refused: not signed" in said
    # The table's card stolen: the staff withdraw its key; what it signs is refused.
    table_keys.decide(engine, "t1", key.public, table_keys.WITHDRAWN, by="staff Ira")
    take(club, "t1", signature.sign(result(mid="20261203T140000Z", winner="B"), key))
    assert ("t1", "20261203T140000Z") not in club.book.by_key
    assert table_keys.status(engine, "t1", stranger.public) == table_keys.AWAITING
    assert [n["reason"] for n in not_taken(engine) if n["match_id"] == "20261203T140000Z"] == [
        "signed by a key the staff withdrew"
    ]


def not_taken(engine) -> list[dict]:
    return table_keys.not_taken_listed(engine)


def test_issue_34_a_table_announces_one_key_awaiting_at_a_time_an_approved_one_stays(
    tmp_path, database_url
):
    engine = open_database(database_url)
    club = Club(book=ResultBook(tmp_path / "book"), database=engine)
    first, second, third = (load_or_make(tmp_path / n).public for n in ("a", "b", "c"))
    info = {"table": "t3", "name": "Table 3", "version": "0.1.0"}
    for key in (first, second):
        club.take("fp/v1/t3/info", json.dumps({**info, "key": key}).encode())
    assert [(k["key"], k["status"]) for k in table_keys.listed(engine)] == [(second, "awaiting")]
    table_keys.decide(engine, "t3", second, table_keys.APPROVED, by="staff")
    club.take("fp/v1/t3/info", json.dumps({**info, "key": third}).encode())  # a new card
    assert {(k["key"], k["status"]) for k in table_keys.listed(engine)} == {
        (second, "approved"),
        (third, "awaiting"),
    }
    club.take("fp/v1/t3/info", json.dumps({**info, "key": "not a key"}).encode())
    assert len(table_keys.listed(engine)) == 2


def test_issue_34_a_club_without_its_database_refuses_a_bad_signature_and_takes_the_rest(
    tmp_path,
):
    """No keys kept without the desk extra: a result is checked against the key it names,
    and one from a table older than issue 34 (not signed) is taken as before."""
    club = Club(book=ResultBook(tmp_path / "book"))
    key = load_or_make(tmp_path / "t1")
    genuine = signature.sign(result(), key)
    take(club, "t1", {**genuine, "winner": "B"})
    assert kept(club) == {}
    take(club, "t1", genuine)
    take(club, "t2", result(table="t2"))
    assert kept(club) == {("t1", genuine["match_id"]): "A", ("t2", genuine["match_id"]): "A"}


def test_issue_34_a_new_tables_result_is_held_until_the_staff_approve_its_key_then_taken(
    broker, tmp_path, caplog
):
    """The whole path: the table's publisher signs its result and announces its key; the club
    holds the result and says why; staff approve the key at the desk (HTTP, the password);
    the result is taken, kept in the book and the database, and its hold is gone."""
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    lines = match_lines(STARTED) + CONFIRMED  # closed at the table: published
    (tmp_path / "t3").mkdir()
    write_journal(tmp_path / "t3", lines)

    async def body():
        async with Running(broker, tmp_path, staff="cue", database=engine) as run:
            http = run.http
            publisher = run.table("t3", lines)
            await until(lambda: not_taken(engine), what="the result held")
            key = publisher.key.public
            listed = await (await http.get("/api/table-keys")).json()
            assert [(k["table"], k["key"], k["status"]) for k in listed["keys"]] == [
                ("t3", key, "awaiting")
            ]
            assert listed["keys"][0]["fingerprint"] == fingerprint(key)
            (held,) = listed["not_taken"]
            assert (held["table"], held["state"], held["reason"]) == (
                "t3",
                "held",
                "awaiting the key of table t3",
            )
            assert run.book.by_key == {} and matches.count(engine) == 0
            staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
            form = {"table": "t3", "key": key, "by": "Ira"}
            approved = await http.post("/api/table-keys", json=form, headers=staff)
            assert approved.status == 200 and (await approved.json())["taken"] == 1
            assert list(run.book.by_key) == [("t3", held["match_id"])]
            assert matches.count(engine) == 1 and not_taken(engine) == []
            (k,) = table_keys.listed(engine)
            assert (k["status"], k["decided_by"]) == ("approved", "staff Ira")
            assert await (await http.get("/table-keys.txt")).text() == f"t3 {key}\n"

    with caplog.at_level(logging.WARNING, logger="scoreboard.club"):
        asyncio.run(body())
    said = [r.getMessage() for r in caplog.records]
    assert any("held: awaiting the key of table t3" in m for m in said), said


def test_issue_34_the_days_results_say_where_each_came_from_and_carry_it_signed(tmp_path):
    book = ResultBook(tmp_path)
    key = load_or_make(tmp_path / "t1")
    confirmed = signature.sign(result(mid="20261203T100000Z") | {"confirmation": "confirmed"}, key)
    timed_out = signature.sign(result(mid="20261203T110000Z") | {"confirmation": "timed-out"}, key)
    abandoned = signature.sign(result(mid="20261203T120000Z") | {"confirmation": None}, key)
    before = signature.sign(result(mid="20261203T130000Z"), key)  # a table before confirming
    for r in (confirmed, timed_out, abandoned, before):
        book.add(r)
    day = date(2026, 12, 3)
    rows = book.csv(day).splitlines()
    assert rows[0].endswith(",provenance")
    assert [row.rsplit(",", 1)[1] for row in rows[1:]] == [
        "confirmed at the table by both",
        "timed out at the table",
        "not confirmed",
        "not confirmed",
    ]
    exported = book.exported(day)
    assert [e["result"] for e in exported["results"]] == [confirmed, timed_out, abandoned, before]
    assert all(signature.check(e["result"], key=key.public) is None for e in exported["results"])
    assert exported["results"][0]["provenance"] == "confirmed at the table by both"


def test_issue_34_the_results_json_endpoint_serves_the_day(tmp_path):
    book = ResultBook(tmp_path)
    key = load_or_make(tmp_path / "t1")
    book.add(signature.sign(result(), key))

    async def body():
        http = TestClient(TestServer(Club(book=book).app()))
        await http.start_server()
        try:
            day = (await http.get("/results.json", params={"day": "2026-12-03"})).json()
            assert (await day)["results"][0]["result"]["key"] == key.public
            assert (await http.get("/results.json", params={"day": "03.12"})).status == 400
        finally:
            await http.close()

    asyncio.run(body())
