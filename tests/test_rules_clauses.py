"""Clauses of RULES.md that touch the score, each with a test named after it."""

import pytest
from matchplay import play, score

from scoreboard.core.matchlog import LogError
from scoreboard.rules.rack import layout


def test_FP_2_consequence_every_point_is_a_ball_on_a_shelf():
    s = play("break A\nshot pots=3\nshot foul=push\nchoose pass\nshot pots=2\nshot")
    assert s["balls_on_table"] == 16 - sum(score(s)) == 10


def test_FP_5_4_the_cue_ball_off_an_object_ball_counts_like_any_ball():
    # Any ball may be the cue ball (FP-2): a shot where both cue and object ball fall is two.
    s = play("break A\nshot pots=2")
    assert score(s) == (2, 0) and s["striker"] == "A"


def test_FP_7_the_penalty_ball_comes_off_the_table_after_spotting():
    s = play("break A\nshot\nshot pots=2 jumped=1 foul=push")
    # three balls spotted first (FP-8), then one taken: 16 - 1 on the table
    assert s["foul"]["to_spot"] == 3 and s["balls_on_table"] == 15 and score(s) == (1, 0)


def test_GR_7_1_legal_shot_with_a_pot_the_striker_continues():
    s = play("break A\nshot\nshot pots=1\nshot pots=1")
    assert s["striker"] == "B" and score(s) == (0, 2)


@pytest.mark.parametrize(
    "kind",
    [
        "cue-tip",  # GR-5.1
        "feet",  # GR-5.2
        "no-contact",  # GR-6.2 / GR-6.4
        "early-stroke",  # GR-15.2
        "touched-ball",  # GR-16
        "double-hit",  # GR-17
        "push",  # GR-18 / GR-19.1
        "other",
    ],
)
def test_GR_5_to_GR_19_every_foul_kind_gives_the_opponent_one_point(kind):
    s = play(f"break A\nshot\nshot pots=1 foul={kind}")
    assert score(s) == (1, 0) and s["foul"]["kinds"] == [kind] and s["decider"] == "A"


def test_GR_13_1_illegal_break_is_refused_on_an_ordinary_shot():
    with pytest.raises(LogError, match="line 3: illegal-break is a foul of the opening break"):
        play("break A\nshot\nshot foul=illegal-break")


def test_FP_8_D_4_a_jumped_ball_foul_spots_at_least_its_ball():
    s = play("break A\nshot\nshot foul=jumped-ball")
    assert s["foul"]["to_spot"] == 1


def test_FP_8_never_more_balls_spotted_than_left_play():
    # All 16 fell on a jumped-ball foul: no 17th ball could have jumped.
    s = play("break A\nshot\nshot pots=16 foul=jumped-ball")
    assert s["foul"]["to_spot"] == 16


def test_GR_9_1_GR_12_new_frame_full_rack_and_the_coloured_ball_in_the_house():
    s = play("race 2\nbreak A\nshot pots=8\nnext")
    assert s["rack"] == [list(r) for r in layout(15)] and s["balls_on_table"] == 16


def test_GR_9_3_GR_12_rerack_leaves_the_coloured_ball_out_of_the_pyramid():
    s = play("break A\nshot cushions=0\nchoose rerack-pass")
    assert sum(map(sum, s["rack"])) == s["balls_on_table"] - 1 == 14


def test_GR_13_2_D_1_lapse_before_the_rerack_is_broken_puts_the_ball_back_in_the_rack():
    s = play("break A\nshot cushions=1\nchoose rerack-break\nlapse")
    assert s["balls_on_table"] == 16 and s["rack"] == [list(r) for r in layout(15)]


def test_GR_22_1_GR_22_4_a_legal_shot_counts_a_foul_shot_spots():
    legal = play("break A\nshot\nshot pots=2")
    fouled = play("break A\nshot\nshot pots=2 foul=feet")
    assert score(legal) == (0, 2) and score(fouled) == (1, 0)
    assert fouled["foul"]["to_spot"] == 2


def test_several_fouls_on_one_stroke_are_penalised_once():
    s = play("break A\nshot\nshot foul=push,feet jumped=1")
    assert score(s) == (1, 0) and sorted(s["foul"]["kinds"]) == ["feet", "jumped-ball", "push"]


def test_hanging_ball_a_late_drop_is_taken_back_by_undo():
    s = play("break A\nshot\nshot pots=1\nundo\nshot")
    assert score(s) == (0, 0) and s["striker"] == "A"
