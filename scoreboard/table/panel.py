"""The button panel and pocket sensors: what each input means in each phase (issue 3's table).

The panel turns timestamped input events into match-log items. It never changes
the match itself: the app applies the items (all or none), makes them durable in
the journal, then shows them, and tells the panel with :meth:`Panel.applied`.
"""

from dataclasses import dataclass, field, replace

from scoreboard.core.match import CANCEL, UNDO, Amend, Match, Step
from scoreboard.core.phase import CHOOSING, IN_FRAME, OVER, SHOOTING, Phase
from scoreboard.inputs.events import Button, ButtonHold, ButtonPress, Pot
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import (
    Break,
    Choice,
    Choose,
    Lapse,
    NextFrame,
    PenaltyRule,
    Shot,
)
from scoreboard.rules.fouls import FOUL_KINDS, FoulKind
from scoreboard.rules.sides import SIDES, other
from scoreboard.table.outcome import IGNORED, SETUP, Outcome

PLAYER_BUTTONS = SIDES


NO_FOUL = None  # the last step of the foul-kind cycle: the FOUL was a mistake


def _ball_due(foul) -> bool:
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
class _OpenShot:
    """The last shot the panel entered, while pots may still join it or its foul kind change."""

    shot: Shot
    on_break: bool  # it was the opening break (GR-13.1 kinds apply)
    changed: float  # when a ball last joined it
    foul_at: float | None  # when its foul was entered or last stepped
    events: int = 0  # len(match.events) once applied: it must still be the last event
    unfouled: Shot | None = None  # a fouled shot as it was before FOUL (None: FOUL made it)
    balls: tuple[int, ...] = ()  # the pockets whose sensors counted its balls


@dataclass(frozen=True)
class _Pending:
    """A FOUL step whose result would end the frame: shown as a hint, taken only where the
    stepping stops (a correction is one step: no kind on the way ends a frame)."""

    base: _OpenShot | None  # the shot in the match it amends (None: it enters a new one)
    intent: _OpenShot  # the shot as the step makes it
    hint: tuple


@dataclass(frozen=True)
class _Windows:
    """The panel's timed windows as they were before a step, so UNDO puts them back."""

    open: _OpenShot | None
    penalty: str | None
    chosen_at: float | None
    absorbed: int | None


MEMOS = 64  # steps whose windows UNDO puts back exactly; further back they are closed


