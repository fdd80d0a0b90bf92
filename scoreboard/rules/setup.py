"""Match settings that may change only before the first shot: players, race, target, options."""

import unicodedata

from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Option, Players, Race, Target
from scoreboard.rules.sides import Pair
from scoreboard.rules.state import DEFAULT_TARGET, MatchState, replace

MAX_RACE = 99
MAX_NAME = 40
HIDDEN = ("Cc", "Cf")  # Unicode's control and format characters


def hidden_characters(text: str) -> bool:
    """Whether `text` holds a character that is not shown as itself: a control character
    (C0, DEL, C1: a terminal obeys them) or a format character (a right-to-left override,
    a zero-width space: the name would read otherwise than it is). Every way a name comes in
    (the config, the setup screen, a phone, the club) refuses such a name."""
    return any(unicodedata.category(c) in HIDDEN for c in text)


def configure(state: MatchState, event: Players | Race | Target | Option) -> MatchState:
    if state.started:
        raise RuleError("players, race, target and options are set before the first shot")
    match event:
        case Players(a, b):
            for name in (a, b):
                if not name or len(name) > MAX_NAME or any(c.isspace() for c in name):
                    raise RuleError(f"a player's name is 1 to {MAX_NAME} characters, no spaces")
            if a.casefold() == b.casefold():  # the table could not tell who is who
                raise RuleError(f"the two players need different names, not {a} twice")
            return replace(state, players=Pair(a, b))
        case Race(frames):
            if not 1 <= frames <= MAX_RACE:
                raise RuleError(f"race is 1 to {MAX_RACE} frames, not {frames}")
            return replace(state, race=frames)
        case Target(points):
            # FP-1, D-5: 8 by default; fewer for a quick game, never more balls than 8 each.
            if not 1 <= points <= DEFAULT_TARGET:
                raise RuleError(f"target is 1 to {DEFAULT_TARGET} points, not {points}")
            return replace(state, target=points)
        case Option(jumped_ball=jumped_ball, penalty=rule):
            if jumped_ball is not None:
                state = replace(state, jumped_ball=jumped_ball)
            if rule is not None:
                state = replace(state, penalty=rule)
            return state
    raise TypeError(f"not a setup event: {event!r}")
