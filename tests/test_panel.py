"""The panel: what each button and pocket sensor means in each phase (issue 3), with simulated time."""

import pytest

from scoreboard.core.match import UNDO, Match
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.rules.errors import RuleError
from scoreboard.table.open_shot import foul_kinds_to_step
from scoreboard.table.outcome import Outcome
from scoreboard.table.panel import Panel


class Table:
    """A panel over a match, driven the way the app drives it (apply all or nothing)."""

    def __init__(self, **timings):
        self.match = Match()
        self.panel = Panel(self.match, **timings)
        self.hints = []

    def feed(self, event):
        outcome = self.panel.handle(event)
        if outcome.hint:
            self.hints.append(outcome.hint)
        if outcome.items:
            try:
                self.match.apply_all(list(outcome.items))
            except RuleError as exc:
                self.hints.append(str(exc))
                return outcome
            self.panel.applied(outcome)
        return outcome

    def press(self, button, t):
        return self.feed(ButtonPress(button=button, t=t))

    def hold(self, button, t):
        return self.feed(ButtonHold(button=button, t=t))

    def pot(self, t, pocket=1):
        return self.feed(Pot(pocket=pocket, t=t))

    @property
    def s(self):
        return self.match.snapshot()


@pytest.fixture
def table():
    t = Table()
    t.press("A", 0.0)  # lag: A breaks (GR-8.4)
    return t


def test_GR_8_4_lag_the_player_who_presses_breaks(table):
    assert table.s["phase"] == "break" and table.s["breaker"] == "A"


def test_GR_7_2_the_player_not_at_the_table_presses_turn_passes(table):
    table.press("B", 10.0)
    assert table.s["phase"] == "play" and table.s["striker"] == "B"


def test_striker_pressing_his_own_button_is_a_hint_not_an_event(table):
    table.press("A", 10.0)
    assert table.s["events"] == 1 and table.hints == ["hold-to-pot"]


def test_holding_the_strikers_button_enters_a_ball_by_hand(table):
    table.hold("A", 10.0)
    assert table.s["score"] == {"A": 1, "B": 0} and table.s["striker"] == "A"


def test_pots_close_together_are_one_shot_a_pause_starts_a_new_one(table):
    table.pot(10.0)
    table.pot(11.0, pocket=3)
    table.pot(14.0, pocket=2)
    assert table.match.events[-1].pots == 3 and len(table.match.events) == 2
    table.pot(25.0)
    assert [e.pots for e in table.match.events[1:]] == [3, 1]
    assert table.s["score"]["A"] == 4


def test_GR_22_3_foul_takes_back_the_balls_of_its_own_shot_only(table):
    table.pot(10.0)
    table.pot(30.0)
    table.pot(31.0)
    table.press("foul", 33.0)
    s = table.s
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": 1}
    assert s["foul"]["to_spot"] == 2 and s["foul"]["kinds"] == ["other"]


def test_foul_presses_step_the_kind_never_a_second_penalty(table):
    table.press("B", 5.0)  # B at the table
    table.press("foul", 20.0)
    table.press("foul", 21.0)
    table.press("foul", 22.5)
    s = table.s
    kinds = foul_kinds_to_step(on_break=False)
    assert s["foul"]["kinds"] == [kinds[2]] and s["score"] == {"A": 1, "B": 0}
    assert s["stats"]["B"]["fouls"] == {kinds[2]: 1}


def test_foul_press_after_the_window_is_only_a_hint(table):
    table.press("B", 5.0)
    table.press("foul", 20.0)
    table.press("foul", 40.0)
    assert table.s["foul"]["kinds"] == ["other"] and table.hints[-1] == "choose"


def test_foul_on_the_break_steps_through_illegal_break_too():
    assert "illegal-break" in foul_kinds_to_step(on_break=True)
    assert "illegal-break" not in foul_kinds_to_step(on_break=False)


