"""Issue 19: the gesture that pairs a phone is never the one that takes a point back. Through
the app's event path (its queue, the loop on a ManualClock, the real panel and journal):
FOUL held is the lapse (FP-7 note, D-1) or, with no penalty point, only a hint; pairing is
UNDO held, then FOUL pressed to its question, and changes nothing in any phase."""

import pytest
from helpers import feed

from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import list_archive


class NetProcess:
    """Stands where the bridge stands among the app's observers: it hears the ask."""

    def __init__(self):
        self.asked = 0

    def pairing_asked(self):
        self.asked += 1

    def written(self, lines, first):
        pass

    def shown(self, shown):
        pass


@pytest.fixture
def table(make_app):
    def start(race=2, more=""):
        app = make_app(f'[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = {race}\n{more}')
        app.net = NetProcess()
        app.watch(app.net)
        return app

    return start


def eight_balls(t):
    """A's break pots the frame's eight points, balls close together: one shot."""
    return [Pot(1 + i % 6, t + 0.5 * i) for i in range(8)]


# Each phase the README's table names, reached by presses and balls at the table.
PHASES = {
    "lag": (2, []),
    "break": (2, [ButtonPress("A", 1.0)]),
    "play": (2, [ButtonPress("A", 1.0), ButtonPress("B", 10.0)]),
    "foul": (2, [ButtonPress("A", 1.0), ButtonPress("B", 10.0), ButtonPress("foul", 20.0)]),
    "break-foul": (2, [ButtonPress("A", 1.0), ButtonPress("foul", 2.0)]),
    "frame-over": (2, [ButtonPress("A", 1.0), *eight_balls(2.0)]),
    "match-over": (1, [ButtonPress("A", 1.0), *eight_balls(2.0)]),
}


def in_phase(table, phase):
    race, events = PHASES[phase]
    app = table(race)
    feed(app, *events)
    assert app.match.phase == phase
    return app


def everything(app):
    """What a press may change: the picture's state (the setup screen and the page between
    frames too) and the journal."""
    return app.shown.snapshot, list(app.storage.lines), app.desk.is_open


def foul_then_choice(app):
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))  # A breaks and misses; B plays
    feed(app, ButtonPress("foul", 20.0))  # B fouls: Олена gets the penalty ball (FP-6/FP-7)
    s, _ = feed(app, ButtonPress("A", 30.0))  # GR-7.4: she shoots herself, the ball not taken
    assert s["phase"] == "play" and s["score"] == {"A": 1, "B": 0}


# -- FOUL held ----------------------------------------------------------------------------------
def test_FP_7_D_1_FOUL_held_after_a_foul_takes_the_point_back_and_never_asks_for_a_code(table):
    app = table()
    foul_then_choice(app)
    s, hint = feed(app, ButtonHold("foul", 40.0))  # FP-7 note: the ball was never taken
    assert s["score"] == {"A": 0, "B": 0} and s["foul"]["lapsed"]
    assert hint == ("lapsed", (("name", "Олена"),)) and app.net.asked == 0
    before = everything(app)
    s, hint = feed(app, ButtonHold("foul", 50.0))  # held again: nothing left to take back
    assert hint == "no-lapse" and app.net.asked == 0 and everything(app) == before


def test_FP_7_D_1_pairing_after_a_foul_keeps_the_penalty_point(table):
    """The issue's user: after a foul, pairs a phone as /pair says, and loses no point."""
    app = table()
    foul_then_choice(app)
    before = everything(app)
    feed(app, ButtonHold("undo", 40.0))
    s, hint = feed(app, ButtonPress("foul", 41.0))
    assert app.net.asked == 1 and hint == "phone-code-asked"
    assert s["score"] == {"A": 1, "B": 0} and not s["foul"]["lapsed"]
    assert everything(app) == before


@pytest.mark.parametrize("phase", ["break", "play", "frame-over", "match-over"])
def test_FP_7_FOUL_held_with_no_penalty_point_changes_nothing_and_asks_for_no_code(table, phase):
    app = in_phase(table, phase)
    before = everything(app)
    s, hint = feed(app, ButtonHold("foul", 100.0))
    assert hint == "no-lapse" and app.net.asked == 0 and everything(app) == before


def test_FOUL_held_in_the_lag_opens_the_setup_screen_and_asks_for_no_code(table):
    app = table()
    lines = list(app.storage.lines)
    feed(app, ButtonHold("foul", 1.0))
    assert app.desk.is_open and app.net.asked == 0 and app.storage.lines == lines


