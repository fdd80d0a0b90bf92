"""The pure rules core of Free Pyramid: immutable state, events in, new state out; no I/O."""

from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Choice, Event, Shot
from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.sides import SIDES, Pair, Side, other
from scoreboard.rules.state import BALLS, MatchState

__all__ = [
    "BALLS",
    "SIDES",
    "Choice",
    "Event",
    "FoulKind",
    "MatchState",
    "Pair",
    "RuleError",
    "Shot",
    "Side",
    "other",
]
