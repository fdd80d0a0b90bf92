"""The events a match is made of: immutable facts, applied in order (see matchlog for their text)."""

from dataclasses import dataclass
from enum import StrEnum

from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.sides import Side


class Choice(StrEnum):
    """What the offender's opponent decides after a foul."""

    PLAY = "play"  # GR-7.4 (1): shoot next himself
    PASS = "pass"  # GR-7.4 (2): hand the next shot to the offender
    ACCEPT_PLAY = "accept-play"  # GR-13.2 (1)
    ACCEPT_PASS = "accept-pass"  # GR-13.2 (2)
    RERACK_BREAK = "rerack-break"  # GR-13.2 (3)
    RERACK_PASS = "rerack-pass"  # GR-13.2 (4)


AFTER_FOUL = (Choice.PLAY, Choice.PASS)
AFTER_BREAK_FOUL = (
    Choice.ACCEPT_PLAY,
    Choice.ACCEPT_PASS,
    Choice.RERACK_BREAK,
    Choice.RERACK_PASS,
)


class JumpedBall(StrEnum):
    """D-4: what a ball leaving the table means."""

    FOUL = "foul"  # current reading: spotted, and the shot is a foul
    SPOT = "spot"  # older reading: spotted without penalty (a jumped cue ball is entered as a foul)


class PenaltyRule(StrEnum):
    """What a foul costs (FP-6, FP-7, and the club variant RULES.md notes, CV-1)."""

    BALL = "ball"  # official: the offender's opponent takes a ball of his choice (+1 to him)
    AMERICAN = "american"  # the "American" penalty: the offender puts one of his balls back (-1)


@dataclass(frozen=True, slots=True)
class Players:
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class Race:
    frames: int


@dataclass(frozen=True, slots=True)
class Target:
    points: int


@dataclass(frozen=True, slots=True)
class Option:
    """A club's rule option, one a line: ``jumped-ball=spot`` (D-4), ``penalty=american`` (CV-1).
    The option not given is left as it was."""

    jumped_ball: JumpedBall | None = None
    penalty: PenaltyRule | None = None


@dataclass(frozen=True, slots=True)
class Break:
    """Who makes the opening break of the current frame (GR-8.4, GR-14)."""

    side: Side


@dataclass(frozen=True, slots=True)
class Shot:
    """One complete shot: what fell, what left the table, what was wrong with it."""

    pots: int = 0
    fouls: tuple[FoulKind, ...] = ()
    jumped: int = 0
    cushions: int | None = None  # GR-13.1: different object balls that touched cushions
    crossed: bool | None = None  # GR-13.1 (3): an object ball crossed the centre line
    by: Side | None = None  # GR-7.3: the shooter, when not the player at the table


@dataclass(frozen=True, slots=True)
class Choose:
    choice: Choice


@dataclass(frozen=True, slots=True)
class Lapse:
    """FP-7 note, D-1: the last penalty ball was not taken before the next shot."""


@dataclass(frozen=True, slots=True)
class NextFrame:
    """Start the next frame after ``frame-over``."""


Event = Players | Race | Target | Option | Break | Shot | Choose | Lapse | NextFrame
