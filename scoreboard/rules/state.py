"""The state of a match as immutable data; every rule is a function from one state to the next."""

from dataclasses import dataclass
from typing import NamedTuple

from scoreboard.rules.events import JumpedBall, PenaltyRule
from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.rack import Rows
from scoreboard.rules.sides import Pair, Side


def replace(obj, **changes):
    """``dataclasses.replace`` for our frozen, slotted records, without re-running
    ``__init__``: replay of a long match spends much of its time here."""
    if isinstance(obj, tuple):
        return obj._replace(**changes)
    new = object.__new__(type(obj))
    for name in type(obj).__slots__:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(obj, name))
    return new


BALLS = 16  # FP-2: 15 white and one coloured
DEFAULT_TARGET = 8  # FP-1


class Stats(NamedTuple):
    """One player's figures over the whole match (a named tuple: one is made every shot)."""

    shots: int = 0
    pots: int = 0
    fouls: tuple[tuple[FoulKind, int], ...] = ()  # every kind kept for statistics (D-6)
    run: int = 0  # balls potted in the current visit to the table
    best_run: int = 0

    def after_shot(self, *, pots: int, fouls: tuple[FoulKind, ...]) -> "Stats":
        """The figures after one more shot: legal pots extend the run, else it ends."""
        shots = self.shots + 1
        if fouls:
            counts = dict(self.fouls)
            for kind in fouls:
                counts[kind] = counts.get(kind, 0) + 1
            return self._replace(shots=shots, fouls=tuple(sorted(counts.items())), run=0)
        if pots:
            run = self.run + pots
            best = max(self.best_run, run)
            return self._replace(shots=shots, pots=self.pots + pots, run=run, best_run=best)
        return self._replace(shots=shots, run=0)


@dataclass(frozen=True, slots=True)
class FoulRecord:
    """The last foul of the frame: who, what, and the penalty ball it gave (FP-6, FP-7)."""

    offender: Side
    kinds: tuple[FoulKind, ...]
    penalty_to: Side
    to_spot: int  # FP-8: illegally pocketed and jumped balls to put back
    on_break: bool
    lapsed: bool = False  # D-1: the penalty point was taken back
    rule: PenaltyRule = PenaltyRule.BALL  # CV-1: BALL, +1 to penalty_to; AMERICAN, -1 to offender


class MatchState(NamedTuple):
    """The whole match as one immutable record (a named tuple: replay spends much of its
    time making the next one, and a tuple's ``_replace`` is the cheapest way)."""

    players: Pair[str] = Pair("A", "B")
    race: int = 1  # D-5: frames to win
    target: int = DEFAULT_TARGET  # FP-1, D-5: points to win a frame
    jumped_ball: JumpedBall = JumpedBall.FOUL  # D-4
    penalty: PenaltyRule = PenaltyRule.BALL  # FP-6/FP-7, or the club's "American" penalty (CV-1)
    frame: int = 1
    started: bool = False  # a shot has been played in this match
    due_breaker: Side | None = None  # D-3: who was due to break this frame
    breaker: Side | None = None  # who breaks (or broke) the frame now, after re-racks
    striker: Side | None = None  # who shoots next, in break and play
    decider: Side | None = None  # who chooses, after a foul
    frame_shots: int = 0
    score: Pair[int] = Pair(0, 0)
    frames: Pair[int] = Pair(0, 0)
    foul: FoulRecord | None = None
    frame_winner: Side | None = None
    winner: Side | None = None
    rack: Rows | None = None  # the rack to set up before the break
    frame_scores: tuple[tuple[int, int], ...] = ()  # finished frames, A:B
    stats: Pair[Stats] = Pair(Stats(), Stats())

    @property
    def balls_on_table(self) -> int:
        """FP-6, FP-7: every point is a ball on a shelf. CV-1: a negative score is a ball owed,
        not one on the table, so a shelf holds no fewer than none."""
        return BALLS - max(self.score.A, 0) - max(self.score.B, 0)
