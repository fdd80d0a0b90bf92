"""UNDO takes back exactly one step (issue 19): a ball, a FOUL press, a kind step, "no foul",
a stuck beam's retract, each alone, its windows as they were, also after a restart; a FOUL
step that would end the frame waits until the stepping stops. Through the app's event path
(its queue, the loop on a ManualClock, the real panel and journal)."""

from functools import partial

import helpers
import pytest
from helpers import at
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.core.match import CANCEL, UNDO, Amend, Match
from scoreboard.core.matchlog import LogError, format_event, parse_line, replay
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Choice, Choose, NextFrame, Shot
from scoreboard.rules.fouls import FoulKind
from scoreboard.store.journal import read_journal

NAMES = '[match]\nplayer_a = "Olena"\nplayer_b = "Taras"\n'


@pytest.fixture
def table(make_app):
    def start(extra=""):
        return make_app(NAMES + extra)

    return start


# Inputs at their times (the loop's clock follows them): (snapshot, hint) after.
feed = partial(helpers.feed, start=0.0)


def journal(app):
    return [line for line in read_journal(app.storage.state_dir).lines if not line.startswith("#")]


T = 1000.0  # make_app's clock starts here


def test_the_log_words_amend_and_cancel_are_one_step_each_and_undo_brings_the_old_back():
    log = ["players A B", "break A", "shot pots=1", "amend shot pots=2", "amend shot foul=push"]
    match = replay(log)
    assert match.snapshot()["score"] == {"A": 0, "B": 1}
    assert replay([*log, "undo"]).snapshot()["score"] == {"A": 2, "B": 0}
    assert replay([*log, "undo", "undo"]).snapshot()["score"] == {"A": 1, "B": 0}
    assert replay([*log, "cancel"]).snapshot()["phase"] == "break"
    assert replay([*log, "cancel", "undo"]).snapshot()["score"] == {"A": 0, "B": 1}
    for line in ("amend shot pots=2 foul=push", "cancel"):
        assert format_event(parse_line(line)) == line
    for bad in ("amend", "amend undo", "amend amend shot", "cancel now"):
        with pytest.raises(ValueError):
            parse_line(bad)


def test_an_old_journal_of_undo_and_the_shot_again_replays_as_it_always_did():
    old = ["players A B", "break A", "shot pots=1", "undo", "shot pots=2", "shot", "undo", "undo"]
    assert replay(old).snapshot()["score"] == {"A": 0, "B": 0}  # each undo took one event
    assert replay(old).snapshot()["phase"] == "break"


def test_a_refused_amend_changes_nothing():
    match = replay(["players A B", "break A", "shot pots=1"])
    before = match.snapshot()
    with pytest.raises(LogError):
        replay(["players A B", "break A", "shot pots=1", "amend shot pots=20"])
    with pytest.raises(Exception):  # noqa: B017, PT011 - RuleError, whatever its hint
        match.apply_all([parse_line("amend shot pots=20")])
    assert match.snapshot() == before and match.steps == 3
    assert Match().last_step is None


def test_GR_22_3_undo_of_a_FOUL_press_gives_back_the_shot_with_its_balls(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), Pot(1, T + 10), Pot(2, T + 11))
    s, _ = feed(app, ButtonPress("foul", T + 12))  # both balls taken back, B +1
    assert s["score"] == {"A": 0, "B": 1}
    s, hint = feed(app, ButtonPress("undo", T + 14))
    assert s["score"] == {"A": 2, "B": 0} and s["phase"] == "play"
    assert hint == ("undone-foul-pots", (("n", 2), ("name", "Olena")))
    s, hint = feed(app, ButtonPress("undo", T + 15))  # then the ball that joined
    assert s["score"] == {"A": 1, "B": 0} and hint == ("undone-pots", (("n", 1), ("name", "Olena")))


def test_D_1_undo_of_a_FOUL_press_closes_the_penalty_balls_window_a_pot_then_scores(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), Pot(1, T + 10), ButtonPress("foul", T + 12))
    feed(app, ButtonPress("undo", T + 13))
    s, hint = feed(app, Pot(2, T + 14))  # within 5 s of the shot's ball: it joins the shot
    assert s["score"] == {"A": 2, "B": 0} and hint != "penalty-ball"


def test_undo_of_a_kind_step_goes_back_one_kind_and_the_kind_window_goes_on(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 5))  # A misses: B at the table
    feed(app, ButtonPress("foul", T + 10), ButtonPress("foul", T + 11))
    s, hint = feed(app, ButtonPress("foul", T + 12))
    assert s["foul"]["kinds"] == ["feet"] and hint == (
        "foul-kind",
        (("kind", "feet"), ("name", "Taras")),
    )
    s, hint = feed(app, ButtonPress("undo", T + 13))
    assert s["foul"]["kinds"] == ["cue-tip"] and hint == ("undone-kind", (("kind", "cue-tip"),))
    assert s["score"] == {"A": 1, "B": 0}
    s, _ = feed(app, ButtonPress("foul", T + 14.5))  # within 4 s of the cue-tip step: a step
    assert s["foul"]["kinds"] == ["feet"] and s["score"] == {"A": 1, "B": 0}


