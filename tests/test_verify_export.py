"""A tournament's export checked again by anyone (issue 34), on SQLite and on PostgreSQL: each
game says where its result came from (the table's confirmation, or the staff who entered it)
in the JSON, the CSV and at the desk's API, and carries the table's signed result; `scoreboard
verify` passes on the export as the club serves it and fails on one with a score changed,
in the game or in the signed result, a provenance made better, or a key not the table's."""

import asyncio
import csv
import io
import json

import pytest
from aiohttp.test_utils import TestClient, TestServer
from test_tournament_export import Hall

from scoreboard.cli import main
from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.club.tournament_runner import TournamentRunner
from scoreboard.clubdb import matches, players, table_keys, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE
from scoreboard.mqtt.results import digest
from scoreboard.signing import signature
from scoreboard.signing.table_key import load_or_make

# W1-1 and W1-2 played at the tables (confirmed there, and timed out), the final entered by staff.
PLAYED = {"W1-1": ("B", (1, 2), "confirmed"), "W1-2": ("A", (2, 0), "timed-out")}


def play(tmp_path, database_url, *, final=True):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Олена", "Bob", "Ира", "Dan")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings={"race": 2}, draw_seed=1)
    hall = Hall("t1", "t2")
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    book = ResultBook(tmp_path / "book")
    keys = {t: load_or_make(tmp_path / t) for t in ("t1", "t2")}
    for t, key in keys.items():
        table_keys.decide(engine, t, key.public, table_keys.APPROVED, by="staff Ira")
    for minute, (game, (side, frames, confirmation)) in enumerate(PLAYED.items()):
        runner.dispatch()
        table = next(t for t, v in hall.tables.items() if v["assign"]["id"].endswith(game))
        plain = hall.finish(table, side, frames, minute=minute)
        plain |= {"confirmation": confirmation, "log_sha256": f"{minute:02d}" * 32}
        plain["frame_times"][0] += 0.5  # a time as a float, kept to the bit by both engines
        result = signature.sign(plain, keys[table])
        book.add(result)  # as the club takes a verified result (server.Club.take_result)
        matches.keep(engine, result, digest(result))
        assert runner.result(result)
    if final:
        sides = tournaments.load(engine, tid).bracket.sides("W2-1")
        tournaments.record(engine, tid, "W2-1", sides[0], frames=(2, 1), by="staff Ira")
    return engine, tid, book


def served(tmp_path, engine, book, *paths) -> list:
    async def body():
        club = Club(book=book, staff_password="cue", database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            return [await (await http.get(p)).read() for p in paths]
        finally:
            await http.close()

    return asyncio.run(body())


def verify(capsys, tmp_path, exported, keys: str | None) -> tuple[int, str]:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported, ensure_ascii=False), encoding="utf-8")
    argv = ["verify", str(path)]
    if keys is not None:
        (tmp_path / "keys.txt").write_text(keys)
        argv += ["--keys", str(tmp_path / "keys.txt")]
    status = main(argv)
    return status, capsys.readouterr().out


@pytest.fixture
def exported(tmp_path, database_url):
    engine, tid, book = play(tmp_path, database_url)
    got = served(
        tmp_path,
        engine,
        book,
        f"/api/tournaments/{tid}/export.json",
        "/table-keys.txt",
        f"/api/tournaments/{tid}/export.csv",
        f"/api/tournaments/{tid}",
    )
    return json.loads(got[0]), got[1].decode(), got[2].decode(), json.loads(got[3])


def test_issue_34_each_game_says_where_its_result_came_from(exported):
    export, _, as_csv, at_the_desk = exported
    said = {g["id"]: g["provenance"] for g in export["games"]}
    assert said == {
        "W1-1": "confirmed at the table by both",
        "W1-2": "timed out at the table",
        "W2-1": "entered by staff Ira",
    }
    games = {g["id"]: g for g in export["games"]}
    assert games["W2-1"]["result"] is None  # nothing the table signed
    assert signature.check(games["W1-1"]["result"]) is None
    assert {r["game"]: r["provenance"] for r in csv.DictReader(io.StringIO(as_csv))} == said
    assert {g["id"]: g["provenance"] for g in at_the_desk["games"]} == said


