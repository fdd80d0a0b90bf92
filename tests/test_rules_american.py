"""CV-1: the club's "American" penalty (RULES.md, "Club variants"), a rule option: the offender
puts one of his own balls back on the table, owing one if he has none, instead of the
opponent taking a ball (FP-6/FP-7)."""

import pytest
from matchplay import match, play, score

from scoreboard.core.matchlog import LogError, format_event, parse_line
from scoreboard.rules.events import Option, PenaltyRule
from scoreboard.rules.rack import layout

AMERICAN = "option penalty=american\n"


def test_CV_1_the_official_penalty_is_the_default():
    s = play("break A\nshot\nshot foul=push")
    assert s["penalty"] == "ball" and score(s) == (1, 0) and s["foul"]["rule"] == "ball"


def test_CV_1_the_offender_puts_a_ball_back_instead_of_the_opponent_taking_one():
    s = play(AMERICAN + "break A\nshot pots=3\nshot\nshot pots=2\nshot foul=push")
    # B fouled with 2 balls on his shelf: he puts one back; A's 3 stay as they are.
    assert s["penalty"] == "american" and s["foul"]["rule"] == "american"
    assert score(s) == (3, 1) and s["balls_on_table"] == 12


def test_CV_1_GR_7_4_the_offender_s_opponent_still_chooses():
    s = play(AMERICAN + "break A\nshot pots=1\nshot foul=no-contact")
    assert s["phase"] == "foul" and s["decider"] == "B" and s["foul"]["offender"] == "A"
    assert s["foul"]["penalty_to"] == "B" and s["choices"] == ["play", "pass"]
    s = play(AMERICAN + "break A\nshot pots=1\nshot foul=no-contact\nchoose pass")
    assert s["striker"] == "A" and score(s) == (0, 0)


def test_CV_1_an_offender_without_a_ball_owes_one():
    s = play(AMERICAN + "break A\nshot\nshot foul=push")
    # B had none to put back: his score goes below 0 and no ball comes back to the table.
    assert score(s) == (0, -1) and s["balls_on_table"] == 16


def test_CV_1_a_debt_is_paid_with_the_next_ball_potted():
    s = play(AMERICAN + "break A\nshot\nshot foul=push\nchoose pass\nshot pots=2")
    # B owed one: of his two balls one goes back on the table, one stays on his shelf.
    assert score(s) == (0, 1) and s["balls_on_table"] == 15
    s = play(AMERICAN + "break A\nshot\nshot foul=push\nchoose pass\nshot pots=1")
    assert score(s) == (0, 0) and s["balls_on_table"] == 16


def test_CV_1_debts_add_up_and_count_no_ball_off_the_table():
    log = AMERICAN + "break A\nshot\nshot foul=push\nchoose pass\nshot foul=feet\nchoose pass"
    s = play(log)
    assert score(s) == (0, -2) and s["balls_on_table"] == 16
    s = play(log + "\nshot foul=feet\nchoose play\nshot pots=3")
    assert score(s) == (3, -3) and s["balls_on_table"] == 13


def test_CV_1_FP_8_illegally_pocketed_balls_are_still_spotted():
    s = play(AMERICAN + "break A\nshot pots=2\nshot pots=2 jumped=1 foul=push")
    assert s["foul"]["to_spot"] == 3 and score(s) == (1, 0) and s["balls_on_table"] == 15


def test_CV_1_FP_7_note_D_1_a_lapse_gives_the_offender_his_ball_back():
    s = play(AMERICAN + "break A\nshot pots=2\nshot foul=push\nchoose play\nlapse")
    assert score(s) == (2, 0) and s["foul"]["lapsed"] and s["balls_on_table"] == 14
    s = play(AMERICAN + "break A\nshot\nshot foul=push\nchoose play\nlapse")
    assert score(s) == (0, 0) and s["balls_on_table"] == 16  # a debt forgiven


def test_CV_1_D_2_a_lapse_that_gives_the_offender_his_target_ends_the_frame():
    """Found by random play: the frame went on at 5 of 5 (race 1: the match too)."""
    log = "race 2\ntarget 5\nbreak A\nshot pots=2\nshot foul=push\nchoose pass\nshot pots=3"
    s = play(AMERICAN + log)
    assert s["phase"] == "play" and score(s) == (4, 0)  # 1 after the foul, then 3 more
    s = play(AMERICAN + log + "\nlapse")  # his ball was never put back: he has 5
    assert s["phase"] == "frame-over" and score(s) == (5, 0) and s["frame_winner"] == "A"
    assert s["frames"] == {"A": 1, "B": 0} and s["frame_scores"] == [[5, 0]]
    s = play(AMERICAN + log.replace("race 2", "race 1") + "\nlapse")
    assert s["phase"] == "match-over" and s["winner"] == "A"
    s = play(AMERICAN + log + "\nlapse\nundo")
    assert s["phase"] == "play" and score(s) == (4, 0) and not s["foul"]["lapsed"]


