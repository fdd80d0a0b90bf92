"""The opening break and what follows a foul on it: GR-8.4, GR-12, GR-13.1, GR-13.2, GR-9.3."""

import pytest
from matchplay import play, score

from scoreboard.core.matchlog import LogError
from scoreboard.rules.rack import layout


def test_GR_8_4_the_named_player_breaks_frame_1():
    s = play("break B")
    assert s["phase"] == "break" and s["breaker"] == "B" and s["striker"] == "B"
    assert s["rack"] == [list(r) for r in layout(15)]


def test_a_shot_before_anyone_breaks_is_refused():
    with pytest.raises(LogError, match="line 1: nobody has broken yet"):
        play("shot")


@pytest.mark.parametrize(
    "shot, legal",
    [
        ("shot cushions=3", True),  # GR-13.1 (2)
        ("shot cushions=2 crossed=yes", True),  # GR-13.1 (3)
        ("shot cushions=2 crossed=no", False),
        ("shot cushions=1 crossed=yes", False),
        ("shot cushions=0", False),
        ("shot pots=1 cushions=0", True),  # GR-13.1 (1)
        ("shot", True),  # not judged: legal unless a foul is given
        ("shot foul=no-contact", False),
    ],
)
def test_GR_13_1_opening_break_legality(shot, legal):
    s = play(f"break A\n{shot}")
    assert s["phase"] == ("play" if legal else "break-foul")
    if not legal:
        assert s["decider"] == "B" and score(s) == (0, 1)
        assert s["choices"] == ["accept-play", "accept-pass", "rerack-break", "rerack-pass"]


def test_GR_13_1_illegal_break_is_named_illegal_break():
    s = play("break A\nshot cushions=2")
    assert s["foul"]["kinds"] == ["illegal-break"] and s["foul"]["on_break"]


def test_GR_13_1_GR_22_3_pots_on_a_break_with_a_foul_do_not_count():
    s = play("break A\nshot pots=2 cushions=4 foul=touched-ball")
    assert s["phase"] == "break-foul" and score(s) == (0, 1) and s["foul"]["to_spot"] == 2


def test_GR_13_2_1_accept_and_shoot():
    s = play("break A\nshot cushions=1\nchoose accept-play")
    assert s["phase"] == "play" and s["striker"] == "B"


def test_GR_13_2_2_accept_and_hand_the_shot_to_the_offender():
    s = play("break A\nshot cushions=1\nchoose accept-pass")
    assert s["phase"] == "play" and s["striker"] == "A"


def test_GR_13_2_3_rerack_and_break_himself_with_the_incomplete_rack():
    s = play("break A\nshot cushions=1\nchoose rerack-break")
    assert s["phase"] == "break" and s["breaker"] == "B" and s["striker"] == "B"
    assert score(s) == (0, 1)  # the penalty ball stays on the shelf
    assert s["rack"] == [list(r) for r in layout(14)]  # GR-9.3: 15 balls left, one coloured


def test_GR_13_2_4_rerack_and_make_the_offender_break():
    s = play("break A\nshot cushions=1\nchoose rerack-pass")
    assert s["phase"] == "break" and s["breaker"] == "A"


def test_GR_13_2_a_second_illegal_break_after_a_rerack():
    s = play("break A\nshot cushions=1\nchoose rerack-pass\nshot cushions=0\nchoose rerack-break")
    assert score(s) == (0, 2) and s["rack"] == [list(r) for r in layout(13)]


def test_GR_13_2_ordinary_choices_are_refused_after_a_break_foul():
    with pytest.raises(LogError, match="line 3: after this foul the choices are accept-play"):
        play("break A\nshot cushions=1\nchoose play")


def test_GR_7_3_out_of_turn_on_the_break_gives_the_break_choices():
    s = play("break A\nshot by=B")
    assert s["phase"] == "break-foul" and s["decider"] == "A" and score(s) == (1, 0)


def test_cushions_describe_an_opening_break_only():
    with pytest.raises(LogError, match="line 3: cushions= and crossed= describe an opening break"):
        play("break A\nshot\nshot cushions=3")


def test_GR_8_4_breaker_can_be_corrected_before_the_first_shot_only():
    assert play("break A\nbreak B")["breaker"] == "B"
    with pytest.raises(LogError, match="line 3: the breaker is chosen before"):
        play("break A\nshot\nbreak B")
