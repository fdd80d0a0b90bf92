"""A tournament played on the tables by themselves (scoreboard/club/tournament_runner.py,
issue 22), on SQLite and PostgreSQL: ready games go to free tables as assigns, the tables'
results (carrying the assign's id) move the bracket on; a restart of the club goes on where
it was, and a result delivered twice is taken once."""

from scoreboard.club.tournament_runner import TournamentRunner, assign_id, parse_assign_id
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.core.settings import MatchSettings
from scoreboard.desk.bracket import SINGLE


class Hall:
    """The tables as the club's hall sees them, and what the runner sent."""

    def __init__(self, *names):
        self.tables = {
            n: {"table": n, "online": True, "status": "idle", "assign": None} for n in names
        }
        self.sent = []

    def views(self):
        return list(self.tables.values())

    def assign(self, table, settings, aid):
        self.sent.append((table, aid, settings["players"]))
        self.tables[table] |= {"assign": {"id": aid, **settings}, "status": "playing"}

    def finish(self, table, winner="A", frames=(2, 1)):
        """The table's match over: its result, as the publisher sends it."""
        view = self.tables[table]
        view["status"] = "idle"
        return {
            "table": table,
            "finished": True,
            "assign": view["assign"]["id"],
            "winner": winner,
            "frames": {"A": frames[0], "B": frames[1]},
        }


def make(database_url, count=4):
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n}") for n in range(1, count + 1)]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings={"race": 2}, draw_seed=1)
    return engine, tid


def test_ready_games_go_to_free_tables_and_results_move_the_bracket_on(database_url):
    engine, tid = make(database_url)
    hall = Hall("t1", "t2", "t3")
    hall.tables["t3"]["online"] = False  # a table that is off is never sent a game
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    assert runner.dispatch() == [("t1", "W1-1"), ("t2", "W1-2")]
    assert runner.dispatch() == []  # both out: nothing sent twice
    assert runner.result(hall.finish("t1", "B", (1, 2)))
    assert runner.dispatch() == []  # the final waits for W1-2
    assert runner.result(hall.finish("t2", "A", (2, 0)))
    assert runner.dispatch() == [("t1", "W2-1")]
    t = tournaments.load(engine, tid)
    w1, w2 = t.bracket.sides("W1-1")[1], t.bracket.sides("W1-2")[0]
    assert hall.sent[-1] == ("t1", f"T{tid}-W2-1", [w1, w2])
    assert runner.result(hall.finish("t1", "A", (2, 1)))
    assert tournaments.load(engine, tid).bracket.champion() == w1
    assert [h["by"] for h in tournaments.history(engine, tid)] == [
        "table t1",
        "table t2",
        "table t1",
    ]


def test_a_result_twice_and_one_for_something_else_change_nothing(database_url):
    engine, tid = make(database_url)
    hall = Hall("t1", "t2")
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    runner.dispatch()
    result = hall.finish("t1")
    assert runner.result(result)
    assert runner.result(result)  # again (QoS 1): the same result, kept once as it was
    t = tournaments.load(engine, tid)
    assert list(t.bracket.results) == ["W1-1"] and len(tournaments.history(engine, tid)) == 1
    assert not runner.result({**result, "assign": "5f2c0a9e41b7"})  # the staff's own assign
    assert not runner.result({**result, "assign": assign_id(tid + 1, "W1-1")})
    assert not runner.result({**result, "finished": False})


def test_a_restarted_club_goes_on_where_it_was(database_url):
    engine, tid = make(database_url, count=8)
    hall = Hall("t1", "t2", "t3", "t4")
    TournamentRunner(engine, tid, views=hall.views, assign=hall.assign).dispatch()
    assert len(hall.sent) == 4
    TournamentRunner(open_database(database_url), tid, views=hall.views, assign=hall.assign).result(
        hall.finish("t2")
    )
    again = TournamentRunner(open_database(database_url), tid, views=hall.views, assign=hall.assign)
    assert again.dispatch() == []  # three still out (the retained assigns say so), one waits
    assert len(hall.sent) == 4


def test_assign_ids_name_the_tournament_and_the_game():
    assert parse_assign_id(assign_id(12, "L3-2")) == (12, "L3-2")
    assert parse_assign_id(assign_id(1, "GF2")) == (1, "GF2")
    assert parse_assign_id("5f2c0a9e41b7") is None and parse_assign_id(None) is None


def test_a_game_is_never_sent_twice_before_the_brokers_copy_comes_back(database_url):
    """Found by the end-to-end test: two tables changed before the first assign came back
    from the broker, and the same game went to both."""
    engine, tid = make(database_url)
    hall = Hall("t1", "t2", "t3")
    slow = []  # the assigns published, not yet back in the hall's views

    def assign(table, settings, aid):
        slow.append((table, aid))

    runner = TournamentRunner(engine, tid, views=hall.views, assign=assign)
    assert runner.dispatch() == [("t1", "W1-1"), ("t2", "W1-2")]
    assert runner.dispatch() == []  # t3 is free, but nothing is left to send
    assert len(slow) == 2