# -- UNDO held: "UNDO: new match, FOUL: pair a phone" -------------------------------------------
@pytest.mark.parametrize("phase", PHASES)
def test_UNDO_held_then_FOUL_asks_for_a_code_and_changes_nothing_in_every_phase(table, phase):
    app = in_phase(table, phase)
    before = everything(app)
    s, hint = feed(app, ButtonHold("undo", 100.0))
    assert hint == "confirm-new-match" and everything(app)[1:] == before[1:]
    s, hint = feed(app, ButtonPress("foul", 104.0))  # no page turned, no setup, no foul
    assert app.net.asked == 1 and hint == "phone-code-asked"
    assert everything(app) == before and list_archive(app.storage.state_dir) == []


def test_FOUL_pressed_after_the_questions_5_s_is_a_foul_again(table):
    app = in_phase(table, "play")
    feed(app, ButtonHold("undo", 100.0))
    s, _ = feed(app, ButtonPress("foul", 105.5))
    assert app.net.asked == 0 and s["phase"] == "foul"


@pytest.mark.parametrize("phase", ["play", "frame-over", "match-over"])
def test_UNDO_held_then_UNDO_is_still_the_new_match(table, phase):
    app = in_phase(table, phase)
    feed(app, ButtonHold("undo", 100.0))
    s, hint = feed(app, ButtonPress("undo", 101.0))
    assert s["phase"] == "lag" and s["score"] == {"A": 0, "B": 0} and hint is None
    assert len(list_archive(app.storage.state_dir)) == 1 and app.net.asked == 0


@pytest.mark.parametrize("button", ["A", "B", "A+", "foul+"])
@pytest.mark.parametrize("phase", ["break", "play", "foul", "frame-over", "match-over"])
def test_UNDO_held_then_another_button_drops_the_question_and_does_nothing(table, phase, button):
    app = in_phase(table, phase)
    before = everything(app)
    feed(app, ButtonHold("undo", 100.0))
    held = button.endswith("+")
    event = (ButtonHold if held else ButtonPress)(button.rstrip("+"), 101.0)
    s, hint = feed(app, event)
    assert hint is None and app.net.asked == 0 and everything(app) == before
    s, hint = feed(app, ButtonPress("undo", 102.0))  # the question is gone: an ordinary UNDO
    assert list_archive(app.storage.state_dir) == []


def test_a_ball_while_the_question_shows_counts_and_drops_it(table):
    app = in_phase(table, "break")
    feed(app, ButtonHold("undo", 100.0))
    s, _ = feed(app, Pot(3, 101.0))
    assert s["score"] == {"A": 1, "B": 0}
    feed(app, ButtonPress("foul", 102.0))  # a foul on that shot now, not a phone
    assert app.net.asked == 0 and app.match.snapshot()["score"] == {"A": 0, "B": 1}


def test_the_strikers_own_press_to_the_question_is_no_shot_clock_extension(table):
    app = table(more="[shot_clock]\nseconds = 60.0\nextension = 30.0\n")
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))  # B at the table, his clock runs
    before = everything(app)
    feed(app, ButtonHold("undo", 20.0))
    s, hint = feed(app, ButtonPress("B", 21.0))
    assert hint is None and everything(app) == before
    s, hint = feed(app, ButtonPress("B", 30.0))  # the question gone: his extension
    assert hint == ("extension", (("name", "Тарас"),))


def test_a_setup_screen_that_opened_by_itself_over_the_question_closes_for_its_answer(table):
    app = in_phase(table, "match-over")
    feed(app, ButtonPress("A", 98.0), ButtonPress("B", 99.0))  # the result confirmed (issue 34)
    feed(app, ButtonHold("undo", 100.0))
    app.clock.advance(
        app.setup.result_seconds
    )  # the result shown: the setup screen opens by itself
    app.loop.run_pending()
    assert app.desk.is_open
    s, hint = feed(app, ButtonPress("foul", 101.0))
    assert app.net.asked == 1 and not app.desk.is_open and s["phase"] == "match-over"


def test_the_question_undo_held_asks_shows_as_long_as_it_is_asked(make_app):
    """README: the display asks *UNDO new, FOUL phone* for 5 s. Its words went at 4 s, so an
    UNDO pressed in the fifth second, on a screen that asked nothing, began a new match."""
    from test_undo_steps import T, at, feed

    app = make_app()
    feed(app, ButtonHold("undo", T + 1))
    assert at(app, T + 5.9)[1] == "confirm-new-match"  # still asked: UNDO now is a new match
    assert at(app, T + 6.1)[1] is None  # no longer: UNDO now takes back a step