def test_GR_7_4_after_a_foul_the_player_who_will_shoot_presses(table):
    table.press("B", 5.0)
    table.press("foul", 10.0)  # B fouls, A decides
    table.press("A", 20.0)  # the decider's own button: he plays
    assert table.s["phase"] == "play" and table.s["striker"] == "A"
    table.press("B", 30.0)  # A misses
    table.press("foul", 40.0)  # B fouls again
    table.press("B", 50.0)  # the offender's button: A hands the shot back
    assert table.s["striker"] == "B"


def test_D_1_a_pot_while_the_choice_is_pending_is_the_penalty_ball(table):
    table.press("B", 5.0)
    table.press("foul", 10.0)
    table.pot(12.0)
    assert table.s["score"] == {"A": 1, "B": 0} and table.hints[-1] == "penalty-ball"


def test_GR_13_2_break_foul_press_accepts_hold_reracks(table):
    table.press("foul", 3.0)  # A fouls on the break
    table.hold("A", 10.0)  # the offender holds: re-rack and A breaks again
    s = table.s
    assert s["phase"] == "break" and s["breaker"] == "A" and s["rack"][0] == [0]
    table.press("foul", 20.0)  # another foul on the break
    table.press("B", 30.0)  # the decider presses: accept and shoot
    assert table.s["phase"] == "play" and table.s["striker"] == "B"


def test_frame_over_either_button_starts_the_next_frame():
    t = Table()
    from scoreboard.core.matchlog import replay

    replay(["race 2", "break A", "shot pots=8"], t.match)
    t.press("B", 100.0)
    assert t.s["phase"] == "break" and t.s["frame"] == 2 and t.s["breaker"] == "B"


def test_pots_after_the_winning_ball_join_its_shot_D_2():
    t = Table()
    from scoreboard.core.matchlog import replay

    replay(["race 2", "break A", "shot pots=7"], t.match)
    t.pot(10.0)
    t.pot(10.5)
    # the first ends the frame (FP-1); the second fell on the same stroke and counts (D-2)
    assert (
        t.s["phase"] == "frame-over"
        and t.match.events[-1].pots == 2
        and t.s["score"] == {"A": 9, "B": 0}
    )


def test_two_buttons_at_once_give_one_event(table):
    table.press("B", 10.0)
    table.press("A", 10.1)
    assert table.s["striker"] == "B" and table.hints == ["two-buttons"]


def test_undo_takes_back_one_step_and_hold_then_press_starts_a_new_match(table):
    table.pot(10.0)
    table.press("undo", 20.0)
    assert table.s["score"] == {"A": 0, "B": 0}
    table.hold("undo", 30.0)
    assert table.hints[-1] == "confirm-new-match"
    assert table.press("undo", 32.0).new_match


def test_new_match_question_is_dropped_by_any_other_button_which_does_nothing_else(table):
    table.hold("undo", 30.0)
    assert table.press("B", 31.0) == Outcome()  # not B's turn taken: only the question goes
    outcome = table.press("undo", 32.0)
    assert not outcome.new_match and outcome.items == (UNDO,)


def test_FOUL_pressed_to_the_question_UNDO_held_asks_for_a_phones_code_and_nothing_else(table):
    table.hold("undo", 30.0)
    assert table.press("foul", 35.0) == Outcome(pairing=True)  # within the 5 s
    assert table.press("undo", 36.0).items == (UNDO,)  # the question is answered


def test_the_question_UNDO_held_asks_is_over_after_its_window(table):
    table.hold("undo", 30.0)
    assert not table.panel.asking(35.1)
    assert table.press("foul", 35.1).items  # FOUL is a foul again
    table.hold("undo", 40.0)
    table.hold("undo", 41.0)  # held again: asked again
    assert table.press("undo", 45.5).new_match
    table.hold("undo", 50.0)
    assert table.press("B", 56.0).items  # too late to drop the question: B's press


def test_inputs_in_phases_that_ignore_them_are_hints_never_errors():
    t = Table()
    t.pot(1.0)
    t.press("foul", 2.0)
    t.press("undo", 3.0)
    assert t.s["events"] == 0 and t.hints == ["who-breaks", "who-breaks", "nothing-to-undo"]


