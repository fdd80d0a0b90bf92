"""Per-player statistics (D-6): shots, pots, fouls by kind, the run and the best run of the match."""

import pytest
from matchplay import play


def stats(log: str, side: str) -> dict:
    return play(log)["stats"][side]


def test_a_legal_pot_counts_one_shot_its_balls_and_extends_the_run():
    assert stats("break A\nshot pots=2", "A") == {
        "shots": 1,
        "pots": 2,
        "fouls": {},
        "run": 2,
        "best_run": 2,
    }
    assert stats("break A\nshot pots=2", "B") == {
        "shots": 0,
        "pots": 0,
        "fouls": {},
        "run": 0,
        "best_run": 0,
    }


def test_FP_5_3_a_miss_counts_a_shot_and_ends_the_run_but_not_the_best_run():
    assert stats("break A\nshot pots=2\nshot pots=1\nshot", "A") == {
        "shots": 3,
        "pots": 3,
        "fouls": {},
        "run": 0,
        "best_run": 3,
    }


def test_D_6_fouls_are_counted_by_kind_and_end_the_run():
    log = "break A\nshot pots=2\nshot foul=push\nchoose pass\nshot foul=push,double-hit"
    assert stats(log, "A") == {
        "shots": 3,
        "pots": 2,
        "fouls": {"push": 2, "double-hit": 1},
        "run": 0,
        "best_run": 2,
    }


def test_the_best_run_is_the_longest_visit_not_the_last():
    log = "break A\nshot pots=3\nshot\nshot\nshot pots=1"
    assert stats(log, "A")["run"] == 1 and stats(log, "A")["best_run"] == 3


@pytest.mark.parametrize("breaker", ["A", "B"])
def test_GR_14_a_new_frame_starts_every_run_at_0_and_keeps_the_best_run(breaker):
    s = play(f"race 2\nbreak {breaker}\nshot pots=8\nnext")
    assert s["stats"][breaker]["run"] == 0
    assert s["stats"][breaker]["best_run"] == 8 and s["stats"][breaker]["pots"] == 8