def test_CV_1_D_2_a_lapse_that_leaves_one_ball_on_the_table_ends_the_frame():
    """Found by random play: at 7:7 the lapse was refused ("a rack has 1 to 15 white balls,
    not 0"), the display saying "Point given back" with the score unchanged."""
    log = (
        "race 2\nbreak A\nshot pots=7\nshot\nshot pots=7\nshot foul=push\nchoose pass\nshot pots=1"
    )
    s = play(AMERICAN + log)
    assert s["phase"] == "play" and score(s) == (7, 7) and s["balls_on_table"] == 2
    s = play(AMERICAN + log + "\nlapse")
    assert s["phase"] == "frame-over" and score(s) == (7, 8) and s["balls_on_table"] == 1


def test_CV_1_D_1_a_lapse_only_once():
    with pytest.raises(LogError, match="line 7: the last penalty point was already taken back"):
        play(AMERICAN + "break A\nshot\nshot foul=push\nchoose play\nlapse\nlapse")


def test_CV_1_D_2_a_foul_never_ends_the_frame_for_the_opponent():
    s = play(AMERICAN + "break A\nshot pots=7\nshot\nshot foul=push")
    assert s["phase"] == "foul" and score(s) == (7, -1)


def test_CV_1_D_2_the_frame_is_won_at_the_target_whatever_the_opponent_owes():
    s = play(AMERICAN + "race 2\nbreak A\nshot\nshot foul=push\nchoose play\nshot pots=8")
    assert s["phase"] == "frame-over" and score(s) == (8, -1)
    assert s["frame_scores"] == [[8, -1]]


def test_CV_1_GR_13_2_a_foul_on_the_break_and_a_re_rack():
    s = play(AMERICAN + "break A\nshot cushions=1")
    assert s["phase"] == "break-foul" and score(s) == (-1, 0) and s["decider"] == "B"
    s = play(AMERICAN + "break A\nshot cushions=1\nchoose rerack-pass")
    assert s["breaker"] == "A" and s["rack"] == [list(row) for row in layout(15)]


def test_CV_1_GR_22_3_the_balls_of_a_foul_stroke_never_pay_a_debt():
    s = play(AMERICAN + "break A\nshot\nshot foul=push\nchoose pass\nshot pots=2 foul=push")
    assert score(s) == (0, -2) and s["foul"]["to_spot"] == 2 and s["balls_on_table"] == 16


def test_CV_1_pots_may_be_every_ball_on_the_table_and_no_more():
    log = AMERICAN + "break A\nshot\nshot foul=push\nchoose pass\n"
    assert score(play(log + "shot pots=16")) == (0, 15)  # the one owed went back
    with pytest.raises(LogError, match="17 balls fell or jumped but only 16 are on the table"):
        play(log + "shot pots=17")


def test_CV_1_the_option_is_set_before_the_first_shot_and_the_last_one_given_counts():
    s = play(AMERICAN + "option penalty=ball\nbreak A\nshot\nshot foul=push")
    assert s["penalty"] == "ball" and score(s) == (1, 0)
    with pytest.raises(LogError, match="line 3: players, race, target and options are set"):
        play("break A\nshot\noption penalty=american")


def test_CV_1_the_two_options_are_independent():
    s = play(AMERICAN + "option jumped-ball=spot\nbreak A\nshot\nshot jumped=1")
    assert s["penalty"] == "american" and s["jumped_ball"] == "spot" and s["phase"] == "play"
    s = play("option jumped-ball=spot\noption penalty=american\noption jumped-ball=foul")
    assert s["penalty"] == "american" and s["jumped_ball"] == "foul"


@pytest.mark.parametrize(
    "line", ["option penalty=", "option penalty=taken", "option penalty=american extra", "option"]
)
def test_CV_1_a_wrong_option_line_says_what_is_expected(line):
    with pytest.raises(LogError, match="line 1: expected: option jumped-ball=foul|spot or option"):
        play(line)


def test_CV_1_the_option_line_round_trips():
    for line in ("option penalty=american", "option penalty=ball", "option jumped-ball=spot"):
        assert format_event(parse_line(line)) == line
    assert parse_line("option penalty=american") == Option(penalty=PenaltyRule.AMERICAN)
    with pytest.raises(TypeError):
        format_event(Option())


def test_CV_1_undo_of_the_foul_restores_the_offender_s_ball():
    m = match(AMERICAN + "break A\nshot pots=2\nshot foul=push")
    assert m.state.score == (1, 0)
    m.undo()
    assert m.state.score == (2, 0) and m.phase == "play"
