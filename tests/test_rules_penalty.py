"""The penalty ball and its lapse: FP-6, FP-7, D-1, D-2."""

import pytest
from matchplay import play, score

from scoreboard.core.matchlog import LogError


def test_D_1_penalty_point_is_credited_when_the_foul_is_entered():
    s = play("break A\nshot\nshot foul=no-contact")
    assert s["phase"] == "foul" and score(s) == (1, 0) and s["balls_on_table"] == 15


def test_FP_7_note_D_1_lapse_takes_the_penalty_point_back():
    s = play("break A\nshot\nshot foul=no-contact\nchoose play\nlapse")
    assert score(s) == (0, 0) and s["foul"]["lapsed"] and s["balls_on_table"] == 16


def test_FP_7_note_lapse_after_the_next_shot():
    s = play("break A\nshot\nshot foul=no-contact\nchoose play\nshot pots=2\nlapse")
    assert score(s) == (2, 0)


def test_D_1_lapse_only_once_and_only_with_a_penalty():
    with pytest.raises(LogError, match="line 2: there is no penalty point"):
        play("break A\nlapse")
    with pytest.raises(LogError, match="line 6: the last penalty point was already taken back"):
        play("break A\nshot\nshot foul=push\nchoose play\nlapse\nlapse")


def test_D_2_a_penalty_point_can_end_the_frame():
    s = play("race 2\nbreak A\nshot pots=7\nshot\nshot foul=push")
    assert s["phase"] == "frame-over" and score(s) == (8, 0) and s["frame_winner"] == "A"


def test_D_1_lapse_cannot_reopen_a_finished_frame():
    with pytest.raises(LogError, match="line 6: the frame is over"):
        play("race 2\nbreak A\nshot pots=7\nshot\nshot foul=push\nlapse")


def test_D_2_points_past_the_target_are_not_clipped():
    s = play("race 2\nbreak A\nshot pots=7\nshot pots=2")
    assert s["phase"] == "frame-over" and score(s) == (9, 0)
