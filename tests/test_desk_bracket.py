"""The club's brackets (scoreboard/desk/bracket.py, issue 22): single and double elimination
with byes, played out at random (hypothesis) against what a club expects of them, written
from the issue's words (out after two losses, byes where the count is not a power of two),
not from the code."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.desk.bracket import DOUBLE, SINGLE, Bracket, BracketError
from scoreboard.desk.draw import by_rating, drawn, seed_positions


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, n + 1)]


def play_out(bracket: Bracket, rng: random.Random) -> list[tuple[str, str, str]]:
    """Play every game as it becomes ready, a random winner each; (game, a, b) in order."""
    log = []
    while ready := bracket.ready():
        seated = [p for g in ready for p in bracket.sides(g.id)]
        assert len(seated) == len(set(seated))  # nobody is asked to two tables at once
        game = rng.choice(ready)  # tables finish in any order
        a, b = bracket.sides(game.id)
        assert game.id not in [g for g, _, _ in log]  # no game played twice
        bracket.record(game.id, rng.choice((a, b)), frames=(2, 1))
        log.append((game.id, a, b))
    return log


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_double_elimination_everyone_but_the_champion_is_out_after_two_losses(n, seed):
    bracket = Bracket(names(n), DOUBLE)
    log = play_out(bracket, random.Random(seed))
    champion = bracket.champion()
    assert champion is not None  # played to the end: nothing left waiting
    losses = bracket.losses()
    assert losses[champion] <= 1
    assert all(lost == 2 for p, lost in losses.items() if p != champion)
    assert len(log) in (2 * n - 2, 2 * n - 1)  # every loss is a game; a reset adds one
    played = [p for _, a, b in log for p in (a, b)]
    assert set(played) == set(names(n))  # a bye never keeps a player from playing


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 64), st.integers(0, 2**32))
def test_single_elimination_one_game_a_loser(n, seed):
    bracket = Bracket(names(n), SINGLE)
    log = play_out(bracket, random.Random(seed))
    champion = bracket.champion()
    assert len(log) == n - 1
    assert bracket.losses()[champion] == 0
    assert sorted(lost for p, lost in bracket.losses().items() if p != champion) == [1] * (n - 1)
    places = bracket.standings()
    assert sum(len(group) for _, group in places) == n and places[0] == (1, [champion])


def test_the_byes_go_to_the_best_seeds():
    """13 players in a bracket of 16: seeds 1-3 have a bye in round 1, and win it unplayed."""
    bracket = Bracket(names(13), DOUBLE)
    first_round = [bracket.sides(f"W1-{n}") for n in range(1, 9)]
    byes = [a for a, b in first_round if b is None]
    assert byes == ["P01", "P02", "P03"]  # seeds 14-16 are nobody: 1, 2, 3 meet them
    assert len(bracket.ready()) == 5  # the five real games of round 1
    assert bracket.sides("W2-1")[0] == "P01"  # through without a game
    assert bracket.losses()["P01"] == 0


def test_seed_positions_keep_the_best_apart():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order = seed_positions(32)
    assert order.index(1) < 16 <= order.index(2)  # 1 and 2 only meet in the final
    assert sorted(order) == list(range(1, 33))


def test_the_grand_final_is_played_again_when_the_losers_champion_wins_it():
    bracket = Bracket(names(4), DOUBLE)
    for game in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        a, b = bracket.sides(game)
        bracket.record(game, a)  # the upper place wins each
    gf_a, gf_b = bracket.sides("GF")
    assert bracket.losses()[gf_a] == 0 and bracket.losses()[gf_b] == 1
    bracket.record("GF", gf_b)  # the losers' champion wins: both have lost once
    assert bracket.champion() is None and [g.id for g in bracket.ready()] == ["GF2"]
    bracket.record("GF2", gf_b)
    assert bracket.champion() == gf_b
    places = bracket.standings()
    assert places[:2] == [(1, [gf_b]), (2, [gf_a])]
    assert [p for p, _ in places] == [1, 2, 3, 4]


def test_no_second_final_when_the_winners_champion_wins():
    bracket = Bracket(names(4), DOUBLE)
    for game in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        bracket.record(game, bracket.sides(game)[0])
    champion = bracket.sides("GF")[0]
    bracket.record("GF", champion)
    assert bracket.champion() == champion and bracket.ready() == []


def test_a_result_is_taken_only_for_a_ready_game_and_one_of_its_players():
    bracket = Bracket(names(8), DOUBLE)
    with pytest.raises(BracketError, match="not ready"):
        bracket.record("W2-1", "P01")
    with pytest.raises(BracketError, match="does not play in W1-1"):
        bracket.record("W1-1", "P02")
    with pytest.raises(BracketError, match="no game"):
        bracket.record("W9-1", "P01")


def test_a_result_can_be_corrected_until_its_players_have_played_again():
    bracket = Bracket(names(4), SINGLE)
    bracket.record("W1-1", "P04")  # entered wrong: P01 won
    bracket.record("W1-1", "P01")
    assert bracket.sides("W2-1")[0] == "P01"
    bracket.record("W1-2", "P02")
    bracket.record("W2-1", "P02")
    with pytest.raises(BracketError, match="W2-1 played since"):
        bracket.record("W1-1", "P04")


def test_a_walkover_counts_as_a_loss():
    bracket = Bracket(names(3), DOUBLE)
    a, b = bracket.sides("W1-2")
    bracket.record("W1-2", a, walkover=True)
    assert bracket.losses()[b] == 1 and bracket.results["W1-2"].walkover


def test_a_bracket_needs_two_different_players():
    with pytest.raises(BracketError):
        Bracket(["Olena"])
    with pytest.raises(BracketError, match="twice"):
        Bracket(["Olena", "олена".capitalize(), "ОЛЕНА"])


def test_a_recorded_draw_can_be_repeated_and_does_not_depend_on_typing_order():
    players = names(16)
    assert drawn(players, 20261204) == drawn(players[::-1], 20261204)
    assert drawn(players, 20261204) != drawn(players, 20261205)
    assert sorted(drawn(players, 1)) == players


def test_seeding_by_rating_puts_the_unrated_last():
    ratings = {"P02": 1600.0, "P03": 1450.0, "P01": 1600.0}
    assert by_rating(["P01", "P02", "P03", "P04"], ratings) == ["P01", "P02", "P03", "P04"]
    assert by_rating(["P04", "P03", "P02"], ratings) == ["P02", "P03", "P04"]
