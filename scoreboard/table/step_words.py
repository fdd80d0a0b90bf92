"""What the panel says of a step on the display: whose it was, and what an UNDO took back
("Undone: Taras's foul"). Keys of the one catalog (scoreboard/texts/messages.py HINTS)."""

from scoreboard.core.match import Match, Step
from scoreboard.core.phase import CHOOSING, SHOOTING, Phase
from scoreboard.rules.events import Break, Choose, NextFrame, Shot
from scoreboard.rules.sides import other


def said(key: str, **fields) -> tuple:
    """A display message with fields (names, counts, a foul kind), hashable like a key."""
    return (key, tuple(sorted(fields.items())))


def name_of(match: Match, side) -> str:
    return match.state.players[side].replace("_", " ")


def ending(match: Match, phase: str, state, shot) -> tuple:
    """A FOUL step that would end the frame, said with its own consequence (issue 34): for a
    kind, whose foul it is and who gets its point (FP-6; GR-7.3: out of turn is the other
    player's); for "no foul", whose balls count again (FP-5.5); the score it ends on (D-2)
    and whether the frame or the match ends. `phase` and `state` are the step's preview."""
    over = "match" if phase == Phase.MATCH_OVER else "frame"
    score = f"{state.score.A}:{state.score.B}"
    if shot.fouls:
        foul = state.foul
        return said(
            f"foul-ends-{over}",
            kind=str(shot.fouls[0]),
            name=name_of(match, foul.offender),
            gainer=name_of(match, foul.penalty_to),
            n=1,
            score=score,
        )
    winner = name_of(match, state.frame_winner)
    return said(f"no-foul-ends-{over}", gainer=winner, n=shot.pots, score=score)


def undone(match: Match, step: Step, last) -> str | tuple:
    """What an UNDO takes back, said on the display: "Undone: Taras's foul"."""
    s, phase = match.state, match.phase
    if step.kind == "cancel":  # "no foul", or a stuck beam's ball: it comes back
        if step.old.fouls:
            return said("undone-no-foul", kind=str(step.old.fouls[0]))
        return said("undone-not-a-ball", name=shooter(match), n=step.old.pots)
    if step.kind == "amend":
        old, new = step.old, last
        if new.fouls and not old.fouls:  # the FOUL press: the shot as it was, balls too
            if old.pots:
                return said("undone-foul-pots", name=name_of(match, s.foul.offender), n=old.pots)
            return said("undone-foul", name=name_of(match, s.foul.offender))
        if old.fouls and not new.fouls:  # "no foul": the foul again
            return said("undone-no-foul", kind=str(old.fouls[0]))
        if old.fouls != new.fouls:  # a kind step
            return said("undone-kind", kind=str(old.fouls[0]))
        if new.pots > old.pots:  # a ball that joined the shot
            return said("undone-pots", name=shooter(match), n=new.pots - old.pots)
        return said("undone-not-a-ball", name=shooter(match), n=old.pots - new.pots)
    match last:
        case Shot() if s.foul and (last.fouls or phase in CHOOSING):
            return said("undone-foul", name=name_of(match, s.foul.offender))
        case Shot(pots=pots) if pots:
            return said("undone-pots", name=shooter(match), n=pots)
        case Shot():  # GR-7.2: a miss passed the turn, so the shooter is not at the table
            return said("undone-miss", name=name_of(match, other(s.striker)))
        case Choose():
            return "undone-choice"
        case Break():
            return "undone-break"
        case NextFrame():
            return "undone-next"
    return "undone-lapse"


def shooter(match: Match) -> str:
    """Who played the last shot, a legal one (FP-5.2: the striker stays at the table)."""
    s = match.state
    side = s.striker if match.phase in SHOOTING else s.frame_winner
    return name_of(match, side or s.breaker or "A")
