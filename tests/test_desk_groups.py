"""Round robin in groups, and groups then a knockout (scoreboard/desk/groups.py): a bracket's
face over the groups' games, the knockout seeded from the groups' tables once they are over."""

import pytest

from scoreboard.desk.bracket import PENDING, BracketError, PlayedSince
from scoreboard.desk.formats import make


def play(bracket, pick=lambda a, b: a):
    """Every ready game won by `pick`'s choice, 2-1, until nothing is ready."""
    while ready := bracket.ready():
        for game in ready:
            a, b = bracket.sides(game.id)
            winner = pick(a, b)
            bracket.record(game.id, winner, frames=(2, 1) if winner == a else (1, 2))


def test_a_round_robin_of_five_everyone_meets_everyone_and_the_table_decides():
    players = ["Ann", "Bob", "Cid", "Dan", "Eve"]
    rr = make(players, "round_robin")
    assert len(rr.games) == 10 and {g.stage for g in rr.games} == {"G"}
    order = {p: n for n, p in enumerate(players)}
    play(rr, lambda a, b: min(a, b, key=order.get))  # the better seed always wins
    assert rr.done() and rr.champion() == "Ann"
    assert rr.standings() == [(1, ["Ann"]), (2, ["Bob"]), (3, ["Cid"]), (4, ["Dan"]), (5, ["Eve"])]
    pairs = {frozenset(rr.sides(g.id)) for g in rr.games}
    assert len(pairs) == 10


def test_round_robin_in_two_groups_has_no_champion_and_shares_places():
    rr = make([f"P{n}" for n in range(1, 9)], "round_robin", {"groups": 2})
    assert not rr.done()
    play(rr)
    assert rr.done() and rr.champion() is None
    assert [len(ps) for _, ps in rr.standings()] == [2, 2, 2, 2]


def test_the_knockout_waits_for_the_groups_and_a_group_result_is_fixed_once_it_began():
    cup = make([f"P{n}" for n in range(1, 9)], "groups", {"groups": 2, "qualify": 2})
    with pytest.raises(BracketError, match="groups are not over"):
        cup.record("W1-1", "P1")
    assert cup.sides("W1-1") == (PENDING, PENDING) and cup.knockout() is None
    assert {g.round for g in cup.ready()} == {1}  # a group's round at a time: nobody twice
    while cup.ready() and cup.ready()[0].stage == "G":
        for game in cup.ready():
            cup.record(game.id, cup.sides(game.id)[0], frames=(2, 0))
    group_game = cup.group_games[0]
    cup.record(group_game.id, cup.sides(group_game.id)[1], frames=(0, 2))  # corrected: allowed
    cup.record(group_game.id, cup.sides(group_game.id)[0], frames=(2, 0))
    first = cup.ready()[0]
    assert first.id == "W1-1"
    cup.record(first.id, cup.sides(first.id)[0], frames=(2, 0))
    with pytest.raises(PlayedSince, match="W1-1 played since"):
        cup.record(group_game.id, cup.sides(group_game.id)[1], frames=(0, 2))
    play(cup)
    assert cup.done() and cup.champion() is not None
    assert sorted(p for _, ps in cup.standings() for p in ps) == sorted(cup.players)


@pytest.mark.parametrize(
    ("settings", "words"),
    [({"groups": 5}, "cannot make 5 groups"), ({"groups": 2, "qualify": 5}, "cannot make")],
)
def test_groups_that_cannot_be_made_are_refused(settings, words):
    with pytest.raises(BracketError, match=words):
        make([f"P{n}" for n in range(1, 9)], "groups", settings)