def test_issue_34_scoreboard_verify_passes_on_the_export_as_the_club_serves_it(
    exported, tmp_path, capsys
):
    export, keys, _, _ = exported
    status, out = verify(capsys, tmp_path, export, keys)
    assert status == 0, out
    lines = out.splitlines()
    assert lines[0].startswith("W1-1 (t") and lines[0].endswith(
        ": verifies (confirmed at the table by both)"
    )
    assert lines[1].endswith(": verifies (timed out at the table)")
    assert lines[2] == "W2-1: entered by staff Ira: not signed by a table, nothing to verify"
    assert lines[-1] == "2 verify, 0 do not, 1 not signed"
    status, out = verify(capsys, tmp_path, export, None)  # no keys: said, not failed
    assert status == 0 and out.splitlines()[-1].endswith("keys not checked: give --keys FILE")


def _game(export, game):
    return next(g for g in export["games"] if g["id"] == game)


@pytest.mark.parametrize(
    "tamper, said",
    [
        (lambda e: _game(e, "W1-2").update(frames=[2, 1]), "frames in the export 2:1, signed 2:0"),
        (
            lambda e: _game(e, "W1-2")["result"]["frames"].update(B=1),
            "signature did not verify",
        ),
        (
            lambda e: _game(e, "W1-2").update(provenance="confirmed at the table by both"),
            "provenance in the export 'confirmed at the table by both', signed "
            "'timed out at the table'",
        ),
        (
            lambda e: _game(e, "W1-2").update(result=None),
            "says 'timed out at the table' but carries no signed result",
        ),
    ],
)
def test_issue_34_scoreboard_verify_fails_on_a_tampered_export(
    exported, tmp_path, capsys, tamper, said
):
    export, keys, _, _ = exported
    tamper(export)
    status, out = verify(capsys, tmp_path, export, keys)
    assert status == 1
    (failed,) = [line for line in out.splitlines() if "DOES NOT VERIFY" in line]
    assert failed.startswith("W1-2") and said in failed, out
    assert out.splitlines()[-1].startswith("1 verify, 1 do not")


def test_issue_34_a_result_signed_by_a_key_not_the_tables_fails(exported, tmp_path, capsys):
    export, keys, _, _ = exported
    other = load_or_make(tmp_path / "someone else").public
    table = _game(export, "W1-1")["result"]["table"]
    replaced = "".join(
        f"{t} {other}\n" if t == table else f"{t} {k}\n"
        for t, k in (line.split() for line in keys.splitlines())
    )
    status, out = verify(capsys, tmp_path, export, replaced)
    assert status == 1
    assert f"signed by a key not given for table {table} (the keys file has another key)" in out


def test_issue_34_scoreboard_verify_checks_a_days_results_too(tmp_path, capsys):
    key = load_or_make(tmp_path / "t1")
    book = ResultBook(tmp_path / "book")
    from test_club import result

    book.add(signature.sign(result() | {"confirmation": "confirmed"}, key))
    (day,) = served(tmp_path, None, book, "/results.json?day=2026-12-03")
    day = json.loads(day)
    assert verify(capsys, tmp_path, day, f"t1 {key.public}\n")[0] == 0
    day["results"][0]["result"]["winner"] = "B"
    status, out = verify(capsys, tmp_path, day, f"t1 {key.public}\n")
    assert status == 1 and "t1 20261203T100000Z: DOES NOT VERIFY: signature did not verify" in out


def test_issue_34_scoreboard_verify_says_what_it_cannot_read(tmp_path, capsys):
    (tmp_path / "x.json").write_text('{"tournament": 1}')
    assert main(["verify", str(tmp_path / "x.json")]) == 2
    assert "not a club's export" in capsys.readouterr().err
    (tmp_path / "keys.txt").write_text("t1\n")
    assert main(["verify", str(tmp_path / "x.json"), "--keys", str(tmp_path / "keys.txt")]) == 2
    assert "line 1: `TABLE KEY`" in capsys.readouterr().err


def test_issue_34_a_tournament_still_in_play_verifies_its_games_not_played_say_nothing(
    tmp_path, capsys
):
    engine, tid, book = play(tmp_path, f"sqlite:///{tmp_path}/club.db", final=False)
    export, keys = (
        json.loads(x) if n == 0 else x.decode()
        for n, x in enumerate(
            served(tmp_path, engine, book, f"/api/tournaments/{tid}/export.json", "/table-keys.txt")
        )
    )
    assert _game(export, "W2-1")["provenance"] is None  # the final, not played yet
    status, out = verify(capsys, tmp_path, export, keys)
    assert status == 0 and out.splitlines()[-1] == "2 verify, 0 do not, 0 not signed", out
    _game(export, "W2-1")["winner"] = _game(export, "W2-1")["players"][0]  # made up
    status, out = verify(capsys, tmp_path, export, keys)
    assert status == 1 and "W2-1: DOES NOT VERIFY: says None but carries no signed result" in out
