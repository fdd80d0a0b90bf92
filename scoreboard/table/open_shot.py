"""The shot the panel has entered and may still change: balls that join it, its foul kind
stepped by FOUL presses, a step that would end the frame waiting, and the timed windows
UNDO puts back (scoreboard/table/panel.py)."""

from dataclasses import dataclass

from scoreboard.core.match import CANCEL, Amend
from scoreboard.rules.events import PenaltyRule, Shot
from scoreboard.rules.fouls import FOUL_KINDS, FoulKind

NO_FOUL = None  # the last step of the foul-kind cycle: the FOUL was a mistake


def ball_due(foul) -> bool:
    """Whether a foul takes a penalty ball into a pocket: not under the American penalty
    (CV-1: the offender puts a ball back), nor once FOUL held gave its point back (D-1)."""
    return foul.rule is PenaltyRule.BALL and not foul.lapsed


def foul_kinds_to_step(on_break: bool) -> tuple[FoulKind | None, ...]:
    """The order FOUL presses step through: on the opening break ``illegal-break`` first
    (GR-13.1), else ``other``; then every other kind, then :data:`NO_FOUL`, which puts the
    shot back exactly as it was before the FOUL press."""
    named = [k for k in FOUL_KINDS if k not in (FoulKind.OTHER, FoulKind.ILLEGAL_BREAK)]
    if on_break:
        return (FoulKind.ILLEGAL_BREAK, FoulKind.OTHER, *named, NO_FOUL)
    return (FoulKind.OTHER, *named, NO_FOUL)  # GR-13.1 is about the opening break only


@dataclass(frozen=True)
class OpenShot:
    """The last shot the panel entered, while pots may still join it or its foul kind change."""

    shot: Shot
    on_break: bool  # it was the opening break (GR-13.1 kinds apply)
    changed: float  # when a ball last joined it
    foul_at: float | None  # when its foul was entered or last stepped
    events: int = 0  # len(match.events) once applied: it must still be the last event
    unfouled: Shot | None = None  # a fouled shot as it was before FOUL (None: FOUL made it)
    balls: tuple[int, ...] = ()  # the pockets whose sensors counted its balls
    # Entered by a miss press (GR-7.2): until a ball joins it, only a sensed ball within the
    # miss window joins it, and FOUL within that window is about it (GR-15.1, GR-22.3).
    missed: bool = False


@dataclass(frozen=True)
class Pending:
    """A FOUL step whose result would end the frame: shown as a hint, taken only where the
    stepping stops (a correction is one step: no kind on the way ends a frame)."""

    base: OpenShot | None  # the shot in the match it amends (None: it enters a new one)
    intent: OpenShot  # the shot as the step makes it
    hint: tuple
    at: float  # the FOUL press that made it: its window runs from here


@dataclass(frozen=True)
class Windows:
    """The panel's timed windows as they were before a step, so UNDO puts them back."""

    open: OpenShot | None
    penalty: str | None
    chosen_at: float | None
    absorbed: int | None


MEMOS = 64  # steps whose windows UNDO puts back exactly; further back they are closed


def items_to(base: OpenShot | None, shot: Shot | None) -> tuple:
    """The steps that make the match's last shot `shot` (None: no shot) from `base`, the
    open shot it has now (None: the shot is not entered yet)."""
    if base is None:
        return (shot,) if shot is not None else ()
    if shot is None:
        return (CANCEL,)
    return () if shot == base.shot else (Amend(shot),)


def entered(item):
    """The event an item leaves last in the match (an amend's new event)."""
    return item.event if isinstance(item, Amend) else item
