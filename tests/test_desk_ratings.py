"""The club's rating, Elo on frames (scoreboard/desk/ratings.py, issue 22)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard.desk.ratings import START, expected, rate, replay


def test_equal_players_share_the_frames_and_a_whitewash_moves_most():
    assert expected(START, START) == 0.5
    ratings: dict[str, float] = {}
    (a, b) = rate(ratings, "Olena", "Taras", 3, 0)
    assert a.before == b.before == START
    assert a.after - START == pytest.approx(24.0) and b.after - START == pytest.approx(-24.0)
    close: dict[str, float] = {}
    rate(close, "Olena", "Taras", 3, 2)
    assert close["Olena"] - START == pytest.approx(8.0)


def test_the_frames_won_against_the_expected_share_decide():
    """Olena at 1400 beating Taras at 1600 2:1 gains; at 1600 beating him at 1400 2:1 she
    loses a little (she was expected 76 % of the frames, 2.3 of 3), and 3:0 gains."""
    up = {"Olena": 1400.0, "Taras": 1600.0}
    narrow = {"Olena": 1600.0, "Taras": 1400.0}
    clean = dict(narrow)
    rate(up, "Olena", "Taras", 2, 1)
    rate(narrow, "Olena", "Taras", 2, 1)
    rate(clean, "Olena", "Taras", 3, 0)
    assert up["Olena"] - 1400 == pytest.approx(16 * (2 - 3 * expected(1400, 1600)))
    assert up["Olena"] > 1400 and narrow["Olena"] < 1600 < clean["Olena"]


def test_a_walkover_moves_nothing():
    ratings = {"Olena": 1500.0}
    assert rate(ratings, "Olena", "Taras", 0, 0) == [] and ratings == {"Olena": 1500.0}


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), max_size=30))
def test_the_points_one_gains_the_other_loses(scores):
    matches = [("Olena", "Taras", fa, fb) for fa, fb in scores]
    ratings, history = replay(matches)
    total = sum(ratings.values())
    assert total == pytest.approx(2 * START if ratings else 0)
    assert len(history) == 2 * sum(1 for fa, fb in scores if fa + fb)
