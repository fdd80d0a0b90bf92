"""Why a tournament's game waits, and which go now (scoreboard/club/waiting.py, issue 34):
pure, over the real hall's views of real match states. Each reason in its words, the first
that holds; each table's words; the plan never sends a game whose player is at another
table's match, nor to a table that is taken, busy, faulty, offline or not the tournament's."""

import inspect
import re
from pathlib import Path

from hall_tables import HallTables

from scoreboard.club import waiting
from scoreboard.club.waiting import Game, plan, reasons, same_name, table_words, tables_now

GAME = Game("W2-1", ("Andrii", "Oksana"))
NEXT = Game("W2-2", ("Ivan", "Olena"))
PLAYING = ("players Petro Taras", "race 1", "break A", "shot pots=5", "shot", "shot pots=3")


def over(a="Andrii", b="Marko") -> tuple[str, ...]:
    return (f"players {a} {b}", "race 1", "break A", "shot pots=8")  # a wins 8:0


OVER = over()
OPEN = {"A": True, "B": False, "closed": None}


def why(hall: HallTables, games=(GAME,), **kw) -> list[tuple[str, str, str | None]]:
    return [(r["why"], r["text"], r["table"]) for r in reasons(list(games), hall.views(), **kw)]


def test_no_table_online():
    tables = HallTables()
    assert why(tables) == [("no-table", "no table online", None)]
    tables.table("t1")
    tables.offline("t1")
    tables.table("t9")  # online, but not one of the tournament's
    assert why(tables, tables=["t1", "t2"]) == [("no-table", "no table online", None)]


def test_its_one_table_busy_with_the_score_or_confirming_the_result():
    tables = HallTables()
    tables.table("t3", *PLAYING)
    assert why(tables) == [("table-busy", "Table 3 busy: Petro v Taras, 5:3", "t3")]
    tables.state("t3", *("players Petro Taras", "race 3", *PLAYING[2:]))
    assert why(tables)[0][1] == "Table 3 busy: Petro v Taras, 5:3, frames 0:0"
    tables.state("t3", *over("Petro", "Taras"), confirmation=OPEN)
    assert why(tables) == [("table-busy", "Table 3: Petro v Taras confirming the result", "t3")]


def test_all_tables_busy_held_proposed_or_faulty():
    tables = HallTables()
    tables.table("t1", *PLAYING)
    tables.table("t2")
    tables.table("t3")
    tables.faults("t3", "sensor-stuck")
    tables.table("t4")
    got = why(tables, games=[NEXT], taken={"t2": "W1-4"}, proposed={"t4": "W1-3"})
    assert got == [("all-busy", "all tables busy", None)]
    now = tables_now(tables.views(), taken={"t2": "W1-4"}, proposed={"t4": "W1-3"})
    assert [(t["table"], t["free"], t["holds"], t["text"]) for t in now] == [
        ("t1", False, None, "Table 1 busy: Petro v Taras, 5:3"),
        ("t2", False, "W1-4", "Table 2 holds W1-4, not started yet"),
        ("t3", False, None, "Table 3 has a fault: sensor-stuck"),
        ("t4", False, None, "Table 4 proposed for W1-3"),
    ]


def test_a_player_still_at_another_tables_match_comes_first():
    tables = HallTables()
    tables.table("t1")  # free: the player is the reason, not the tables
    tables.table("t2", "players Andrii Marko", "race 1", "break A", "shot")
    assert why(tables) == [("player-busy", "Andrii still playing at Table 2", "t2")]
    tables.state("t2", *OVER, confirmation=OPEN)
    tables.table("t5", "players Taras Oksana", "race 1", "break B", "shot")
    assert why(tables) == [
        (
            "player-busy",
            "Andrii still at Table 2, confirming the result; Oksana still playing at Table 5",
            "t2",
        )
    ]
    tables.state("t2", *OVER, confirmation={**OPEN, "closed": "confirmed"})
    tables.state("t5", "players Taras Oksana", "race 1", "break B")  # set up, not played
    assert why(tables)[0][0] == "free-table"  # both free now, and so is a table: it goes
    tables.offline("t2")
    tables.state("t5", "players Taras Oksana", "race 1", "break B", "shot")
    tables.offline("t5")
    assert why(tables)[0][0] == "free-table"  # a table that is off holds nobody


def test_a_proposed_game_and_the_broker_away():
    tables = HallTables()
    tables.table("t1")
    assert why(tables, proposed={"t1": "W2-1"}) == [
        ("proposed", "proposed for Table 1: the staff send it", "t1")
    ]
    assert why(tables, linked=False)[0][:2] == (
        "broker",
        "the club has lost the broker: games go out when it is back",
    )


def test_the_plan_sends_games_in_order_to_free_tables_whose_players_are_free():
    tables = HallTables()
    for t in ("t1", "t2", "t3", "t4", "t5"):
        tables.table(t)
    tables.state("t1", *PLAYING)  # busy
    tables.faults("t2", "board-lost")  # a fault
    tables.offline("t3")
    tables.table("t6", "players Andrii Marko", "race 1", "break A", "shot")  # Andrii is here
    tables.table("t7", "players Ivan Yurii", "race 1", "break A")  # nothing played: free
    games = [GAME, NEXT, Game("W2-3", ("Petro", "Bohdan")), Game("W2-4", ("Ira", "Sofia"))]
    views = tables.views()
    # GAME's Andrii is at t6; Petro plays at t1; t4 is taken: NEXT to t5, W2-4 to t7
    assert plan(games, views, taken={"t4"}) == [("t5", "W2-2"), ("t7", "W2-4")]
    assert plan(games, views, tables=["t7"]) == [("t7", "W2-2")]
    assert plan(games, views, tables=["t1", "t2", "t3"]) == []


def test_table_words_and_names():
    tables = HallTables()
    tables.table("t1", *PLAYING, name="By the window")
    (view,) = tables.views()
    assert table_words(view) == "By the window busy: Petro v Taras, 5:3"
    tables.state("t1", "players Petro Taras", "race 1", "break A")
    assert table_words(tables.views()[0]) is None
    assert same_name("Anna_Maria", "anna maria") and not same_name("Anna", "Anna M")


def test_every_reason_is_in_the_modules_list_and_the_api_doc():
    listed = re.findall(r"^- ``([a-z-]+)``", waiting.__doc__, re.M)
    returned = re.findall(r'return "([a-z-]+)"', inspect.getsource(waiting._why))
    assert listed == returned  # in the order they are tried
    doc = (Path(__file__).parent.parent / "docs" / "API.md").read_text(encoding="utf-8")
    section = doc[doc.index("`waiting` says why each ready game") :]
    assert all(f"`{kind}`" in section[:2000] for kind in listed), listed
