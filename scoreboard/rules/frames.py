"""Frames and the match: who breaks (GR-8.4, GR-14, D-3), frame end (FP-1, D-2), race (D-5)."""

from scoreboard.rules.errors import RuleError
from scoreboard.rules.rack import WHITE_BALLS, layout
from scoreboard.rules.sides import Pair, Side, other
from scoreboard.rules.state import MatchState, replace

FULL_RACK = layout(WHITE_BALLS)  # GR-9.1


def choose_breaker(state: MatchState, side: Side) -> MatchState:
    """GR-8.4: the lag winner breaks or makes the opponent break.

    Whoever is named becomes the player *due* to break this frame, so the next
    frame goes to the other one (D-3); in a later frame only that player may be named.
    """
    if state.frame_shots:
        raise RuleError("the breaker is chosen before the frame's first shot")
    if state.frame > 1 and side != state.due_breaker:
        # GR-14, D-3: from the second frame on, the break alternates; nobody chooses it.
        raise RuleError(
            f"{state.due_breaker} breaks frame {state.frame}: players alternate (GR-14)"
        )
    return replace(state, due_breaker=side, breaker=side, striker=side, rack=FULL_RACK)


def settle_frame(state: MatchState, outcome: str) -> tuple[MatchState, str]:
    """FP-1, D-2: the frame ends the moment a player reaches the target; D-5: race to N.

    Returns the state and ``"match_won"``, ``"frame_won"``, or ``outcome`` when
    the frame goes on. Points past the target stay as they are (D-2: never clipped).
    """
    score, target = state.score, state.target
    if target > score.A and target > score.B:
        return state, outcome
    # Only one player scores on a shot (the shooter by pots, the opponent by a penalty).
    winner: Side = "A" if target <= score.A else "B"
    frames = state.frames.set(winner, state.frames[winner] + 1)
    state = replace(
        state,
        frames=frames,
        frame_winner=winner,
        striker=None,
        decider=None,
        frame_scores=(*state.frame_scores, (state.score.A, state.score.B)),
    )
    if frames[winner] >= state.race:
        return replace(state, winner=winner), "match_won"
    return state, "frame_won"


def next_frame(state: MatchState) -> MatchState:
    """GR-14, D-3: the player due to break the next frame is the one not due this frame."""
    breaker = other(state.due_breaker)
    stats = Pair(replace(state.stats.A, run=0), replace(state.stats.B, run=0))
    return replace(
        state,
        frame=state.frame + 1,
        due_breaker=breaker,
        breaker=breaker,
        striker=breaker,
        decider=None,
        frame_shots=0,
        score=Pair(0, 0),
        foul=None,
        frame_winner=None,
        rack=FULL_RACK,
        stats=stats,
    )
