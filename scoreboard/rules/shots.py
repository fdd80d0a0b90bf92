"""A shot: is it legal, what counts, and who shoots next (FP-5, FP-6, GR-7, GR-13.1, GR-22)."""

from typing import NamedTuple

from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import JumpedBall, Shot
from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.frames import settle_frame
from scoreboard.rules.penalty import penalise
from scoreboard.rules.sides import Side, other
from scoreboard.rules.spotting import spots_needed
from scoreboard.rules.state import MatchState, replace


class Verdict(NamedTuple):
    shooter: Side
    fouls: tuple[FoulKind, ...]  # empty for a legal shot

    @property
    def legal(self) -> bool:
        return not self.fouls


def break_is_legal(shot: Shot) -> tuple[bool, str]:
    """GR-13.1: the opening break is legal if, after contact, (1) a ball is legally
    pocketed, or (2) three different object balls touch cushions, or (3) two touch
    cushions and one crosses the centre line. Unknown cushions: legal unless a foul."""
    if shot.cushions is None:
        return True, "not judged: cushions unknown"
    if shot.pots:
        return True, "GR-13.1 (1): a ball was legally pocketed"
    if shot.cushions >= 3:
        return True, "GR-13.1 (2): three object balls touched cushions"
    if shot.cushions >= 2 and shot.crossed:
        return True, "GR-13.1 (3): two touched cushions and one crossed the centre line"
    return False, "GR-13.1: too few object balls touched cushions"


def judge(state: MatchState, shot: Shot, *, opening: bool) -> Verdict:
    """Who shot and which fouls the shot holds, stated or implied by the rules."""
    _check_counts(state, shot, opening=opening)
    fouls = list(shot.fouls)
    shooter = shot.by or state.striker
    if FoulKind.OUT_OF_TURN in fouls and shot.by is None:
        shooter = other(state.striker)  # the one at the table did not shoot
    if shooter != state.striker:
        if FoulKind.OUT_OF_TURN not in fouls:
            fouls.append(FoulKind.OUT_OF_TURN)  # GR-7.3
    elif FoulKind.OUT_OF_TURN in fouls:
        raise RuleError(f"out-of-turn: {shooter} is the player at the table")
    if shot.jumped and state.jumped_ball is JumpedBall.FOUL and FoulKind.JUMPED_BALL not in fouls:
        fouls.append(FoulKind.JUMPED_BALL)  # D-4
    if FoulKind.ILLEGAL_BREAK in fouls and not opening:
        raise RuleError("illegal-break is a foul of the opening break only (GR-13.1)")
    if opening and not fouls and not break_is_legal(shot)[0]:
        fouls.append(FoulKind.ILLEGAL_BREAK)
    return Verdict(shooter, tuple(fouls))


def _check_counts(state: MatchState, shot: Shot, *, opening: bool) -> None:
    if shot.pots < 0 or shot.jumped < 0:
        raise RuleError("pots and jumped balls cannot be negative")
    if shot.pots + shot.jumped > state.balls_on_table:
        raise RuleError(
            f"{shot.pots + shot.jumped} balls fell or jumped but only "
            f"{state.balls_on_table} are on the table"
        )
    if not opening and (shot.cushions is not None or shot.crossed is not None):
        raise RuleError("cushions= and crossed= describe an opening break only (GR-13.1)")
    if shot.cushions is not None and not 0 <= shot.cushions <= state.balls_on_table - 1:
        raise RuleError(f"cushions={shot.cushions} is more object balls than are on the table")


def play_shot(state: MatchState, shot: Shot, *, opening: bool) -> tuple[MatchState, str]:
    """Apply one shot. Outcome: ``pot``, ``miss``, ``foul``, ``frame_won`` or ``match_won``."""
    verdict = judge(state, shot, opening=opening)
    shooter = verdict.shooter
    stats = state.stats.set(
        shooter, state.stats[shooter].after_shot(pots=shot.pots, fouls=verdict.fouls)
    )
    common = {"started": True, "frame_shots": state.frame_shots + 1, "stats": stats}
    if not verdict.legal:
        # GR-22.3/22.4: every ball that fell on a foul stroke is illegally pocketed and spotted.
        state = penalise(
            state,
            shooter,
            verdict.fouls,
            to_spot=spots_needed(shot, verdict.fouls, state.balls_on_table),
            opening=opening,
            **common,
        )
        return settle_frame(state, "foul")  # D-2: a penalty point can end the frame
    if shot.pots:
        # FP-5.2, FP-5.5, FP-6: every ball that falls on a legal shot counts; shoot again.
        state = replace(
            state,
            score=state.score.set(shooter, state.score[shooter] + shot.pots),
            striker=shooter,
            **common,
        )
        return settle_frame(state, "pot")
    # FP-5.3, GR-7.2: a legal shot that pockets nothing passes the turn.
    return state._replace(striker=other(shooter), **common), "miss"
