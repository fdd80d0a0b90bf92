"""Fouls and their penalty ball (FP-6, FP-7, D-1, D-6) and the choices after them (GR-7.4, GR-13.2)."""

from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import AFTER_BREAK_FOUL, AFTER_FOUL, Choice, PenaltyRule
from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.rack import layout
from scoreboard.rules.sides import Side, other
from scoreboard.rules.state import FoulRecord, MatchState, replace


def penalise(
    state: MatchState,
    offender: Side,
    fouls: tuple[FoulKind, ...],
    *,
    to_spot: int,
    opening: bool,
    **changes,
) -> MatchState:
    """FP-6/FP-7: one point (one penalty ball) to the offender's opponent, however many
    kinds the foul has (D-6); credited now, taken back by a lapse (D-1). Under the club's
    "American" penalty (CV-1) the offender loses that point instead. Either way the opponent
    chooses (GR-7.4, GR-13.2). The offender's statistics come in ``changes`` with the shot's."""
    gainer = other(offender)
    foul = FoulRecord(offender, fouls, gainer, to_spot, on_break=opening, rule=state.penalty)
    side, point = penalty_point(foul)
    return replace(
        state,
        score=state.score.set(side, state.score[side] + point),
        foul=foul,
        striker=None,
        decider=gainer,
        **changes,
    )


def penalty_point(foul: FoulRecord) -> tuple[Side, int]:
    """Whose score a foul's penalty changes, and by how much: FP-6/FP-7, +1 to the offender's
    opponent, who takes a ball; CV-1 ("American"), -1 to the offender, who puts one of his balls
    back on the table, or owes it (a score below 0) if he has none."""
    if foul.rule is PenaltyRule.AMERICAN:
        return foul.offender, -1
    return foul.penalty_to, 1


def choices(state: MatchState) -> tuple[Choice, ...]:
    """What the decider may choose now: GR-13.2 after the opening break, else GR-7.4."""
    return AFTER_BREAK_FOUL if state.foul.on_break else AFTER_FOUL


def decide(state: MatchState, choice: Choice) -> tuple[MatchState, str]:
    """Apply the decider's choice; the outcome is ``play_on`` or ``rerack``."""
    allowed = choices(state)
    if choice not in allowed:
        raise RuleError(f"after this foul the choices are {', '.join(allowed)}, not {choice}")
    foul = state.foul
    decider, offender = foul.penalty_to, foul.offender
    shooter = (
        decider if choice in (Choice.PLAY, Choice.ACCEPT_PLAY, Choice.RERACK_BREAK) else offender
    )
    if choice in (Choice.RERACK_BREAK, Choice.RERACK_PASS):
        # GR-13.2 (3)/(4), GR-9.3: the remaining white balls form an incomplete rack;
        # the coloured ball is the cue ball of the break (GR-12).
        whites = state.balls_on_table - 1
        return replace(
            state, breaker=shooter, striker=shooter, decider=None, rack=layout(whites)
        ), "rerack"
    return replace(state, striker=shooter, decider=None), "play_on"


def lapse(state: MatchState) -> MatchState:
    """FP-7 note, D-1: the penalty ball was not taken before the next shot (CV-1: not put back);
    its point goes back."""
    foul = state.foul
    if foul is None:
        raise RuleError("there is no penalty point in this frame to take back")
    if foul.lapsed:
        raise RuleError("the last penalty point was already taken back")
    side, point = penalty_point(foul)
    state = replace(
        state,
        score=state.score.set(side, state.score[side] - point),
        foul=replace(foul, lapsed=True),
    )
    # A re-rack not yet broken (GR-13.2, GR-9.3) holds the ball that came back. (A foul was
    # played this frame, so it has a rack; the rack is shown only until the break.) CV-1:
    # the offender's point back is a ball fewer on the table; if only the coloured one is
    # left, there is no rack to show (he has then reached the target: the frame ends, D-2).
    whites = state.balls_on_table - 1
    return replace(state, rack=layout(whites)) if whites > 0 else state
