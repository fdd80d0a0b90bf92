"""No game waits for a free table (issue 34): random evenings at the club's tables, a model
of what each table shows beside the real runner (scoreboard/club/tournament_runner.py) over
the real hall's views of real match states. Tables come and go, get and clear faults; casual
matches are set up (a breaker chosen, nothing played) and played, some by the tournament's
own players; the tables play the games sent to them, and their players confirm the result
or leave it open. After every step, the runner having dispatched as the club does:

- no ready game waits while a table of the tournament is free and both its players are free
  (the model's own judgement, not the club's);
- a game goes only to a free table, while both its players are free, never to two tables;
- every waiting game says why, never "a table is free", and "a player is still at another
  table" exactly when one is.

A single, a double elimination or a round robin, on SQLite (the runner's logic is the
database's the same on PostgreSQL: tests/test_tournament_waiting.py runs both)."""

import os
from dataclasses import dataclass

from hall_tables import HallTables
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)

from scoreboard.club.tournament_runner import TournamentRunner, parse_assign_id
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database

NAMES = [f"P{n}" for n in range(1, 9)]
GUESTS = ["Guest1", "Guest2"]
TOURNAMENT_TABLES = ["t1", "t2", "t3"]
ALL_TABLES = [*TOURNAMENT_TABLES, "t4"]  # t4: the club's, not the tournament's
EXAMPLES = int(os.environ.get("SCOREBOARD_DISPATCH_EXAMPLES", "60"))
KINDS = ["new", "setup", "setup", "playing", "over", "over-open"]  # a table's match at the start
PAIRS = [("Guest1", "Guest2"), ("P1", "Guest1"), ("Guest2", "P4")]


@dataclass
class Table:
    """What the model knows a table shows."""

    online: bool = True
    fault: bool = False
    kind: str = "new"  # new (lag) | setup (a breaker chosen) | playing | over
    players: tuple[str, str] = ("A", "B")
    confirming: bool | None = None  # over: None no confirmation, True open, False closed
    game: str | None = None  # the game of the tournament its assign names

    def holds(self) -> bool:
        """Its match holds it (the model's own rule: a shot played, or a result open)."""
        return self.kind == "playing" or (self.kind == "over" and self.confirming is True)

    def lines(self) -> list[str]:
        a, b = self.players
        head = [f"players {a} {b}", "race 1"]
        return {
            "new": head,
            "setup": [*head, "break A"],
            "playing": [*head, "break A", "shot pots=1"],
            "over": [*head, "break A", "shot pots=8"],  # A wins
        }[self.kind]


