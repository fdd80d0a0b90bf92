"""A tournament's race per stage (issue 22): race 2 in the early rounds, race 3 in the final.

A tournament's `race` is a number (every game) or an object of races by key, the most specific
key that fits a game winning: ``"W3"`` (a stage and its round), ``"final"`` (the game that
decides the champion: the last winners' round of a single elimination, GF and GF2 of a double),
``"W"``, ``"L"``, ``"F"``, ``"G"`` (a stage: winners', losers', the finals, the groups), and
``"*"`` (every other game). A game no key fits is played to 1 frame.

The table shows the game's round and race from a short label (``label``): "W2 · race 3"."""

import re

RACE_KEY = re.compile(r"^(\*|final|[WLFG](?:[1-9]\d?)?)$")


def is_final(game, games) -> bool:
    """Whether `game` decides the champion: a grand final (F), or else the last round of the
    winners' bracket when there is no grand final."""
    if game.stage == "F":
        return True
    if any(g.stage == "F" for g in games):
        return False
    return game.stage == "W" and game.round == max(g.round for g in games if g.stage == "W")


def race_for(race, game, games) -> int:
    """The race `game` (desk/bracket.py Game) is played to, from a tournament's `race`."""
    if not isinstance(race, dict):
        return race
    for key in (f"{game.stage}{game.round}", "final" if is_final(game, games) else None):
        if key in race:
            return race[key]
    return race.get(game.stage, race.get("*", 1))


def label(game, race: int) -> str:
    """What the table shows of the game: its id's round and the race, "W2 · race 3"."""
    return f"{game.id.split('-')[0]} · race {race}"