def test_GR_22_3_foul_on_the_stroke_that_pocketed_the_winning_ball():
    t = Table()
    from scoreboard.core.matchlog import replay

    replay(["race 2", "break A", "shot pots=7"], t.match)
    t.pot(10.0)  # the eighth ball: frame over
    assert t.s["phase"] == "frame-over"
    t.press("foul", 11.0)  # but the stroke was a foul: the ball is spotted, B scores
    s = t.s
    assert s["phase"] == "foul" and s["score"] == {"A": 7, "B": 1} and s["frames"]["A"] == 0


def test_FP_7_note_holding_FOUL_takes_back_a_penalty_point_whose_ball_was_not_taken(table):
    table.press("B", 5.0)
    table.press("foul", 10.0)  # B fouls: A +1
    table.press("A", 20.0)  # A plays on; the penalty ball is still on the table
    table.hold("foul", 30.0)
    s = table.s
    assert s["score"] == {"A": 0, "B": 0} and s["foul"]["lapsed"] and s["balls_on_table"] == 16
    assert table.hold("foul", 40.0) == Outcome(hint="no-lapse")  # only once


NO_PENALTY_POINT = {
    "break": ["break A"],
    "play": ["break A", "shot"],
    "frame-over": ["race 2", "break A", "shot pots=8"],
    "match-over": ["race 1", "break A", "shot pots=8"],
}


@pytest.mark.parametrize("phase", NO_PENALTY_POINT)
def test_FP_7_holding_FOUL_with_no_penalty_point_says_so_and_does_nothing_else(phase):
    from scoreboard.core.matchlog import replay

    t = Table()
    replay(NO_PENALTY_POINT[phase], t.match)
    assert t.s["phase"] == phase
    assert t.hold("foul", 100.0) == Outcome(hint="no-lapse")  # never a phone's code


# Where play cannot go on, the display says why from the lifecycle's one table of refusals
# (lifecycle.REFUSALS), never from a second list in the panel.
PHASE_LOGS = {
    "lag": [],
    "foul": ["break A", "shot", "shot foul=push"],
    "break-foul": ["break A", "shot foul=push"],
    "frame-over": ["race 2", "break A", "shot pots=8"],
    "match-over": ["race 1", "break A", "shot pots=8"],
}


@pytest.mark.parametrize("phase", PHASE_LOGS)
def test_a_ball_or_FOUL_where_no_shot_is_taken_says_the_lifecycles_reason(phase):
    from scoreboard.core.lifecycle import REFUSALS
    from scoreboard.core.matchlog import replay
    from scoreboard.texts.messages import HINTS

    t = Table(penalty_window=0.0)  # a ball sensed in foul/break-foul is the penalty ball (D-1)
    replay(PHASE_LOGS[phase], t.match)
    assert t.s["phase"] == phase
    t.press("foul", 100.0)
    expected = REFUSALS[("shoot", phase)].hint
    assert t.hints == [expected] and expected in HINTS and expected != "refused"
    if phase not in ("foul", "break-foul"):
        t.pot(200.0)
        assert t.hints == [expected, expected] and t.s["events"] == len(PHASE_LOGS[phase])


def test_a_players_press_after_the_match_says_the_match_is_over():
    from scoreboard.core.matchlog import replay

    t = Table()
    replay(PHASE_LOGS["match-over"], t.match)
    t.press("B", 100.0)
    assert t.hints == ["match-over"] and t.s["phase"] == "match-over"


def test_a_refused_event_carries_the_display_hint_of_its_refusal():
    from scoreboard.core.matchlog import replay
    from scoreboard.rules.events import Shot

    match = replay(PHASE_LOGS["frame-over"])
    with pytest.raises(RuleError, match="the frame is over") as refused:
        match.apply(Shot(pots=1))
    assert refused.value.hint == "ball-after-frame"
