"""The button panel and pocket sensors: what each input means in each phase (issue 3's table).

The panel turns timestamped input events into match-log items. It never changes
the match itself: the app applies the items (all or none), makes them durable in
the journal, then shows them, and tells the panel with :meth:`Panel.applied`.
"""

from dataclasses import dataclass, field, replace

from scoreboard.core.match import CANCEL, UNDO, Amend, Match
from scoreboard.core.phase import CHOOSING, IN_FRAME, SHOOTING, Phase
from scoreboard.inputs.events import Button, ButtonHold, ButtonPress, Pot
from scoreboard.rules.events import (
    Break,
    Choice,
    Choose,
    Lapse,
    NextFrame,
    PenaltyRule,
    Shot,
)
from scoreboard.rules.sides import SIDES, other
from scoreboard.table.foul_steps import FoulSteps
from scoreboard.table.open_shot import (
    MEMOS,
    OpenShot,
    Pending,
    Windows,
    ball_due,
    entered,
)
from scoreboard.table.outcome import IGNORED, SETUP, Outcome
from scoreboard.table.step_words import name_of, said, undone

PLAYER_BUTTONS = SIDES


@dataclass
class Panel(FoulSteps):
    match: Match
    shot_pause: float = 5.0  # pots closer than this belong to one shot
    foul_kind_window: float = 4.0  # FOUL presses this soon after the last step the kind
    double_press_guard: float = 0.5  # a second player button this soon is two buttons at once
    confirm_window: float = 5.0  # the question UNDO held asks: UNDO a new match, FOUL a phone
    penalty_window: float = 8.0  # after the choice, the first ball this soon is the penalty ball
    # GR-15.1: a ball sensed this soon after a miss press fell on the stroke called a miss
    miss_ball_window: float = 3.0
    _open: OpenShot | None = field(default=None, init=False)
    _intent: OpenShot | None = field(default=None, init=False)
    _last_player_press: float = field(default=float("-inf"), init=False)
    _new_match_asked: float | None = field(default=None, init=False)
    # The penalty ball of the last foul (FP-7, D-1, docs/decisions.md): "due" until a pot is
    # sensed for it, and when it was chosen (`_chosen_at`) while it was still due.
    _penalty: str | None = field(default=None, init=False)
    _chosen_at: float | None = field(default=None, init=False)
    _t: float = field(default=0.0, init=False)  # the time of the input being handled
    _phase: Phase | None = field(default=None, init=False)  # the phase it found
    _absorbed: int | None = field(default=None, init=False)  # pocket of a penalty ball sensed
    _pending: Pending | None = field(default=None, init=False)
    # (steps in the match after a step, the windows before it): UNDO restores them
    _memos: list[tuple[int, Windows]] = field(default_factory=list, init=False)

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
                # Its other answer: a code to pair a phone (issue 12, table/phone_control.py); the
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
                    hint = said("lapsed-back", name=name_of(self.match, foul.offender))
                else:
                    hint = said("lapsed", name=name_of(self.match, foul.penalty_to))
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
        memo = Windows(self._open, self._penalty, self._chosen_at, self._absorbed)
        self._memos = [*self._memos[1 - MEMOS :], (self.match.steps, memo)]
        events = self.match.events
        if intent and outcome.items and events and entered(outcome.items[-1]) is events[-1]:
            self._open = replace(intent, events=len(events))
        else:
            self._open = None
        before, now, foul = self._phase, self.match.phase, self.match.state.foul
        if now in CHOOSING and not ball_due(foul):
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
        due = self.match.phase in CHOOSING and ball_due(foul)
        self._open, self._penalty, self._chosen_at, self._absorbed = None, None, None, None
        if due:
            self._penalty = "due"

    # -- inputs ---------------------------------------------------------------------------------
    def _pot(self, t: float, pocket: int | None = None) -> Outcome:
        """A ball: sensed in `pocket`, or entered by hand (None)."""
        phase = self.match.phase
        sensed = (pocket,) if pocket is not None else ()
        if phase in CHOOSING:
            foul = self.match.state.foul
            if self._penalty is None and not ball_due(foul):
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
        if open_shot and not open_shot.shot.fouls and self._joins(open_shot, t, pocket):
            shot = replace(open_shot.shot, pots=open_shot.shot.pots + 1)
            hint = None
            if open_shot.missed and not open_shot.shot.pots:  # GR-15.1, FP-5.5, GR-7.1
                shooter = other(self.match.state.striker)  # the miss had passed the turn
                hint = said("miss-ball", name=name_of(self.match, shooter))
            balls = open_shot.balls + sensed
            return self._amend(open_shot, shot, hint=hint, changed=t, foul_at=None, balls=balls)
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
            # It stays open for the miss window: a ball still rolling from it is the striker's.
            return self._enter(
                Shot(), phase == Phase.BREAK, changed=self._t, foul_at=None, missed=True
            )
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

    def _retract(self, pocket: int) -> Outcome:
        """A stuck beam's leading edge was counted as a ball (pocket_counter.RETRACT): take
        that ball back out of the open shot; a stuck beam is never a point."""
        open_shot = self._still_open()
        if open_shot and pocket in open_shot.balls:
            balls = list(open_shot.balls)
            del balls[len(balls) - 1 - balls[::-1].index(pocket)]  # its last ball from there
            shot = replace(open_shot.shot, pots=open_shot.shot.pots - 1)
            hint = said("not-a-ball", pocket=pocket)
            if shot == Shot() and not open_shot.missed:  # that ball was all the shot was
                return Outcome(items=(CANCEL,), hint=hint)
            return self._amend(open_shot, shot, balls=tuple(balls), hint=hint)
        if pocket == self._absorbed:  # it had been taken for the penalty ball: no point
            self._absorbed = None
            return IGNORED
        return Outcome(hint=said("check-score", pocket=pocket))  # the shot has closed

    def _undo(self, t: float) -> Outcome:
        asked, self._new_match_asked = self._new_match_asked, None
        if asked is not None and t - asked <= self.confirm_window:
            return Outcome(new_match=True)
        events, step = self.match.events, self.match.last_step
        if step is None or (step.kind == "enter" and isinstance(events[-1], SETUP)):
            # UNDO takes back play, never the match's settings (setting up is its own action);
            # right after a new match it brings the archived one back, if the app can.
            return Outcome(hint="nothing-to-undo", restore_match=True)
        return Outcome(items=(UNDO,), hint=undone(self.match, step, events[-1] if events else None))

    def _not_now(self, kind: str) -> Outcome:
        """A press the phase does not take: the display says why (lifecycle.REFUSALS)."""
        refusal = self.match.lifecycle.refusal(kind)
        return Outcome(hint=refusal.hint if refusal else "refused")

    # -- helpers --------------------------------------------------------------------------------
    def _enter(self, shot, on_break, changed, *, foul_at, balls=(), missed=False) -> Outcome:
        """A new shot, open for pots to join and its foul kind to change."""
        self._intent = OpenShot(shot, on_break, changed, foul_at, balls=balls, missed=missed)
        return Outcome(items=(shot,))

    def _joins(self, open_shot: OpenShot, t: float, pocket: int | None) -> bool:
        """Whether a ball at `t` (sensed in `pocket`; None: by hand) joins the open shot: it
        fell on its stroke. After a miss press a ball entered by hand never joins the miss:
        it is the new striker's."""
        if open_shot.missed and not open_shot.shot.pots and pocket is None:
            return False
        return self._on_stroke(open_shot, t)

    def _on_stroke(self, open_shot: OpenShot, t: float) -> bool:
        """Whether `t` may still be within the open shot's stroke, so a ball then fell on it and
        FOUL then is about it (GR-22.3): within the shot's pause after its last ball; after a
        miss press, before any ball joined it, within the miss window (GR-15.1: a stroke ends
        when every ball has stopped; docs/decisions.md "A ball still rolling after a miss")."""
        if open_shot.missed and not open_shot.shot.pots:  # 0: no window, today's miss
            return self.miss_ball_window > 0 and t - open_shot.changed <= self.miss_ball_window
        return t - open_shot.changed <= self.shot_pause

    def _amend(self, open_shot: OpenShot, shot: Shot, *, hint=None, **changes) -> Outcome:
        """The open shot becomes `shot`: one step (`amend`), which UNDO takes back."""
        self._intent = replace(open_shot, shot=shot, **changes)
        return Outcome(items=(Amend(shot),), hint=hint)

    def _still_open(self) -> OpenShot | None:
        """The open shot, if nothing has been entered after it."""
        shot, events = self._open, self.match.events
        if shot is None or shot.events != len(events) or events[-1] is not shot.shot:
            return None
        return shot


def _has(outcome: Outcome, kind) -> bool:
    return any(isinstance(item, kind) for item in outcome.items)


def _is(event, kind, button) -> bool:
    return isinstance(event, kind) and event.button == button
