"""A tournament that never stalls (issue 34), on SQLite and PostgreSQL: the runner
(scoreboard/club/tournament_runner.py) over the real hall's views of real match states sends
a game to a table set up with a breaker and nothing played, holds a game back from a table
whose players still confirm their result and from a player still at another table's match,
and says why each game waits."""

from hall_tables import HallTables

from scoreboard.club.tournament_runner import TournamentRunner
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE

OVER = ("players Olena Taras", "race 1", "break A", "shot pots=8")  # Olena wins 8:0


def make(database_url, names, **settings):
    engine = open_database(database_url)
    ids = [players.add(engine, n) for n in names]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings=settings, draw_seed=1)
    return engine, tid, tournaments.load(engine, tid).bracket


def test_a_table_with_its_breaker_chosen_and_nothing_played_is_sent_a_game(database_url):
    """Fails on the runner before issue 34: a table set up with "Breaks: A" sat in `break`,
    counted as playing, and the game waited for ever ("waits for a table")."""
    engine, tid, bracket = make(database_url, ["Oksana", "Petro"])
    tables = HallTables()
    tables.table("t1", "players Ivan Olena", "race 1", "break A")  # set up, not played
    runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
    assert runner.dispatch() == [("t1", "W1-1")]
    assert tables.sent == [("t1", f"T{tid}-W1-1", list(bracket.sides("W1-1")))]


def test_a_match_over_whose_players_confirm_the_result_is_not_sent_a_game(database_url):
    engine, tid, _ = make(database_url, ["Oksana", "Petro"])
    tables = HallTables()
    confirming = {"A": True, "B": False, "closed": None}
    tables.table("t1", *OVER, confirmation=confirming)
    runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
    assert runner.dispatch() == [] and tables.sent == []
    (why,) = runner.why()["waiting"]
    assert (why["why"], why["text"]) == (
        "table-busy",
        "Table 1: Olena v Taras confirming the result",
    )
    tables.state("t1", *OVER, confirmation={**confirming, "closed": "timed-out"})
    assert runner.dispatch() == [("t1", "W1-1")]


def test_a_game_waits_while_a_player_is_still_at_another_tables_match(database_url):
    engine, tid, bracket = make(database_url, ["Oksana", "Petro", "Andrii", "Olena"])
    a1, b1 = bracket.sides("W1-1")
    tables = HallTables()
    tables.table("t1")
    tables.table("t2", f"players {a1} Ivan", "race 1", "break A", "shot")  # a friendly, in play
    runner = TournamentRunner(engine, tid, views=tables.views, assign=tables.assign)
    assert runner.dispatch() == [("t1", "W1-2")]  # W1-1 holds back: its t1 goes to W1-2
    (why,) = runner.why()["waiting"]
    assert why == {
        "game": "W1-1",
        "players": [a1, b1],
        "why": "player-busy",
        "text": f"{a1} still playing at Table 2",
        "table": "t2",
    }
    tables.state("t2", f"players {a1} Ivan", "race 1", "break A", "shot pots=8")  # over
    assert runner.dispatch() == [("t2", "W1-1")]
    assert runner.why()["waiting"] == []


def test_the_runner_says_why_each_game_waits_as_the_tables_change(database_url):
    names = ["Oksana", "Petro", "Andrii", "Olena", "Ivan", "Taras"]
    engine, tid, bracket = make(database_url, names, tables=["t1", "t2"])
    tables = HallTables()
    runner = TournamentRunner(
        engine, tid, views=tables.views, assign=tables.assign, tables=["t1", "t2"]
    )
    assert runner.dispatch() == []
    ready = [g.id for g in bracket.ready()]
    assert [(w["game"], w["text"]) for w in runner.why()["waiting"]] == [
        (g, "no table online") for g in ready
    ]
    tables.table("t3")  # not one of the tournament's
    tables.table("t1", "players Yurii Marko", "race 3", "break A", "shot pots=5", "shot")
    assert runner.dispatch() == []
    texts = {w["text"] for w in runner.why()["waiting"]}
    assert texts == {"Table 1 busy: Yurii v Marko, 5:0, frames 0:0"}
    assert runner.why(linked=False)["waiting"][0]["why"] == "broker"
    tables.table("t2")
    sent = runner.dispatch()
    assert sent == [("t2", ready[0])]
    shown = runner.why()
    assert {w["why"] for w in shown["waiting"]} == {"all-busy"}
    assert [(t["table"], t["free"], t["holds"]) for t in shown["tables"]] == [
        ("t1", False, None),
        ("t2", False, ready[0]),
    ]
    assert shown["tables"][1]["text"] == f"Table 2 holds {ready[0]}, not started yet"
