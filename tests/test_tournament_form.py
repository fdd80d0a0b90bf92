"""A new tournament's body (scoreboard/club/tournament_form.py, issue 22): every field is
checked, and a wrong one is a 400 that names it and says why, before anything is written;
a tournament's race by stage (scoreboard/desk/stages.py)."""

import asyncio

import pytest
from aiohttp.test_utils import TestClient, TestServer

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import DOUBLE, SINGLE, Bracket
from scoreboard.desk.stages import label, race_for

STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue

BAD = [  # (body changed from a good one, the field the 400 names, words it says)
    ({"name": ""}, "name:", "1 to 120"),
    ({"name": "x" * 121}, "name:", "1 to 120"),
    ({"format": "swiss"}, "format:", "'swiss'"),
    ({"players": "1,2"}, "players:", "ids"),
    ({"players": [1, True]}, "players:", "ids"),
    ({"players": [1]}, "players:", "2 to 128 players, not 1"),
    ({"players": [1, 2, 1]}, "players:", "player 1 is entered twice"),
    ({"players": [1, 999]}, "players:", "no player 999"),
    ({"players": [1, "merged"]}, "players:", "no player"),  # the merged one: see body()
    ({"race": 0}, "race:", "1 to 99"),
    ({"race": "3"}, "race:", "'3'"),
    ({"race": {"semi": 3}}, "race:", "'semi' is not a stage"),
    ({"race": {"final": 100}}, "race final:", "1 to 99"),
    ({"race": {}}, "race:", "by stage"),
    ({"target": 9}, "target:", "1 to 8"),
    ({"options": {"penalty": "none"}}, "options:", "penalty is one of"),
    ({"options": {"spin": "yes"}}, "options:", "unknown option 'spin'"),
    ({"tables": "t1"}, "tables:", "table ids"),
    ({"tables": ["t1", "t/2"]}, "tables:", "table ids"),
    ({"tables": ["t1", "t1"]}, "tables:", "twice"),
    ({"draw_seed": 1.5}, "draw_seed:", "whole number"),
    ({"draw_seed": -1}, "draw_seed:", "whole number"),
    ({"rounds": 3}, "rounds:", "not a tournament's field"),
    ({"dispatch": "maybe"}, "dispatch:", "auto, confirm"),
    ({"groups": 2}, "groups:", "not a setting of the double format"),
    ({"format": "groups", "groups": 2}, "groups:", "1 to 1 groups"),  # three players
    ({"format": "groups", "groups": 1, "qualify": 4}, "qualify:", "1 to 3 from each group"),
    ({"format": "groups", "groups": 1, "knockout": "swiss"}, "knockout:", "'swiss'"),
    ({"format": "round_robin", "qualify": 1}, "qualify:", "not a setting of the round_robin"),
]


def test_each_wrong_field_is_a_400_that_names_it_and_nothing_is_written(tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, name) for name in ("Olena", "Taras", "Ivan", "Ivan2")]
    players.merge(engine, ids[2], ids[3])  # Ivan2 was Ivan entered twice
    good = {
        "name": "Friday",
        "format": DOUBLE,
        "players": ids[:3],
        "race": {"*": 2, "final": 3},
        "target": 6,
        "options": {"jumped-ball": "spot"},
        "tables": ["t1", "t2"],
        "draw_seed": 7,
    }

    async def main():
        club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        staff = {**STAFF, "Origin": f"http://{http.host}:{http.port}"}
        try:
            for change, field, words in BAD:
                if change.get("players") == [1, "merged"]:
                    change = {"players": [ids[0], ids[3]]}
                body = good | change
                response = await http.post("/api/tournaments", json=body, headers=staff)
                text = await response.text()
                assert response.status == 400, (change, text)
                assert text.startswith(field) and words in text, (change, text)
            assert tournaments.in_play(engine) == []  # nothing written
            made = await http.post("/api/tournaments", json=good, headers=staff)
            assert made.status == 201, await made.text()
            cup = good | {"format": "groups", "groups": 1, "qualify": 2, "knockout": "single"}
            groups = await http.post("/api/tournaments", json=cup, headers=staff)
            assert groups.status == 201, await groups.text()
            shown = await (await http.get(f"/api/tournaments/{(await groups.json())['id']}")).json()
            assert [[row["player"] for row in g["table"]] for g in shown["groups"]] == [
                shown["players"]
            ]
            assert {g["id"] for g in shown["games"]} >= {"G1R1-1", "G1R3-1", "W1-1"}
            return (await made.json())["id"]
        finally:
            await http.close()

    tid = asyncio.run(main())
    t = tournaments.load(engine, tid)
    assert (t.name, t.format, t.draw_seed) == ("Friday", DOUBLE, 7)
    assert t.settings == {
        "race": {"*": 2, "final": 3},
        "target": 6,
        "options": {"jumped-ball": "spot"},
        "tables": ["t1", "t2"],
    }


@pytest.mark.parametrize(
    ("kind", "race", "expected"),
    [
        (SINGLE, 2, {"W1": 2, "W2": 2, "W3": 2}),
        (SINGLE, {"*": 2, "final": 3}, {"W1": 2, "W2": 2, "W3": 3}),
        (SINGLE, {"W": 2, "W2": 4, "final": 3, "*": 9}, {"W1": 2, "W2": 4, "W3": 3}),
        (DOUBLE, {"*": 2, "final": 3}, {"W3": 2, "L4": 2, "GF": 3, "GF2": 3}),
        (DOUBLE, {"L": 1, "W": 2, "F": 4}, {"W3": 2, "L1": 1, "L4": 1, "GF": 4}),
        (DOUBLE, {"W3": 5}, {"W1": 1, "W3": 5, "GF": 1}),
    ],
)
def test_the_race_by_stage_the_most_specific_key_wins(kind, race, expected):
    bracket = Bracket([f"P{n}" for n in range(8)], kind)
    got = {}
    for game in bracket.games:
        got.setdefault(game.id.split("-")[0], race_for(race, game, bracket.games))
    assert {k: got[k] for k in expected} == expected
    assert label(bracket.by_id["W2-1"], 3) == "W2 · race 3"
