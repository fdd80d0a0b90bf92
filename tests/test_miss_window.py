"""A ball still rolling after a miss press (issue 34, docs/decisions.md "A ball still rolling
after a miss"): a stroke ends only when every ball has stopped (GR-15.1), so a ball sensed
within `[timings] miss_ball_window` (3 s) after the opponent pressed "miss" (GR-7.2) fell on
the striker's stroke: his point (FP-5.5, FP-6), and he plays on (GR-7.1, FP-5.2). FOUL within
that window is about that stroke (GR-22.3). Through the app's event path (its queue, the real
panel and journal, the loop on a ManualClock), both sides of the window, UNDO after each."""

from functools import partial

import helpers
import pytest

from scoreboard import config as configuration
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import read_journal

NAMES = '[match]\nplayer_a = "Olena"\nplayer_b = "Taras"\n'
T = 1000.0  # make_app's clock starts here
WINDOW = 3.0  # the default miss_ball_window
EPS = 0.01
feed = partial(helpers.feed, start=0.0)


@pytest.fixture
def table(make_app):
    def start(extra=""):
        return make_app(NAMES + extra)

    return start


def journal(app):
    return [line for line in read_journal(app.storage.state_dir).lines if not line.startswith("#")]


def taras_misses(app, *, pots=0):
    """Olena breaks and misses; Taras pots `pots` and misses: Olena presses "miss" at MISS."""
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 10))
    for i in range(pots):
        feed(app, Pot(1, T + 20 + 10 * i))
    s, hint = feed(app, ButtonPress("A", MISS))
    assert s["striker"] == "A" and s["score"] == {"A": 0, "B": pots}
    assert hint is None and journal(app)[-1] == "shot"
    return s


MISS = T + 100.0


def test_GR_15_1_a_ball_just_inside_the_miss_window_is_the_strikers_and_he_plays_on(table):
    app = table()
    miss = taras_misses(app)
    s, hint = feed(app, Pot(2, MISS + WINDOW - EPS))
    assert s["score"] == {"A": 0, "B": 1} and s["striker"] == "B"  # FP-5.5, GR-7.1
    assert hint == ("miss-ball", (("name", "Taras"),))
    assert journal(app)[-2:] == ["shot", "amend shot pots=1"]  # the miss became that shot
    s, hint = feed(app, ButtonPress("undo", MISS + WINDOW))  # one step: the miss again
    assert s == miss and hint == ("undone-pots", (("n", 1), ("name", "Taras")))
    # UNDO put the window back as it was: a ball after it is Olena's own, a shot of hers
    s, hint = feed(app, Pot(3, MISS + WINDOW + EPS))
    assert s["score"] == {"A": 1, "B": 0} and s["striker"] == "A"
    assert journal(app)[-1] == "shot pots=1"


def test_GR_15_1_a_ball_just_after_the_miss_window_is_the_new_strikers(table):
    app = table()
    miss = taras_misses(app)
    s, hint = feed(app, Pot(2, MISS + WINDOW + EPS))
    assert s["score"] == {"A": 1, "B": 0} and s["striker"] == "A" and hint is None
    assert journal(app)[-2:] == ["shot", "shot pots=1"]  # a shot of Olena's
    s, hint = feed(app, ButtonPress("undo", MISS + WINDOW + 1))
    assert s == miss and hint == ("undone-pots", (("n", 1), ("name", "Olena")))


def test_undo_inside_the_window_puts_the_window_back_the_ball_joins_the_miss_again(table):
    app = table()
    taras_misses(app)
    feed(app, Pot(2, MISS + 1.0), ButtonPress("undo", MISS + 1.5))
    s, _ = feed(app, Pot(2, MISS + 2.0))  # within the miss's 3 s: Taras's again
    assert s["score"] == {"A": 0, "B": 1} and s["striker"] == "B"
    s, _ = feed(app, Pot(4, MISS + 6.0))  # a second ball within 5 s of it: the same shot
    assert s["score"] == {"A": 0, "B": 2} and journal(app)[-1] == "amend shot pots=2"


def test_undo_of_the_miss_itself_puts_back_the_state_and_windows_before_it(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 10))  # Olena misses the break
    s, _ = feed(app, ButtonPress("A", MISS), ButtonPress("undo", MISS + 1))
    assert s["striker"] == "B" and journal(app)[-2:] == ["shot", "undo"]
    s, _ = feed(app, Pot(2, MISS + 2))  # no miss now: Taras's own shot, as before the press
    assert s["score"] == {"A": 0, "B": 1} and journal(app)[-1] == "shot pots=1"


def test_D_2_a_ball_in_the_miss_window_that_is_the_strikers_eighth_ends_the_frame(table):
    app = table("race = 2\n")
    miss = taras_misses(app, pots=7)
    s, _ = feed(app, Pot(5, MISS + 1.0))
    assert s["phase"] == "frame-over" and s["frame_winner"] == "B"
    assert s["score"] == {"A": 0, "B": 8} and s["frames"] == {"A": 0, "B": 1}
    s, _ = feed(app, ButtonPress("undo", MISS + 2.0))
    assert s == miss


