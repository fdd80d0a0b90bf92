"""Round robin for the club's tournaments (scoreboard/desk/round_robin.py, issue 22)."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard.desk.round_robin import groups, knockout_seeds, rounds, table


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, n + 1)]


@given(st.integers(2, 24))
def test_everyone_meets_everyone_once_and_nobody_twice_in_a_round(n):
    schedule = rounds(names(n))
    pairs = [frozenset(p) for row in schedule for p in row]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, itertools.combinations(names(n), 2)))
    for row in schedule:
        seated = [p for pair in row for p in pair]
        assert len(seated) == len(set(seated))
    assert len(schedule) == (n - 1 if n % 2 == 0 else n)


def test_snake_seeding_spreads_the_best_and_the_weakest():
    assert groups(names(8), 2) == [["P01", "P04", "P05", "P08"], ["P02", "P03", "P06", "P07"]]
    assert [len(g) for g in groups(names(10), 3)] == [3, 3, 4]  # the 10th snakes back
    with pytest.raises(ValueError):
        groups(names(5), 3)


def test_a_groups_table_ranks_by_wins_then_frames_then_the_match_between_two():
    players = ["Olena", "Taras", "Ivan", "Petro"]
    results = [
        ("Olena", "Taras", 2, 1),
        ("Ivan", "Petro", 2, 0),
        ("Olena", "Ivan", 0, 2),
        ("Taras", "Petro", 2, 0),
        ("Olena", "Petro", 2, 0),
        ("Taras", "Ivan", 2, 1),
    ]
    ranked = [(r.player, r.won, r.difference) for r in table(players, results)]
    # Olena, Taras and Ivan won two each: then the frames, Ivan 5:2, Taras 5:3, Olena 4:3.
    assert ranked == [("Ivan", 2, 3), ("Taras", 2, 2), ("Olena", 2, 1), ("Petro", 0, -6)]


def test_two_tied_on_everything_the_winner_of_their_match_goes_first():
    players = ["Olena", "Taras", "Ivan", "Petro"]
    results = [
        ("Olena", "Taras", 1, 2),  # Taras beat Olena
        ("Olena", "Ivan", 2, 1),
        ("Olena", "Petro", 2, 1),
        ("Taras", "Ivan", 1, 2),
        ("Taras", "Petro", 2, 1),
        ("Ivan", "Petro", 0, 2),
    ]
    ranked = [(r.player, r.won, r.difference, r.frames_for) for r in table(players, results)]
    assert ranked[0][1:] == ranked[1][1:]  # Olena and Taras: 2 wins, +1, 5 frames each
    assert [r[0] for r in ranked[:2]] == ["Taras", "Olena"]


def test_the_groups_winners_lead_the_knockout_and_a_group_meets_itself_late():
    a = table(["A1", "A2", "A3"], [("A1", "A2", 2, 0), ("A1", "A3", 2, 0), ("A2", "A3", 2, 0)])
    b = table(["B1", "B2", "B3"], [("B1", "B2", 2, 0), ("B1", "B3", 2, 0), ("B2", "B3", 2, 0)])
    assert knockout_seeds([a, b], 2) == ["A1", "B1", "B2", "A2"]
