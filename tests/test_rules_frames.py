"""Frames and the match: FP-1, GR-14, D-2, D-3, D-5, and what a phase refuses."""

import pytest
from matchplay import play, score

from scoreboard.core.matchlog import LogError
from scoreboard.rules.rack import layout

FRAME_A_WINS = "shot pots=8"  # the breaker pots 8 on the break and continues: frame over


def test_FP_1_the_frame_ends_at_8_points():
    s = play("race 2\nbreak A\nshot pots=5\nshot pots=2")
    assert s["phase"] == "play" and score(s) == (7, 0)
    s = play("race 2\nbreak A\nshot pots=5\nshot pots=2\nshot pots=1")
    assert s["phase"] == "frame-over" and s["frames"] == {"A": 1, "B": 0}
    assert s["striker"] is None and s["frame_winner"] == "A"


def test_D_5_target_is_configurable():
    s = play("target 3\nrace 2\nbreak A\nshot pots=3")
    assert s["phase"] == "frame-over" and s["target"] == 3


@pytest.mark.parametrize("target", [0, 9])
def test_D_5_target_outside_1_to_8_is_refused(target):
    with pytest.raises(LogError, match=f"line 1: target is 1 to 8 points, not {target}"):
        play(f"target {target}")


def test_D_5_race_1_the_first_frame_ends_the_match():
    s = play("break A\nshot pots=8")
    assert s["phase"] == "match-over" and s["winner"] == "A" and s["frames"] == {"A": 1, "B": 0}
    assert score(s) == (8, 0)  # the last frame's score is kept


def test_D_5_race_to_2_frames():
    s = play("race 2\nbreak A\nshot pots=8\nnext\nshot\nshot pots=8")
    assert s["phase"] == "match-over" and s["winner"] == "A" and s["frame"] == 2


def test_GR_14_D_3_breaks_alternate_frame_by_frame():
    s = play("race 3\nbreak A\nshot pots=8\nnext")
    assert s["phase"] == "break" and s["frame"] == 2 and s["breaker"] == "B"
    assert score(s) == (0, 0) and s["balls_on_table"] == 16
    s = play("race 3\nbreak A\nshot pots=8\nnext\nshot pots=8\nnext")
    assert s["breaker"] == "A" and s["frame"] == 3


def test_D_3_rerack_inside_a_frame_does_not_change_the_next_breaker():
    log = "race 3\nbreak A\nshot cushions=0\nchoose rerack-break\nshot\nshot pots=8\nnext"
    s = play(log)
    assert s["breaker"] == "B"  # A was due to break frame 1, so B breaks frame 2


def test_GR_14_a_later_frame_refuses_a_breaker_who_is_not_due():
    with pytest.raises(LogError, match="line 5: B breaks frame 2: players alternate"):
        play("race 3\nbreak A\nshot pots=8\nnext\nbreak A")


def test_GR_14_naming_the_due_breaker_of_a_later_frame_changes_nothing():
    s = play("race 3\nbreak A\nshot pots=8\nnext\nbreak B\nshot pots=8\nnext")
    assert s["breaker"] == "A" and s["frame"] == 3


def test_GR_8_4_the_first_frame_breaker_may_be_changed_before_the_first_shot():
    assert play("break A\nbreak B")["breaker"] == "B"


def test_next_mid_frame_is_refused():
    with pytest.raises(LogError, match="line 3: the frame is not over yet"):
        play("break A\nshot\nnext")


def test_only_undo_after_match_over():
    with pytest.raises(LogError, match="line 3: the match is over: only undo"):
        play("break A\nshot pots=8\nnext")
    with pytest.raises(LogError, match="line 3: the match is over: only undo"):
        play("break A\nshot pots=8\nshot")
    s = play("break A\nshot pots=8\nundo")
    assert s["phase"] == "break"


def test_settings_only_before_the_first_shot():
    with pytest.raises(LogError, match="line 3: players, race, target"):
        play("break A\nshot\nplayers X Y")
    s = play("players Olena Taras\nbreak A\nrace 3")
    assert s["players"] == {"A": "Olena", "B": "Taras"} and s["race"] == 3


def test_frame_scores_are_kept_for_the_match():
    s = play("race 2\nbreak A\nshot pots=8\nnext\nshot pots=3\nshot\nshot pots=8")
    assert s["frame_scores"] == [[8, 0], [8, 3]]


def test_GR_14_D_3_breaks_alternate_over_three_frames_when_B_breaks_first():
    s = play("race 3\nbreak B\nshot pots=8\nnext")
    assert (s["frame"], s["breaker"], s["striker"]) == (2, "A", "A")
    s = play("race 3\nbreak B\nshot pots=8\nnext\nshot pots=8\nnext")
    assert (s["frame"], s["breaker"], s["striker"]) == (3, "B", "B")


def test_GR_14_a_new_frame_forgets_the_last_frames_foul_winner_and_rack():
    # Frame 1: a foul on the break, a re-rack, then A wins; frame 2 starts clean.
    log = "race 2\nbreak A\nshot cushions=0\nchoose rerack-break\nshot pots=8\nnext"
    s = play(log)
    assert s["phase"] == "break" and s["frame"] == 2
    assert s["foul"] is None and s["frame_winner"] is None
    assert s["rack"] == [list(row) for row in layout(15)]


def test_D_1_a_lapse_in_a_new_frame_cannot_take_back_the_last_frames_penalty():
    log = "race 2\nbreak A\nshot pots=7\nshot foul=push\nchoose pass\nshot pots=1\nnext\nlapse"
    with pytest.raises(LogError) as refused:
        play(log)
    assert str(refused.value) == "line 8: there is no penalty point in this frame to take back"


def test_D_5_B_wins_a_frame_and_then_the_match():
    s = play("race 2\nbreak B\nshot pots=8")
    assert s["phase"] == "frame-over" and s["frame_winner"] == "B"
    assert s["frames"] == {"A": 0, "B": 1}
    s = play("race 2\nbreak B\nshot pots=8\nnext\nshot\nshot pots=8")
    assert s["phase"] == "match-over" and s["winner"] == "B" and s["frames"] == {"A": 0, "B": 2}
