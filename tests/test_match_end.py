"""The end of a frame and of a match belongs to the players (issue 34), through the table's own
path (the App, its queue, filters, panel, journal and screens, simulated time):

- GR-22.3: FOUL within the shot's window after the ball that ended a frame or the match takes
  that stroke back as a foul, exactly as during play; after the window it changes nothing;
- the players confirm the result, each with his own button; until both have, corrections
  work as in play; a closed result is final at the table; unconfirmed, it times out;
- FOUL after a match turns the statistics pages and never starts a match from the setup.
"""

import pytest
from helpers import at, feed

from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.matchlog import replay
from scoreboard.display.screens.between_frames import PAGES
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import read_journal
from scoreboard.table.open_shot import foul_kinds_to_step

T0 = 1000.0  # the tests' clock starts here (conftest's ManualClock): times below count from it
NAMES = '[match]\nplayer_a = "Olena"\nplayer_b = "Taras"\n'


@pytest.fixture
def table(make_app):
    def start(race=1, extra=""):
        return make_app(f"{NAMES}race = {race}\n{extra}")

    return start


def go(app, *events):
    """`events` on the table's queue, their times counted from T0, the clock following."""
    return feed(app, *events, start=T0)


def when(app, t):
    """Simulated time passes to T0 + `t`: the timers due run."""
    return at(app, t, start=T0)


def eight_to_nothing(app, *, last=16.0):
    """The issue's sequence: `a`, balls 1 2 3 4, 6 s, 5 6 1, 6 s, 2 (the 8th point)."""
    go(app, ButtonPress("A", 1.0))
    for i, pocket in enumerate((1, 2, 3, 4)):
        go(app, Pot(pocket, 2.0 + i * 0.1))
    for i, pocket in enumerate((5, 6, 1)):
        go(app, Pot(pocket, 9.0 + i * 0.1))
    return go(app, Pot(2, last))


def journal_state(app):
    lines = read_journal(app.storage.state_dir).lines
    return replay(lines).snapshot(), confirmation_of(lines)


# -- GR-22.3: a foul on the shot that wins the frame -------------------------------------------
@pytest.mark.parametrize("race", [1, 2])
def test_GR_22_3_foul_within_the_window_after_the_winning_ball_takes_that_stroke_back(table, race):
    app = table(race)
    s, _ = eight_to_nothing(app)
    assert s["phase"] == ("match-over" if race == 1 else "frame-over")
    assert s["score"] == {"A": 8, "B": 0}
    s, _ = go(app, ButtonPress("foul", 17.0))  # 1 s later: that stroke was a foul
    assert s["phase"] == "foul" and s["score"] == {"A": 7, "B": 1}
    assert s["foul"]["offender"] == "A" and s["foul"]["to_spot"] == 1  # the 8th ball spotted
    assert s["frames"] == {"A": 0, "B": 0} and s["winner"] is None
    assert journal_state(app)[0]["score"] == {"A": 7, "B": 1}  # durable as shown


def test_GR_22_3_the_same_state_as_that_stroke_fouled_during_play(table):
    app = table(2)
    eight_to_nothing(app)
    s, _ = go(app, ButtonPress("foul", 17.0))
    # The same strokes with the last one fouled while the frame was still on (a replay of the
    # rules alone): the table's late FOUL must come to exactly that.
    during = replay(
        "players Olena Taras\nrace 2\nbreak A\nshot pots=4\nshot pots=3\n"
        "shot pots=1 foul=other\n".splitlines()
    ).snapshot()
    for key in ("phase", "score", "frames", "striker", "decider", "foul", "balls_on_table"):
        assert s[key] == during[key], key


def test_GR_22_3_foul_after_the_window_changes_nothing_and_turns_the_page(table):
    app = table(2)
    eight_to_nothing(app)
    s, _ = go(app, ButtonPress("foul", 16.0 + 5.5))  # past the 5 s shot window
    assert s["phase"] == "frame-over" and s["score"] == {"A": 8, "B": 0}
    assert s["page"] == "frames"  # it turned a statistics page, nothing else