@dataclass
class Panel:
    match: Match
    shot_pause: float = 5.0  # pots closer than this belong to one shot
    foul_kind_window: float = 4.0  # FOUL presses this soon after the last step the kind
    double_press_guard: float = 0.5  # a second player button this soon is two buttons at once
    confirm_window: float = 5.0  # the question UNDO held asks: UNDO a new match, FOUL a phone
    penalty_window: float = 8.0  # after the choice, the first ball this soon is the penalty ball
    _open: _OpenShot | None = field(default=None, init=False)
    _intent: _OpenShot | None = field(default=None, init=False)
    _last_player_press: float = field(default=float("-inf"), init=False)
    _new_match_asked: float | None = field(default=None, init=False)
    # The penalty ball of the last foul (FP-7, D-1, docs/decisions.md): "due" until a pot is
    # sensed for it, and when it was chosen (`_chosen_at`) while it was still due.
    _penalty: str | None = field(default=None, init=False)
    _chosen_at: float | None = field(default=None, init=False)
    _t: float = field(default=0.0, init=False)  # the time of the input being handled
    _phase: Phase | None = field(default=None, init=False)  # the phase it found
    _absorbed: int | None = field(default=None, init=False)  # pocket of a penalty ball sensed
    _pending: _Pending | None = field(default=None, init=False)
    # (steps in the match after a step, the windows before it): UNDO restores them
    _memos: list[tuple[int, _Windows]] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self._close_windows()  # a match resumed from its journal: nothing of them in memory

    # -- the entry points -----------------------------------------------------------------------
    def handle(self, event) -> Outcome:
        """What ``event`` comes to now; nothing changes until :meth:`applied`."""
        self._intent, self._t, self._phase = None, event.t, self.match.phase
        if self._new_match_asked is not None and not _is(event, ButtonPress, Button.UNDO):
            asked = self.asking(event.t)
            self._new_match_asked = None  # any other input ends the question
            if asked and _is(event, ButtonPress, Button.FOUL):
                # Its other answer: a code to pair a phone (issue 12, scoreboard/table/phone/); the
                # gesture that pairs never changes the match (issue 19).
                return Outcome(pairing=True)
            # Any other button drops the question and does nothing else (UNDO held again asks
            # again); a ball still counts.
            button = isinstance(event, ButtonPress | ButtonHold)
            if asked and button and not _is(event, ButtonHold, Button.UNDO):
                return IGNORED
        match event:
            case Pot(retract=True):
                return self._retract(event.pocket)
            case Pot():
                return self._pot(event.t, event.pocket)
            case ButtonPress(button=Button.FOUL):
                return self._foul(event.t)
            case ButtonPress(button=Button.UNDO) if self._pending is not None:
                return self._drop_pending()
            case ButtonPress(button=Button.UNDO):
                return self._undo(event.t)
            case ButtonHold(button=Button.UNDO):
                self._new_match_asked = event.t
                return Outcome(hint="confirm-new-match", hint_seconds=self.confirm_window)
            case ButtonHold(button=Button.FOUL):
                # FP-7 note, D-1: the last penalty ball was not taken before the next shot.
                foul = self.match.state.foul
                if self.match.phase not in IN_FRAME or foul is None or foul.lapsed:
                    return Outcome(hint="no-lapse")  # nothing else, never a phone's code
                if foul.rule is PenaltyRule.AMERICAN:  # CV-1: his ball stays his
                    hint = _hint("lapsed-back", name=self._name(foul.offender))
                else:
                    hint = _hint("lapsed", name=self._name(foul.penalty_to))
                return Outcome(items=(Lapse(),), hint=hint)
            case ButtonPress(button=side) if side in PLAYER_BUTTONS:
                if event.t - self._last_player_press < self.double_press_guard:
                    return Outcome(hint="two-buttons")
                self._last_player_press = event.t
                return self._press(side)
            case ButtonHold(button=side) if side in PLAYER_BUTTONS:
                return self._hold(side, event.t)
        return IGNORED

    def asking(self, t: float) -> bool:
        """Whether the question UNDO held asks ("UNDO: new match, FOUL: pair a phone") is
        still open at `t`: the next button answers it, whatever the phase."""
        asked = self._new_match_asked
        return asked is not None and t - asked <= self.confirm_window

    def drop_question(self) -> None:
        """The question UNDO held asked is gone from the screen (a phone's request took its
        place, a remote UNDO came): no button answers it any more."""
        self._new_match_asked = None

    def applied(self, outcome: Outcome) -> None:
        """The app applied ``outcome``: remember the shot that pots may still join, and
        follow the penalty ball (FP-7) from the foul through the choice to the next shot.
        An UNDO puts every window back as it was before the step it took back."""
        intent, self._intent = self._intent, None
        self._pending = None
        if outcome.items == (UNDO,):
            self._windows_back()
            return
        memo = _Windows(self._open, self._penalty, self._chosen_at, self._absorbed)
        self._memos = [*self._memos[1 - MEMOS :], (self.match.steps, memo)]
        events = self.match.events
        if intent and outcome.items and events and _entered(outcome.items[-1]) is events[-1]:
            self._open = replace(intent, events=len(events))
        else:
            self._open = None
        before, now, foul = self._phase, self.match.phase, self.match.state.foul
        if now in CHOOSING and not _ball_due(foul):
            # CV-1: the offender puts a ball back on the table; no ball goes into a pocket.
            # A lapse before the choice: the point went back, so no ball is to be taken.
            self._penalty = self._chosen_at = None
        elif now in CHOOSING:
            if before not in CHOOSING:
                self._penalty, self._chosen_at = "due", None  # a new foul: its ball is due
        elif _has(outcome, Choose) and self._penalty == "due":
            self._chosen_at = self._t  # chosen before the ball was taken: the window opens
        else:
            self._penalty = self._chosen_at = None  # a shot, a lapse, a new frame: it is over

    def _windows_back(self) -> None:
        """After an UNDO: the windows as they were before the step it took back; where that
        is no longer known (a restart, or long ago) they are closed, a pending choice's
        penalty ball due as for a new foul."""
        steps = self.match.steps
        while self._memos and self._memos[-1][0] > steps + 1:
            self._memos.pop()
        if self._memos and self._memos[-1][0] == steps + 1:
            memo = self._memos.pop()[1]
            self._open, self._penalty = memo.open, memo.penalty
            self._chosen_at, self._absorbed = memo.chosen_at, memo.absorbed
            return
        self._memos.clear()
        self._close_windows()

    def _close_windows(self) -> None:
        """The windows where nothing in memory tells them (a restart, UNDO further back than
        the memos): closed, a pending choice's penalty ball due as for a new foul (D-1)."""
        foul = self.match.state.foul  # a point given back (a lapse) leaves no ball due
        due = self.match.phase in CHOOSING and _ball_due(foul)
        self._open, self._penalty, self._chosen_at, self._absorbed = None, None, None, None
        if due:
            self._penalty = "due"

    @property
    def pending(self) -> bool:
        """A FOUL step waits to be taken (:meth:`settle`)."""
        return self._pending is not None

    def steps_on(self, event) -> bool:
        """Whether ``event`` deals with the waiting FOUL step itself (FOUL within its window
        steps on from it, UNDO takes it back); any other input takes it first."""
        if self._pending is None or not isinstance(event, ButtonPress):
            return False
        if event.button == Button.UNDO:
            return True
        return event.button == Button.FOUL and (
            event.t - self._pending.intent.foul_at <= self.foul_kind_window
        )

    def settle(self) -> Outcome:
        """The waiting FOUL step, to be taken now: its window closed or another input came."""
        pending, self._pending = self._pending, None
        if pending is None:
            return IGNORED
        self._intent, self._phase = pending.intent, self.match.phase
        return Outcome(items=_items(pending.base, pending.intent.shot))

    # -- inputs ---------------------------------------------------------------------------------
    def _pot(self, t: float, pocket: int | None = None) -> Outcome:
        """A ball: sensed in `pocket`, or entered by hand (None)."""
        phase = self.match.phase
        sensed = (pocket,) if pocket is not None else ()
        if phase in CHOOSING:
            foul = self.match.state.foul
            if self._penalty is None and not _ball_due(foul):
                return Outcome(hint="choose")  # CV-1, or its point given back: no penalty ball
            # D-1: the penalty ball dropped into a pocket; it scores nothing
            self._penalty, self._absorbed = None, pocket
            return Outcome(hint="penalty-ball")
        if (
            self._penalty == "due"
            and pocket is not None  # a ball entered by hand is the striker's pot, never it
            and self._chosen_at is not None
            and t - self._chosen_at <= self.penalty_window
        ):
            # docs/decisions.md: chosen first, the ball taken after: the first ball sensed
            # this soon after the choice, before any shot was entered, is the penalty ball.
            self._penalty = self._chosen_at = None
            self._absorbed = pocket
            return Outcome(hint="penalty-ball")
        open_shot = self._still_open()
        if open_shot and not open_shot.shot.fouls and t - open_shot.changed <= self.shot_pause:
            shot = replace(open_shot.shot, pots=open_shot.shot.pots + 1)
            return self._amend(
                open_shot, shot, changed=t, foul_at=None, balls=open_shot.balls + sensed
            )
        if phase in SHOOTING:
            return self._enter(
                Shot(pots=1), phase == Phase.BREAK, changed=t, foul_at=None, balls=sensed
            )
        return self._not_now("shoot")  # the lifecycle says why, in its one table

    def _press(self, side: str) -> Outcome:
        phase, s = self.match.phase, self.match.state
        if phase == Phase.LAG:
            return Outcome(items=(Break(side),))  # GR-8.4
        if phase in SHOOTING:
            if side == s.striker:
                return Outcome(hint="hold-to-pot")
            # GR-7.2: the one not at the table presses: the striker's shot ended without a pot.
            return Outcome(items=(Shot(),))
        if phase == Phase.FOUL:  # GR-7.4: the player who will shoot presses
            return Outcome(items=(Choose(Choice.PLAY if side == s.decider else Choice.PASS),))
        if phase == Phase.BREAK_FOUL:  # GR-13.2 (1)/(2): accept the position; this player shoots
            choice = Choice.ACCEPT_PLAY if side == s.decider else Choice.ACCEPT_PASS
            return Outcome(items=(Choose(choice),))
        if phase == Phase.FRAME_OVER:
            return Outcome(items=(NextFrame(),))
        return self._not_now("next_frame")

    def _hold(self, side: str, t: float) -> Outcome:
        phase, s = self.match.phase, self.match.state
        if phase in SHOOTING:
            # A ball entered by hand: a table without sensors, or one a sensor missed.
            return self._pot(t) if side == s.striker else Outcome(hint="not-your-turn")
        if phase == Phase.BREAK_FOUL:  # GR-13.2 (3)/(4): re-rack; this player breaks
            choice = Choice.RERACK_BREAK if side == s.decider else Choice.RERACK_PASS
            return Outcome(items=(Choose(choice),))
        return self._press(side)

    def _foul(self, t: float) -> Outcome:
        phase = self.match.phase
        if self._pending is not None:  # stepping on from a step not taken yet
            base, current = self._pending.base, self._pending.intent
        else:
            base = current = self._still_open()
        if current and current.shot.fouls and t - current.foul_at <= self.foul_kind_window:
            # A correction of the same foul, never a second penalty.
            kinds = foul_kinds_to_step(current.on_break)
            now = current.shot.fouls[0]
            following = kinds[(kinds.index(now) + 1) % len(kinds)] if now in kinds else kinds[0]
            if following is NO_FOUL:
                # The FOUL was a mistake: back to exactly the step before it.
                after = replace(current, shot=current.unfouled, foul_at=None, unfouled=None)
                return self._foul_step(base, after, "foul-cancelled")
            shot = replace(current.shot, fouls=(following,))
            return self._foul_step(base, replace(current, shot=shot, foul_at=t), "foul-kind")
        if current and not current.shot.fouls and t - current.changed <= self.shot_pause:
            # GR-22.3: every ball that fell on the fouled stroke is taken back, the one
            # that ended the frame too (the stroke had not ended when the rule was broken).
            first = foul_kinds_to_step(current.on_break)[0]
            shot = replace(current.shot, fouls=(first,))
            after = replace(current, shot=shot, foul_at=t, unfouled=current.shot)
            return self._foul_step(base, after, "foul-kind", quiet=True)
        if phase not in SHOOTING:
            return self._not_now("shoot")
        on_break = phase == Phase.BREAK
        shot = Shot(fouls=(foul_kinds_to_step(on_break)[0],))
        return self._foul_step(None, _OpenShot(shot, on_break, t, t), "foul-kind", quiet=True)

    def _foul_step(self, base, after: _OpenShot, say: str, *, quiet=False) -> Outcome:
        """A FOUL press: the shot `base` (None: none yet) becomes `after` (its shot None: no
        shot). Taken at once, unless it would end the frame: then it waits, shown as a hint
        (:meth:`settle`), and the frame ends only where the stepping stops. A first FOUL
        press taken at once is `quiet`: the foul's own screen says whose it is."""
        items = _items(base, after.shot)
        try:
            phase, state = self.match.preview(items)
        except RuleError as exc:
            return Outcome(hint=exc.hint)
        if after.shot is None or not after.shot.fouls:
            hint = say
        else:
            offender = state.foul.offender if state.foul else self.match.state.striker
            hint = _hint(say, kind=str(after.shot.fouls[0]), name=self._name(offender))
        if phase in OVER and after.shot is not None:
            self._pending = _Pending(base, after, hint)
            return Outcome(hint=hint, settle_at=after.foul_at + self.foul_kind_window)
        self._pending = None
        if not items:
            return Outcome(hint=hint)  # a step that was waiting goes: nothing was taken
        self._intent = after if after.shot is not None else None
        return Outcome(items=items, hint=None if quiet else hint)

    def _drop_pending(self) -> Outcome:
        """UNDO while a FOUL step waits: that step goes, nothing had been taken."""
        base, self._pending = self._pending.base, None
        if base is None or not base.shot.fouls:  # the FOUL press itself: the striker's foul
            return Outcome(hint=_hint("undone-foul", name=self._name(self.match.state.striker)))
        return Outcome(hint=_hint("undone-kind", kind=str(base.shot.fouls[0])))

    def _retract(self, pocket: int) -> Outcome:
        """A stuck beam's leading edge was counted as a ball (pocket_counter.RETRACT): take
        that ball back out of the open shot; a stuck beam is never a point."""
        open_shot = self._still_open()
        if open_shot and pocket in open_shot.balls:
            balls = list(open_shot.balls)
            del balls[len(balls) - 1 - balls[::-1].index(pocket)]  # its last ball from there
            shot = replace(open_shot.shot, pots=open_shot.shot.pots - 1)
            hint = _hint("not-a-ball", pocket=pocket)
            if shot == Shot():  # that ball was all the shot was: as if it never happened
                return Outcome(items=(CANCEL,), hint=hint)
            return self._amend(open_shot, shot, balls=tuple(balls), hint=hint)
        if pocket == self._absorbed:  # it had been taken for the penalty ball: no point
            self._absorbed = None
            return IGNORED
        return Outcome(hint=_hint("check-score", pocket=pocket))  # the shot has closed

    def _undo(self, t: float) -> Outcome:
        asked, self._new_match_asked = self._new_match_asked, None
        if asked is not None and t - asked <= self.confirm_window:
            return Outcome(new_match=True)
        events, step = self.match.events, self.match.last_step
        if step is None or (step.kind == "enter" and isinstance(events[-1], SETUP)):
            # UNDO takes back play, never the match's settings (setting up is its own action);
            # right after a new match it brings the archived one back, if the app can.
            return Outcome(hint="nothing-to-undo", restore_match=True)
        return Outcome(items=(UNDO,), hint=self._undone(step, events[-1] if events else None))

    def _undone(self, step: Step, last) -> str | tuple:
        """What an UNDO takes back, said on the display: "Undone: Taras's foul"."""
        s, phase = self.match.state, self.match.phase
        if step.kind == "cancel":  # "no foul", or a stuck beam's ball: it comes back
            if step.old.fouls:
                return _hint("undone-no-foul", kind=str(step.old.fouls[0]))
            return _hint("undone-not-a-ball", name=self._shooter(), n=step.old.pots)
        if step.kind == "amend":
            old, new = step.old, last
            if new.fouls and not old.fouls:  # the FOUL press: the shot as it was, balls too
                if old.pots:
                    return _hint("undone-foul-pots", name=self._name(s.foul.offender), n=old.pots)
                return _hint("undone-foul", name=self._name(s.foul.offender))
            if old.fouls and not new.fouls:  # "no foul": the foul again
                return _hint("undone-no-foul", kind=str(old.fouls[0]))
            if old.fouls != new.fouls:  # a kind step
                return _hint("undone-kind", kind=str(old.fouls[0]))
            if new.pots > old.pots:  # a ball that joined the shot
                return _hint("undone-pots", name=self._shooter(), n=new.pots - old.pots)
            return _hint("undone-not-a-ball", name=self._shooter(), n=old.pots - new.pots)
        match last:
            case Shot() if s.foul and (last.fouls or phase in CHOOSING):
                return _hint("undone-foul", name=self._name(s.foul.offender))
            case Shot(pots=pots) if pots:
                return _hint("undone-pots", name=self._shooter(), n=pots)
            case Shot():  # GR-7.2: a miss passed the turn, so the shooter is not at the table
                return _hint("undone-miss", name=self._name(other(s.striker)))
            case Choose():
                return "undone-choice"
            case Break():
                return "undone-break"
            case NextFrame():
                return "undone-next"
        return "undone-lapse"

    def _shooter(self) -> str:
        """Who played the last shot, a legal one (FP-5.2: the striker stays at the table)."""
        s = self.match.state
        side = s.striker if self.match.phase in SHOOTING else s.frame_winner
        return self._name(side or s.breaker or "A")

    def _not_now(self, kind: str) -> Outcome:
        """A press the phase does not take: the display says why (lifecycle.REFUSALS)."""
        refusal = self.match.lifecycle.refusal(kind)
        return Outcome(hint=refusal.hint if refusal else "refused")

    def _name(self, side) -> str:
        return self.match.state.players[side].replace("_", " ")

    # -- helpers --------------------------------------------------------------------------------
    def _enter(self, shot, on_break, changed, *, foul_at, balls=()) -> Outcome:
        """A new shot, open for pots to join and its foul kind to change."""
        self._intent = _OpenShot(shot, on_break, changed, foul_at, balls=balls)
        return Outcome(items=(shot,))

    def _amend(self, open_shot: _OpenShot, shot: Shot, *, hint=None, **changes) -> Outcome:
        """The open shot becomes `shot`: one step (`amend`), which UNDO takes back."""
        self._intent = replace(open_shot, shot=shot, **changes)
        return Outcome(items=(Amend(shot),), hint=hint)

    def _still_open(self) -> _OpenShot | None:
        """The open shot, if nothing has been entered after it."""
        shot, events = self._open, self.match.events
        if shot is None or shot.events != len(events) or events[-1] is not shot.shot:
            return None
        return shot


def _hint(key: str, **fields) -> tuple:
    """A display message with fields (names, counts, a foul kind), hashable like a key."""
    return (key, tuple(sorted(fields.items())))


def _items(base: _OpenShot | None, shot: Shot | None) -> tuple:
    """The steps that make the match's last shot `shot` (None: no shot) from `base`, the
    open shot it has now (None: the shot is not entered yet)."""
    if base is None:
        return (shot,) if shot is not None else ()
    if shot is None:
        return (CANCEL,)
    return () if shot == base.shot else (Amend(shot),)


def _entered(item):
    """The event an item leaves last in the match (an amend's new event)."""
    return item.event if isinstance(item, Amend) else item


def _has(outcome: Outcome, kind) -> bool:
    return any(isinstance(item, kind) for item in outcome.items)


def _is(event, kind, button) -> bool:
    return isinstance(event, kind) and event.button == button
