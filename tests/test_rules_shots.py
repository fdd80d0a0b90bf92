"""Shots and points: FP-5, FP-6, GR-7, GR-22 — one or more tests per clause."""

import pytest
from matchplay import play, score

from scoreboard.core.matchlog import LogError


def test_FP_5_2_legal_pot_striker_shoots_again():
    s = play("break A\nshot pots=1")
    assert s["phase"] == "play" and s["striker"] == "A" and score(s) == (1, 0)


def test_FP_5_3_GR_7_2_legal_miss_passes_the_turn():
    s = play("break A\nshot\nshot")
    assert s["striker"] == "A" and score(s) == (0, 0)
    s = play("break A\nshot")
    assert s["striker"] == "B"


def test_FP_5_5_every_ball_that_falls_on_a_legal_shot_counts():
    s = play("break A\nshot pots=3\nshot pots=2")
    assert score(s) == (5, 0) and s["balls_on_table"] == 11


def test_FP_6_one_point_per_ball_and_one_for_a_foul():
    s = play("break A\nshot pots=2\nshot foul=push")
    assert score(s) == (2, 1)
    assert s["foul"]["penalty_to"] == "B" and s["decider"] == "B"


def test_GR_22_3_balls_on_a_foul_stroke_do_not_count_and_are_spotted():
    s = play("break A\nshot\nshot pots=2 foul=double-hit")
    assert score(s) == (1, 0)
    assert s["foul"]["to_spot"] == 2 and s["balls_on_table"] == 15


def test_D_6_several_foul_kinds_on_one_shot_are_one_penalty():
    s = play("break A\nshot\nshot foul=push,double-hit,feet")
    assert score(s) == (1, 0)
    assert s["stats"]["B"]["fouls"] == {"push": 1, "double-hit": 1, "feet": 1}


def test_FP_8_D_4_a_jumped_ball_is_a_foul_and_spotted():
    s = play("break A\nshot\nshot jumped=1")
    assert s["phase"] == "foul" and s["foul"]["kinds"] == ["jumped-ball"]
    assert s["foul"]["to_spot"] == 1 and score(s) == (1, 0)


def test_D_4_older_reading_jumped_object_ball_spotted_without_penalty():
    s = play("option jumped-ball=spot\nbreak A\nshot\nshot jumped=1")
    assert s["phase"] == "play" and score(s) == (0, 0) and s["striker"] == "A"


def test_D_4_older_reading_legal_pot_with_a_jumped_ball_counts_the_pot_only():
    s = play("option jumped-ball=spot\nbreak A\nshot\nshot pots=1 jumped=1")
    assert score(s) == (0, 1) and s["striker"] == "B"


def test_GR_7_3_shot_out_of_turn_is_a_foul_by_the_shooter():
    s = play("break A\nshot\nshot pots=2 by=A")
    assert s["phase"] == "foul" and s["foul"]["offender"] == "A"
    assert s["foul"]["kinds"] == ["out-of-turn"] and score(s) == (0, 1)
    assert s["decider"] == "B"


def test_GR_7_3_out_of_turn_without_by_names_the_player_not_at_the_table():
    s = play("break A\nshot\nshot foul=out-of-turn")
    assert s["foul"]["offender"] == "A" and score(s) == (0, 1)


def test_GR_7_3_out_of_turn_without_by_when_A_is_at_the_table_names_B():
    s = play("break A\nshot pots=1\nshot foul=out-of-turn")
    assert s["foul"]["offender"] == "B" and s["foul"]["penalty_to"] == "A"
    assert score(s) == (2, 0) and s["decider"] == "A"


def test_GR_7_3_out_of_turn_by_the_player_at_the_table_is_refused():
    with pytest.raises(LogError, match="line 3: out-of-turn: B is the player at the table"):
        play("break A\nshot\nshot foul=out-of-turn by=B")


def test_GR_7_4_after_a_foul_the_opponent_plays_or_passes():
    s = play("break A\nshot\nshot foul=push\nchoose play")
    assert s["phase"] == "play" and s["striker"] == "A"
    s = play("break A\nshot\nshot foul=push\nchoose pass")
    assert s["phase"] == "play" and s["striker"] == "B"


def test_GR_7_4_break_choices_are_refused_after_an_ordinary_foul():
    with pytest.raises(LogError, match="line 4: after this foul the choices are play, pass"):
        play("break A\nshot\nshot foul=push\nchoose rerack-break")


def test_foul_ends_the_offenders_run():
    s = play("break A\nshot pots=3\nshot foul=push")
    assert s["stats"]["A"]["run"] == 0 and s["stats"]["A"]["best_run"] == 3


def test_invariant_balls_on_table_is_16_minus_points():
    s = play("break A\nshot pots=4\nshot foul=push pots=1\nchoose pass\nshot pots=2")
    assert s["balls_on_table"] == 16 - sum(score(s)) == 9


def test_more_pots_than_balls_on_the_table_are_refused():
    with pytest.raises(LogError, match="line 3: 12 balls fell or jumped but only 11"):
        play("break A\nshot pots=5\nshot pots=12")


def test_D_4_the_last_jumped_ball_option_before_the_first_shot_is_the_one_played():
    s = play("option jumped-ball=spot\noption jumped-ball=foul\nbreak A\nshot\nshot jumped=1")
    assert s["jumped_ball"] == "foul" and s["phase"] == "foul"
    s = play("option jumped-ball=foul\noption jumped-ball=spot\nbreak A\nshot\nshot jumped=1")
    assert s["jumped_ball"] == "spot" and s["phase"] == "play"