def test_GR_22_3_the_late_foul_steps_kinds_and_no_foul_puts_the_win_back(table):
    app = table(2)
    eight_to_nothing(app)
    go(app, ButtonPress("foul", 17.0))
    s, hint = go(app, ButtonPress("foul", 18.0))  # a kind step: the same foul
    assert s["score"] == {"A": 7, "B": 1} and hint[0] == "foul-kind"
    t = 18.0
    for _ in range(len(foul_kinds_to_step(False)) - 3):  # the first two were 17 s and 18 s
        t += 0.5
        s, hint = go(app, ButtonPress("foul", t))
        assert s["score"] == {"A": 7, "B": 1} and s["phase"] == "foul"
    s, hint = go(app, ButtonPress("foul", t + 0.5))  # "no foul": it would end the frame again
    assert hint[0] == "no-foul-ends-frame" and s["score"] == {"A": 7, "B": 1}  # waits
    s, _ = when(app, t + 0.5 + 4.5)  # taken where the stepping stops: the frame won again
    assert s["phase"] == "frame-over" and s["score"] == {"A": 8, "B": 0}


def test_GR_22_3_undo_of_the_late_foul_gives_the_frame_back(table):
    app = table(2)
    eight_to_nothing(app)
    go(app, ButtonPress("foul", 17.0))
    s, _ = go(app, ButtonPress("undo", 30.0))
    assert s["phase"] == "frame-over" and s["score"] == {"A": 8, "B": 0}


def test_GR_22_3_D_2_the_late_foul_penalty_point_can_end_the_frame_for_the_other(table):
    app = table(1)
    go(app, ButtonPress("A", 1.0))
    for i in range(7):  # A pots seven, one a stroke
        go(app, Pot(1 + i % 6, 2.0 + i * 6))
    go(app, ButtonPress("B", 50.0))  # A misses: B at the table
    for i in range(7):
        go(app, Pot(1 + i % 6, 55.0 + i * 6))  # B pots seven: 7:7 (past the miss window)
    go(app, ButtonPress("A", 100.0))  # B misses
    s, _ = go(app, Pot(3, 105.0))  # A's 8th: match over
    assert s["phase"] == "match-over" and s["winner"] == "A"
    s, hint = go(app, ButtonPress("foul", 106.0))  # his stroke was a foul: B gets the 8th
    assert s["score"] == {"A": 8, "B": 7} and hint[0].startswith("foul-ends")  # it waits
    s, _ = when(app, 106.0 + 4.5)  # the kind's window passes: taken
    assert s["phase"] == "match-over" and s["winner"] == "B" and s["score"] == {"A": 7, "B": 8}


# -- the players confirm the result ----------------------------------------------------------
def test_the_result_waits_for_both_players_and_each_press_is_journaled(table):
    app = table()
    s, _ = eight_to_nothing(app)
    assert s["confirmation"] == {"A": False, "B": False, "closed": None}
    s, hint = go(app, ButtonPress("B", 40.0))
    assert s["confirmation"] == {"A": False, "B": True, "closed": None}
    assert hint == ("confirmed-by", (("name", "Taras"),))
    assert journal_state(app)[1].B  # durable before shown
    s, hint = go(app, ButtonPress("B", 41.0))  # again: the other is awaited
    assert hint == ("confirm-waits", (("name", "Olena"),))
    s, hint = go(app, ButtonPress("A", 45.0))
    assert s["confirmation"]["closed"] == "confirmed" and hint == "result-confirmed"
    assert journal_state(app)[1].closed == "confirmed"
    assert "setup" not in s  # confirming never opens the setup


def test_a_correction_before_both_confirmed_asks_them_again(table):
    app = table()
    eight_to_nothing(app)
    go(app, ButtonPress("A", 20.0))
    s, _ = go(app, ButtonPress("undo", 21.0))  # the last ball was not his after all
    assert s["phase"] == "play" and s["score"] == {"A": 7, "B": 0}
    s, _ = go(app, Pot(4, 30.0))
    assert s["phase"] == "match-over"
    assert s["confirmation"] == {"A": False, "B": False, "closed": None}