class Evening(RuleBasedStateMachine):
    engine = None  # the test's database
    ids: dict[str, int] = {}

    @initialize(
        count=st.integers(2, 8),
        form=st.sampled_from(["single", "double", "round_robin"]),
        seed=st.integers(0, 2**31 - 1),
        tables=st.lists(
            st.tuples(st.booleans(), st.sampled_from(KINDS), st.sampled_from(PAIRS)),
            min_size=len(ALL_TABLES),
            max_size=len(ALL_TABLES),
        ),
    )
    def start(self, count, form, seed, tables):
        """The tournament starts on tables as the evening left them: on or off, each with a
        match of the club's (often a breaker chosen and nothing played: issue 34's stall)."""
        ids = [self.ids[n] for n in NAMES[:count]]
        self.tid = tournaments.create(self.engine, "Evening", form, ids, draw_seed=seed)
        self.hall = HallTables()
        self.model = {}
        for t, (online, kind, pair) in zip(ALL_TABLES, tables, strict=True):
            confirming = True if kind == "over-open" else None
            kind = kind.removesuffix("-open")
            self.model[t] = Table(online=online, kind=kind, players=pair, confirming=confirming)
            self.hall.table(t)
            self.show(t)
            if not online:
                self.hall.offline(t)
        self.sent: list[str] = []
        self.runner = TournamentRunner(
            self.engine,
            self.tid,
            views=self.hall.views,
            assign=self.assigned,
            tables=TOURNAMENT_TABLES,
        )
        self.runner.dispatch()

    # -- the model's judgement ----------------------------------------------------------------
    def decided(self) -> set[str]:
        return set(tournaments.load(self.engine, self.tid).bracket.results)

    def out(self, decided) -> set[str]:
        return {m.game for m in self.model.values() if m.game and m.game not in decided}

    def free(self, table: str, decided) -> bool:
        m = self.model[table]
        held = m.game is not None and m.game not in decided
        return m.online and not m.fault and not held and not m.holds()

    def busy(self, player: str) -> bool:
        return any(m.online and m.holds() and player in m.players for m in self.model.values())

    def show(self, table: str) -> None:
        m = self.model[table]
        extra = {}
        if m.kind == "over" and m.confirming is not None:
            extra["confirmation"] = {"A": True, "B": False, "closed": None}
            if not m.confirming:
                extra["confirmation"]["closed"] = "confirmed"
        self.hall.state(table, *m.lines(), **extra)

    def assigned(self, table: str, settings: dict | None, aid: str) -> None:
        """The runner sends a game: the table must be free and its players too; the table
        takes it as this match (nothing is played there)."""
        tid, game = parse_assign_id(aid)
        decided = self.decided()
        assert settings is not None and tid == self.tid
        assert table in TOURNAMENT_TABLES and self.free(table, decided), (table, game)
        assert game not in self.out(decided), f"{game} sent to a second table"
        assert not any(self.busy(p) for p in settings["players"]), (game, settings)
        event(f"a game sent to a table in {self.model[table].kind}")
        self.sent.append(game)
        m = self.model[table]
        m.game, m.kind, m.players, m.confirming = game, "new", tuple(settings["players"]), None
        self.hall.assign(table, settings, aid)
        self.show(table)

    def dispatch(self) -> None:
        self.runner.dispatch()  # as the club does on a table's change and on a result

    # -- the evening --------------------------------------------------------------------------
    @rule(table=st.sampled_from(ALL_TABLES))
    def switched(self, table):
        m = self.model[table]
        m.online = not m.online
        if m.online:
            self.hall.take(table, "availability", b"online")
        else:
            self.hall.offline(table)
        self.dispatch()

    @rule(table=st.sampled_from(ALL_TABLES))
    def fault(self, table):
        m = self.model[table]
        m.fault = not m.fault
        self.hall.faults(table, *(["sensor-stuck"] if m.fault else []))
        self.dispatch()

    @rule(
        table=st.sampled_from(ALL_TABLES),
        pair=st.lists(st.sampled_from(NAMES + GUESTS), min_size=2, max_size=2, unique=True),
        kind=st.sampled_from(["new", "setup", "playing", "over"]),
        confirming=st.sampled_from([None, True, False]),
    )
    def casual(self, table, pair, kind, confirming):
        """A match of the club's at a table that holds no game of the tournament not played:
        set up, a breaker chosen, played, or over (its result confirmed or not)."""
        m = self.model[table]
        if m.game is not None and m.game not in self.decided():
            return
        m.kind, m.players = kind, tuple(pair)
        m.confirming = confirming if kind == "over" else None
        self.show(table)
        self.dispatch()

    @rule(data=st.data())
    def plays(self, data):
        """A table plays the game it was sent: its players start it, or it ends (A or B
        wins, its result sent, their confirmation open or not), or they confirm it."""
        decided = self.decided()
        mine = [t for t, m in self.model.items() if m.game and m.game not in decided]
        closing = [t for t, m in self.model.items() if m.kind == "over" and m.confirming]
        tables = mine + closing
        if not tables:
            return
        table = data.draw(st.sampled_from(tables))
        m = self.model[table]
        if table in closing and table not in mine:
            m.confirming = False
        elif m.kind in ("new", "setup"):
            m.kind = "playing"
        else:
            winner = data.draw(st.sampled_from("AB"))
            if winner == "B":
                m.players = m.players[::-1]  # the model's log: side A wins
            m.kind, m.confirming = "over", data.draw(st.sampled_from([None, True]))
            self.show(table)  # the table's state first, then its result
            a, b = m.players
            result = {
                "table": table,
                "finished": True,
                "assign": f"T{self.tid}-{m.game}",
                "winner": winner,
                "frames": {"A": 1, "B": 0} if winner == "A" else {"A": 0, "B": 1},
                "players": {"A": a, "B": b} if winner == "A" else {"A": b, "B": a},
            }
            assert self.runner.result(result), result
            self.dispatch()
            return
        self.show(table)
        self.dispatch()

    # -- after every step ---------------------------------------------------------------------
    @invariant()
    def no_game_waits_for_a_free_table(self):
        b = tournaments.load(self.engine, self.tid).bracket
        decided = set(b.results)
        waiting = [g.id for g in b.ready() if g.id not in self.out(decided)]
        free = [t for t in TOURNAMENT_TABLES if self.free(t, decided)]
        for game in waiting:
            if not any(self.busy(p) for p in b.sides(game)):
                assert not free, f"{game} waits while {free} are free and its players too"

    @invariant()
    def every_waiting_game_says_why(self):
        b = tournaments.load(self.engine, self.tid).bracket
        decided = set(b.results)
        waiting = [g.id for g in b.ready() if g.id not in self.out(decided)]
        said = self.runner.why()["waiting"]
        assert [w["game"] for w in said] == waiting
        for w in said:
            event(f"a game waits: {w['why']}")  # --hypothesis-show-statistics: what was seen
            assert w["why"] != "free-table" and w["text"], w
            assert (w["why"] == "player-busy") == any(self.busy(p) for p in w["players"]), w


def test_no_game_waits_for_a_free_table(tmp_path):
    Evening.engine = open_database(f"sqlite:///{tmp_path}/club.db")
    Evening.ids = {n: players.add(Evening.engine, n) for n in NAMES}
    run_state_machine_as_test(
        Evening,
        settings=settings(max_examples=EXAMPLES, stateful_step_count=40, deadline=None),
    )