def test_a_table_cannot_record_a_game_it_was_not_given(database_url):
    """A table's result names the game by its assign's id; a table that was not given that
    game (a forged or mistaken id) records nothing."""
    engine, tid = make(database_url)
    hall = Hall("t1", "t2", "t3")
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    runner.dispatch()  # W1-1 at t1, W1-2 at t2
    forged = {**hall.finish("t1"), "table": "t3"}
    assert not runner.result(forged)
    assert not runner.result({**hall.finish("t1"), "table": "t2"})  # t2 holds W1-2, not W1-1
    assert tournaments.load(engine, tid).bracket.results == {}
    again = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)  # a restart
    assert again.result(hall.finish("t1"))  # t1's retained assign says W1-1 was its


def test_a_tables_later_result_for_a_played_game_is_not_taken(database_url):
    """A review: a casual rematch at the same table sent another result for the same game,
    and it was taken as a correction (the staff correct results, not the tables)."""
    engine, tid = make(database_url)
    hall = Hall("t1", "t2")
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    runner.dispatch()
    first = hall.finish("t1", "A", (2, 1))
    assert runner.result(first)
    assert not runner.result({**first, "winner": "B", "frames": {"A": 0, "B": 2}})
    assert runner.result(first)  # the same one again is still the same
    t = tournaments.load(engine, tid)
    assert t.bracket.results["W1-1"].winner == t.bracket.sides("W1-1")[0]
    assert len(tournaments.history(engine, tid)) == 1
    named = {**hall.finish("t2"), "players": {"A": "Someone", "B": "Else"}}
    assert not runner.result(named)  # not the players the game was for


def test_each_game_goes_out_with_its_stages_race_the_target_and_the_rule_options(database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n}") for n in range(1, 5)]
    settings = {"race": {"*": 2, "final": 3}, "target": 6, "options": {"penalty": "american"}}
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings=settings, draw_seed=1)
    hall = Hall("t1", "t2")
    got = {}
    hall.assign = lambda table, s, aid: got.__setitem__(aid, s) or Hall.assign(hall, table, s, aid)
    runner = TournamentRunner(engine, tid, views=hall.views, assign=hall.assign)
    runner.dispatch()
    runner.result(hall.finish("t1"))
    runner.result(hall.finish("t2"))
    runner.dispatch()
    races = {aid.split("-", 1)[1]: s["race"] for aid, s in got.items()}
    assert races == {"W1-1": 2, "W1-2": 2, "W2-1": 3}
    for s in got.values():
        assert (s["target"], s["options"]) == (6, {"penalty": "american"})
        MatchSettings.from_dict(s)  # the table takes it


def test_groups_then_a_knockout_played_through_the_runner(database_url):
    """Two groups of four, the best two of each into a single elimination: every game goes out
    once, nobody is at two tables at once, the knockout waits for the groups, and those who
    go on are the ones with the most wins in their group, counted from the tables' results."""
    engine = open_database(database_url)
    ids = [players.add(engine, f"P{n}") for n in range(1, 9)]
    settings = {"groups": 2, "qualify": 2, "race": {"G": 2, "final": 3}}
    tid = tournaments.create(engine, "Cup", "groups", ids, settings=settings, draw_seed=5)
    hall = Hall("t1", "t2", "t3")
    sent, log = [], []  # every (game, players, race) sent; every (game, winner, loser) played

    def assign(table, s, aid):
        busy = {p for v in hall.views() if v["status"] == "playing" for p in v["assign"]["players"]}
        assert hall.tables[table]["status"] == "idle" and not busy & set(s["players"]), aid
        sent.append((aid.split("-", 1)[1], s["players"], s["race"]))
        Hall.assign(hall, table, s, aid)

    runner = TournamentRunner(engine, tid, views=hall.views, assign=assign)
    rng = __import__("random").Random(3)
    runner.dispatch()
    while not runner.over:
        table = rng.choice([t for t, v in hall.tables.items() if v["status"] == "playing"])
        game = hall.tables[table]["assign"]["id"].split("-", 1)[1]
        a, b = hall.tables[table]["assign"]["players"]
        side = rng.choice("AB")
        assert runner.result(hall.finish(table, side, (2, 1) if side == "A" else (1, 2)))
        log.append((game, *((a, b) if side == "A" else (b, a))))
        runner.dispatch()
    t = tournaments.load(engine, tid)
    games = [g for g, _, _ in sent]
    assert len(games) == len(set(games)) == 12 + 3  # 2 x 6 group games, semis and final
    first_knockout = next(n for n, g in enumerate(games) if not g.startswith("G"))
    assert all(g.startswith("G") for g in games[:first_knockout]) and first_knockout == 12
    races = {g: race for g, _, race in sent}
    assert {races[g] for g in games[:12]} == {2} and (races["W1-1"], races["W2-1"]) == (1, 3)
    wins = {p: sum(w == p for _, w, _ in log[:12]) for p in t.bracket.players}
    semis = {p for g, ps, _ in sent if g.startswith("W1") for p in ps}
    for members in t.bracket.groups:
        on = [p for p in members if p in semis]
        assert len(on) == 2 and min(wins[p] for p in on) >= max(
            wins[p] for p in members if p not in on
        )
    final = next(w for g, w, _ in log if g == "W2-1")
    assert t.bracket.champion() == final and [p for _, ps in t.bracket.standings() for p in ps]
    assert sorted(p for _, ps in t.bracket.standings() for p in ps) == sorted(t.bracket.players)
    assert tournaments.in_play(engine) == []