def test_a_confirmed_result_never_changes_at_the_table(table):
    app = table()
    eight_to_nothing(app)
    go(app, ButtonPress("A", 16.5), ButtonPress("B", 17.5))  # both, within the shot window
    for event in (
        ButtonPress("foul", 18.0),  # inside the stroke's window: too late, it is final
        ButtonPress("undo", 19.0),
        Pot(5, 19.5),
        ButtonHold("foul", 20.0),
    ):
        s, hint = go(app, event)
        assert s["score"] == {"A": 8, "B": 0} and s["winner"] == "A"
    assert journal_state(app)[0]["score"] == {"A": 8, "B": 0}
    assert journal_state(app)[1].closed == "confirmed"


def test_an_unconfirmed_result_times_out_and_frees_the_table(table):
    app = table(extra="[timings]\nconfirm_result = 60.0\n")
    eight_to_nothing(app)
    go(app, ButtonPress("A", 20.0))
    s, _ = when(app, 16.0 + 59.0)
    assert s["confirmation"]["closed"] is None
    s, _ = when(app, 16.0 + 61.0)
    assert s["confirmation"] == {"A": True, "B": False, "closed": "timed-out"}
    assert journal_state(app)[1].closed == "timed-out"


def test_the_time_to_confirm_starts_again_after_a_restart(table, make_app):
    app = table(extra="[timings]\nconfirm_result = 60.0\n")
    eight_to_nothing(app)
    app.close()
    again = table(extra="[timings]\nconfirm_result = 60.0\n")
    s, _ = when(again, 30.0)
    assert s["confirmation"]["closed"] is None
    s, _ = go(again, ButtonPress("A", 31.0), ButtonPress("B", 32.0))
    assert s["confirmation"]["closed"] == "confirmed"


# -- FOUL after a match: the pages, never a started match -------------------------------------
def test_FOUL_after_a_match_turns_the_pages_and_never_starts_a_match(table):
    app = table()
    eight_to_nothing(app)
    t = 30.0
    for _ in range(5):  # each press the next page, round again; never the setup
        page = when(app, t)[0].get("page")  # as it turned by time until the press
        s, _ = go(app, ButtonPress("foul", t))
        assert s.get("page") == PAGES[(PAGES.index(page) + 1) % len(PAGES)]
        assert "setup" not in s
        t += 1.0
    go(app, ButtonPress("A", t), ButtonPress("B", t + 1))  # confirmed
    for _ in range(3):
        t += 1.0
        s, _ = go(app, ButtonPress("foul", t))
        assert "setup" not in s and s["phase"] == "match-over"


def test_a_press_the_moment_the_setup_opens_by_itself_does_nothing(table):
    app = table()
    eight_to_nothing(app)
    go(app, ButtonPress("A", 20.0), ButtonPress("B", 21.0))
    s, _ = when(app, 21.0 + 60.0)  # the result shown, the setup opens by itself
    assert "setup" in s
    s, _ = go(app, ButtonPress("foul", 21.0 + 60.5))  # meant for the page it covered
    assert "setup" in s and s["phase"] == "match-over"  # not started


def test_the_setup_never_opens_over_a_later_match_s_open_result(table):
    """The setup's timer after a closed result belongs to that match: a rematch that ended
    with as many events before it fired keeps asking its players to confirm."""
    app = table()
    eight_to_nothing(app)
    go(app, ButtonPress("A", 17.0), ButtonPress("B", 17.6))  # closed: the setup's timer runs
    go(app, ButtonPress("A", 18.2))  # A opens the setup at once
    s, _ = go(app, ButtonPress("foul", 19.0))  # Start: the rematch
    assert s["phase"] == "lag"
    go(app, ButtonPress("A", 21.0))  # the same course as the first match, 20 s later
    for i, pocket in enumerate((1, 2, 3, 4)):
        go(app, Pot(pocket, 22.0 + i * 0.1))
    for i, pocket in enumerate((5, 6, 1)):
        go(app, Pot(pocket, 29.0 + i * 0.1))
    s, _ = go(app, Pot(2, 36.0))
    assert s["phase"] == "match-over" and s["confirmation"]["closed"] is None
    s, _ = when(app, 17.6 + 40.0)  # the first match's timer has fired by now
    assert "setup" not in s
    s, _ = go(app, ButtonPress("A", 58.0), ButtonPress("B", 59.0))
    assert s["confirmation"]["closed"] == "confirmed"
