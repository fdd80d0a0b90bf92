"""A tournament exported (scoreboard/club/tournament_export.py, issue 22), on SQLite and on
PostgreSQL: played on tables by the runner, its results in the club's book and database, every game
comes out with its players, winner, frames, table, times and frame-by-frame log, as JSON and
as CSV one row a game."""

import asyncio
import csv
import io
import json

from aiohttp.test_utils import TestClient, TestServer

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.club.tournament_runner import TournamentRunner
from scoreboard.clubdb import matches, players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE
from scoreboard.mqtt.results import digest

FRAMES = {"W1-1": ("B", (1, 2)), "W1-2": ("A", (2, 0)), "W2-1": ("A", (2, 1))}


class Hall:
    def __init__(self, *names):
        self.tables = {
            n: {"table": n, "online": True, "status": "idle", "assign": None} for n in names
        }
        self.sent = {}  # assign id -> (table, players)

    def views(self):
        return list(self.tables.values())

    def assign(self, table, settings, aid):
        self.sent[aid] = (table, settings["players"])
        self.tables[table] |= {"assign": {"id": aid, **settings}, "status": "playing"}

    def finish(self, table, winner, frames, minute):
        """The table's match over: its whole result, as its publisher sends it."""
        view = self.tables[table]
        view["status"] = "idle"
        aid = view["assign"]["id"]
        a, b = self.sent[aid][1]
        scores = [[40 + n, 20] if n < frames[0] else [20, 40 + n] for n in range(sum(frames))]
        return {
            "table": table,
            "match_id": f"20261204T18{minute:02d}00Z",
            "assign": aid,
            "started": f"2026-12-04T18:{minute:02d}:00Z",
            "first_shot": f"2026-12-04T18:{minute + 1:02d}:00Z",
            "ended": f"2026-12-04T18:{minute + 30:02d}:00Z",
            "players": {"A": a, "B": b},
            "finished": True,
            "winner": winner,
            "frames": {"A": frames[0], "B": frames[1]},
            "frame_scores": scores,
            "frame_times": [600 + n for n in range(len(scores))],
            "last_frame": scores[-1],
            "fouls": {"A": {"scratch": 1}, "B": {}},
            "longest_run": {"A": 3, "B": 2},
        }


def play(tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Олена", "Bob", "Ира", "Dan")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings={"race": 2}, draw_seed=1)
    hall = Hall("t1", "t2")
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    book = ResultBook(tmp_path / "book")
    where = {}
    for minute, game in enumerate(("W1-1", "W1-2", "W2-1")):
        runner.dispatch()
        table = next(t for t, v in hall.tables.items() if v["assign"]["id"].endswith(game))
        where[game] = table
        result = hall.finish(table, *FRAMES[game], minute=minute)
        book.add(result)  # as the club takes a table's result (server.Club.take)
        matches.keep(engine, result, digest(result))
        assert runner.result(result)
    return engine, tid, book, where


def get(tmp_path, engine, book, path):
    async def main():
        club = Club(book=book, staff_password="cue", database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            response = await http.get(path)
            return response.status, response.headers.get("Content-Type"), await response.read()
        finally:
            await http.close()

    return asyncio.run(main())


def test_a_played_tournament_is_exported_with_every_game_its_table_frames_and_log(
    tmp_path, database_url
):
    engine, tid, book, where = play(tmp_path, database_url)
    status, _, body = get(tmp_path, engine, book, f"/api/tournaments/{tid}/export.json")
    assert status == 200
    exported = json.loads(body)
    assert exported["champion"] is not None
    games = {g["id"]: g for g in exported["games"]}
    assert set(games) == set(FRAMES)
    for game, (side, frames) in FRAMES.items():
        g = games[game]
        assert g["table"] == where[game]
        assert g["frames"] == list(frames)
        assert g["winner"] == g["players"][0 if side == "A" else 1]
        assert g["walkover"] is False
        assert g["started"].startswith("2026-12-04T18:") and g["ended"] > g["started"]
        assert len(g["log"]["frame_scores"]) == sum(frames)
        assert g["log"]["fouls"]["A"] == {"scratch": 1}


def test_the_csv_is_one_row_a_game_in_utf8_with_a_header(tmp_path, database_url):
    engine, tid, book, where = play(tmp_path, database_url)
    status, kind, body = get(tmp_path, engine, book, f"/api/tournaments/{tid}/export.csv")
    assert status == 200 and kind.startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(body.decode("utf-8"))))
    assert {r["game"] for r in rows} == set(FRAMES)
    for r in rows:
        side, frames = FRAMES[r["game"]]
        assert r["table"] == where[r["game"]]
        assert (int(r["frames_a"]), int(r["frames_b"])) == frames
        assert r["winner"] == r["player_a" if side == "A" else "player_b"]
        assert len(r["frame_scores"].split()) == sum(frames)
        assert r["fouls_a"] == "scratch:1" and r["started"] and r["ended"]
    names = {r["player_a"] for r in rows} | {r["player_b"] for r in rows}
    assert {"Олена", "Bob", "Ира", "Dan"} <= names  # UTF-8 names as they are


def test_no_such_tournament_is_a_404(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    book = ResultBook(tmp_path / "book")
    assert get(tmp_path, engine, book, "/api/tournaments/9/export.json")[0] == 404
    assert get(tmp_path, engine, book, "/api/tournaments/x/export.csv")[0] == 404