def test_undo_of_no_foul_gives_the_last_kind_back(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 5), ButtonPress("foul", T + 10))
    t = T + 10
    while True:  # step until "no foul"
        t += 0.5
        s, hint = feed(app, ButtonPress("foul", t))
        if hint == "foul-cancelled":
            break
    assert s["phase"] == "play" and s["score"] == {"A": 0, "B": 0}
    s, hint = feed(app, ButtonPress("undo", t + 0.5))
    assert s["foul"]["kinds"] == ["jumped-ball"] and s["score"] == {"A": 1, "B": 0}
    assert hint == ("undone-no-foul", (("kind", "jumped-ball"),))
    assert journal(app)[-2:] == ["cancel", "undo"]


def test_undo_after_a_restart_still_takes_back_one_step(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), Pot(1, T + 10), Pot(2, T + 11), ButtonPress("foul", T + 12))
    app.close()
    app = table()
    s, hint = feed(app, ButtonPress("undo", T + 20))
    assert s["score"] == {"A": 2, "B": 0}
    assert hint == ("undone-foul-pots", (("n", 2), ("name", "Olena")))
    s, _ = feed(app, Pot(3, T + 21))  # the windows died with the process: a new shot
    assert s["score"] == {"A": 3, "B": 0} and journal(app)[-1] == "shot pots=1"


def test_a_stuck_beams_retract_is_a_step_undo_brings_its_ball_back(table):
    app = table()
    feed(app, ButtonPress("A", T + 1))
    feed(app, Pot(3, T + 10))
    s, hint = feed(app, Pot(3, T + 10.5, retract=True))
    assert s["score"] == {"A": 0, "B": 0} and journal(app)[-1] == "cancel"
    s, hint = feed(app, ButtonPress("undo", T + 12))
    assert s["score"] == {"A": 1, "B": 0}
    assert hint == ("undone-not-a-ball", (("n", 1), ("name", "Olena")))


def on_seven(app):
    """Target 8: B on 7, A at the table."""
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 2))  # A breaks, misses
    for i in range(7):
        feed(app, Pot(1, T + 10 + 10 * i))
    s, _ = feed(app, ButtonPress("A", T + 90))  # B missed: A at the table
    assert s["score"] == {"A": 0, "B": 7} and s["striker"] == "A"


def test_FP_6_D_2_a_FOUL_that_gives_the_8th_point_waits_its_window_then_ends_the_frame(table):
    app = table("race = 2\n")
    on_seven(app)
    before = journal(app)
    s, hint = feed(app, ButtonPress("foul", T + 100))
    assert s["phase"] == "play" and s["score"] == {"A": 0, "B": 7}  # shown, not yet taken
    assert hint == (  # whose foul, whose point, and that it ends the frame (issue 34)
        "foul-ends-frame",
        (("gainer", "Taras"), ("kind", "other"), ("n", 1), ("name", "Olena"), ("score", "0:8")),
    )
    assert journal(app) == before
    s, _ = at(app, T + 103.9)
    assert s["phase"] == "play"
    s, _ = at(app, T + 104.0)  # 4 s with no FOUL press: taken
    assert s["phase"] == "frame-over" and s["score"] == {"A": 0, "B": 8}
    assert journal(app)[-1] == "shot foul=other"


def test_stepping_through_a_kind_that_would_end_the_frame_never_ends_it(table):
    app = table("race = 1\n")
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 2), ButtonPress("A", T + 3))
    for i in range(7):  # A pots seven: A on 7, at the table
        feed(app, Pot(1, T + 10 + 10 * i))
    t, shown = T + 100, []
    s, _ = feed(app, ButtonPress("foul", t))
    while True:
        t += 1.0
        s, hint = feed(app, ButtonPress("foul", t))
        shown.append((s["phase"], hint))
        if dict(hint[1])["kind"] == "double-hit":
            break
    assert {phase for phase, _ in shown} == {"foul"}  # out-of-turn passed: A never won
    ending = (("gainer", "Olena"), ("kind", "out-of-turn"), ("n", 1), ("name", "Taras"))
    assert ("foul", ("foul-ends-match", (*ending, ("score", "8:0")))) in shown
    s, _ = at(app, t + 10)
    assert s["phase"] == "foul" and s["score"] == {"A": 7, "B": 1}
    assert s["foul"]["kinds"] == ["double-hit"]