def test_GR_22_3_FOUL_within_the_miss_window_is_the_missed_strokes_foul(table):
    app = table()
    miss = taras_misses(app)
    s, hint = feed(app, ButtonPress("foul", MISS + WINDOW - EPS))
    assert s["phase"] == "foul" and s["foul"]["offender"] == "B"  # Taras's stroke
    assert s["score"] == {"A": 1, "B": 0} and s["decider"] == "A"  # FP-6, GR-7.4
    assert journal(app)[-1] == "amend shot foul=other"  # the miss became that foul
    s, hint = feed(app, ButtonPress("undo", MISS + WINDOW + 1))
    assert s == miss and hint == ("undone-foul", (("name", "Taras"),))


def test_FOUL_after_the_miss_window_is_the_new_strikers_foul(table):
    app = table()
    miss = taras_misses(app)
    s, _ = feed(app, ButtonPress("foul", MISS + WINDOW + EPS))
    assert s["phase"] == "foul" and s["foul"]["offender"] == "A"
    assert s["score"] == {"A": 0, "B": 1} and journal(app)[-2:] == ["shot", "shot foul=other"]
    s, _ = feed(app, ButtonPress("undo", MISS + WINDOW + 1))
    assert s == miss


def test_no_foul_after_a_FOUL_on_the_missed_stroke_puts_the_miss_back(table):
    app = table()
    miss = taras_misses(app)
    t = MISS + 1.0
    s, hint = feed(app, ButtonPress("foul", t))
    while hint != "foul-cancelled":  # step through every kind to "no foul"
        t += 0.5
        s, hint = feed(app, ButtonPress("foul", t))
    assert s == miss and journal(app)[-1] == "amend shot"


def test_D_1_a_ball_after_FOUL_on_the_missed_stroke_is_the_penalty_ball_not_a_point(table):
    """The penalty ball's rule takes precedence: the choice is pending (GR-7.4), so a ball
    sensed then, still within the miss window, is the penalty ball (D-1)."""
    app = table()
    taras_misses(app)
    feed(app, ButtonPress("foul", MISS + 0.5))
    s, hint = feed(app, Pot(3, MISS + 1.0))
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": 0} and hint == "penalty-ball"


def test_a_ball_held_in_by_hand_in_the_miss_window_is_the_new_strikers(table):
    """A ball entered by hand is the holder's (README): Olena, now at the table."""
    app = table()
    taras_misses(app)
    s, _ = feed(app, ButtonHold("A", MISS + 1.0))
    assert s["score"] == {"A": 1, "B": 0} and s["striker"] == "A"
    s, hint = feed(app, ButtonHold("B", MISS + 1.5))  # Taras holds: not his turn
    assert s["score"] == {"A": 1, "B": 0} and hint == "not-your-turn"


def test_GR_13_1_a_ball_in_the_window_after_a_missed_break_makes_it_a_legal_break_with_a_pot(
    table,
):
    app = table()
    feed(app, ButtonPress("A", T + 1))  # Olena breaks
    feed(app, ButtonPress("B", MISS))  # Taras presses: nothing fell
    s, _ = feed(app, Pot(1, MISS + 1.0))
    assert s["phase"] == "play" and s["striker"] == "A" and s["score"] == {"A": 1, "B": 0}
    feed(app, ButtonPress("undo", MISS + 2.0))
    s, _ = feed(app, ButtonPress("foul", MISS + 2.5))  # FOUL on the missed break: GR-13.1
    assert s["phase"] == "break-foul" and s["foul"]["kinds"] == ["illegal-break"]


def test_a_stuck_beams_retract_of_the_ball_that_joined_the_miss_gives_the_miss_back(table):
    app = table()
    miss = taras_misses(app)
    feed(app, Pot(3, MISS + 1.0))
    s, hint = feed(app, Pot(3, MISS + 1.5, retract=True))  # that "ball" was a stuck beam
    assert s == miss and hint == ("not-a-ball", (("pocket", 3),))
    assert journal(app)[-1] == "amend shot"


def test_the_miss_window_is_the_configured_one(table):
    app = table("[timings]\nmiss_ball_window = 4.5\n")
    taras_misses(app)
    s, _ = feed(app, Pot(2, MISS + 4.0))  # outside the default 3 s, inside the 4.5 s
    assert s["score"] == {"A": 0, "B": 1} and s["striker"] == "B"


def test_miss_ball_window_0_turns_it_off(table):
    app = table("[timings]\nmiss_ball_window = 0\n")
    taras_misses(app)
    s, _ = feed(app, Pot(2, MISS + 0.1))
    assert s["score"] == {"A": 1, "B": 0} and s["striker"] == "A"
    s, _ = feed(app, ButtonPress("undo", MISS + 0.5), ButtonPress("foul", MISS + 0.6))
    assert s["foul"]["offender"] == "A"  # FOUL then is the new striker's too


def test_a_reloaded_config_changes_the_miss_window(table):
    app = table()
    app.reconfigure(configuration.loads(NAMES + "[timings]\nmiss_ball_window = 1.0\n"))
    taras_misses(app)
    s, _ = feed(app, Pot(2, MISS + 2.0))  # inside the default 3 s, outside the new 1 s
    assert s["score"] == {"A": 1, "B": 0} and s["striker"] == "A"