def test_another_input_takes_the_waiting_step_and_does_nothing_else(table):
    app = table("race = 2\n")
    on_seven(app)
    feed(app, ButtonPress("foul", T + 100))
    s, _ = feed(app, ButtonPress("A", T + 101))  # taken now; A is not "next frame" yet
    assert s["phase"] == "frame-over" and s["frame"] == 1 and s["score"] == {"A": 0, "B": 8}
    assert app.clock.now < T + 104


def test_a_ball_takes_the_waiting_step_and_still_counts(table):
    app = table("race = 2\n")
    on_seven(app)
    feed(app, ButtonPress("foul", T + 100))
    s, _ = feed(app, Pot(2, T + 101))  # the frame ended: a ball then changes nothing
    assert s["phase"] == "frame-over" and s["score"] == {"A": 0, "B": 8}


def test_undo_takes_back_the_waiting_step_nothing_was_taken(table):
    app = table("race = 2\n")
    on_seven(app)
    before = journal(app)
    feed(app, ButtonPress("foul", T + 100))
    s, hint = feed(app, ButtonPress("undo", T + 101))
    assert hint == ("undone-foul", (("name", "Olena"),)) and journal(app) == before
    s, _ = at(app, T + 200)
    assert s["phase"] == "play" and s["score"] == {"A": 0, "B": 7}


def test_GR_13_1_a_foul_on_the_opening_break_starts_as_illegal_break(table):
    app = table()
    s, _ = feed(app, ButtonPress("A", T + 1), ButtonPress("foul", T + 5))
    assert s["phase"] == "break-foul" and s["foul"]["kinds"] == ["illegal-break"]
    s, _ = feed(app, ButtonPress("foul", T + 6))
    assert s["foul"]["kinds"] == ["other"]


def test_FP_7_the_lapse_is_a_step_undo_gives_the_point_back(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), ButtonPress("B", T + 5), ButtonPress("foul", T + 10))
    feed(app, ButtonPress("A", T + 20), ButtonPress("B", T + 40))  # A plays, misses
    s, _ = feed(app, ButtonHold("foul", T + 50))
    assert s["score"] == {"A": 0, "B": 0}
    s, hint = feed(app, ButtonPress("undo", T + 51))
    assert s["score"] == {"A": 1, "B": 0} and hint == "undone-lapse"


def test_D_1_no_foul_opens_no_penalty_balls_window_the_next_ball_scores(table):
    app = table()
    feed(app, ButtonPress("A", T + 1), Pot(1, T + 10), ButtonPress("B", T + 20))  # A: 1, misses
    feed(app, ButtonPress("foul", T + 30))  # B fouls: A +1
    t = T + 30
    while True:  # the FOUL was a mistake: step to "no foul"
        t += 0.5
        s, hint = feed(app, ButtonPress("foul", t))
        if hint == "foul-cancelled":
            break
    s, hint = feed(app, Pot(2, t + 1))  # B's next ball: nobody chose, it is no penalty ball
    assert s["score"] == {"A": 1, "B": 1} and hint != "penalty-ball"


LEGAL_SHOTS = st.builds(
    Shot,
    pots=st.integers(0, 3),
    fouls=st.sampled_from([(), (FoulKind.OTHER,), (FoulKind.PUSH,), (FoulKind.OUT_OF_TURN,)]),
)
ITEMS = st.one_of(
    LEGAL_SHOTS,
    st.builds(Choose, st.sampled_from(list(Choice))),
    st.just(NextFrame()),
    st.builds(Amend, LEGAL_SHOTS),
    st.just(CANCEL),
    st.just(UNDO),
)


@settings(max_examples=120)
@given(st.lists(st.lists(ITEMS, min_size=1, max_size=2), max_size=80))
def test_undo_gives_back_exactly_the_state_before_each_step_and_a_replay_agrees(records):
    """Whatever steps a match takes, one or two a record (past its saved states every 32
    events too), UNDO gives back the state before the last one not yet taken back, a record
    refused changes nothing, and the log replays to the same state, its steps included."""
    settings_ = [parse_line(line) for line in ("players A B", "race 3", "target 3", "break A")]
    log, match = [], Match()
    before: list[dict] = []  # the state before each step not taken back
    for record in [[item] for item in settings_] + records:
        state, steps = match.snapshot(), match.steps
        try:
            match.apply_all(record)
        except RuleError:
            assert match.snapshot() == state and match.steps == steps  # refused: nothing
            continue
        one_by_one = replay(log)
        for item in record:
            if item is UNDO:
                before.pop()
            else:
                before.append(one_by_one.snapshot())
            one_by_one.apply_all([item])
        log += [format_event(item) for item in record]
        again = replay(log)
        assert again.snapshot() == match.snapshot() == one_by_one.snapshot()
        assert again.steps == match.steps == len(before)
    while before:  # and UNDO all the way back, one state at a time
        match.apply_all([UNDO])
        assert match.snapshot() == before.pop()
