"""FOUL presses as the panel takes them (scoreboard/table/panel.py): the first press enters
the foul, each press within the foul-kind window steps its kind on (a correction of the
same foul, never a second penalty), the last step is "no foul"; a step that would end the
frame waits, shown as a hint, and is taken only where the stepping stops."""

from dataclasses import replace

from scoreboard.core.phase import OVER, SHOOTING, Phase
from scoreboard.inputs.events import Button, ButtonPress
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Shot
from scoreboard.table.open_shot import NO_FOUL, OpenShot, Pending, foul_kinds_to_step, items_to
from scoreboard.table.outcome import IGNORED, Outcome
from scoreboard.table.step_words import ending, name_of, said


class FoulSteps:
    """The panel's FOUL stepping; the Panel holds the state it works on (`_pending`,
    `_intent`, the match and the windows)."""

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
        return event.button == Button.FOUL and (event.t - self._pending.at <= self.foul_kind_window)

    def takes_foul(self, t: float) -> bool:
        """Whether FOUL pressed at `t` is about the last stroke still open (GR-22.3): within the
        shot's window after its last ball, or within the kind's window after its foul. So also
        after the ball that ended a frame or the match: that stroke is taken back as a foul
        exactly as during play, and the statistics pages or the setup never take the press."""
        if self._pending is not None:
            return t - self._pending.at <= self.foul_kind_window
        current = self._still_open()
        if current is None:
            return False
        if current.shot.fouls:
            return t - current.foul_at <= self.foul_kind_window
        return self._on_stroke(current, t)

    def settle(self) -> Outcome:
        """The waiting FOUL step, to be taken now: its window closed or another input came."""
        pending, self._pending = self._pending, None
        if pending is None:
            return IGNORED
        self._intent, self._phase = pending.intent, self.match.phase
        return Outcome(items=items_to(pending.base, pending.intent.shot))

    def _foul(self, t: float) -> Outcome:
        phase, pending = self.match.phase, self._pending
        if pending is not None:  # stepping on from a step not taken yet
            base, current = pending.base, pending.intent
        else:
            base = current = self._still_open()
        # "no foul" waiting to end the frame (the winning stroke as it was): FOUL again within
        # the kind's window starts the kinds again, as if the shot's balls had just fallen.
        again = pending is not None and t - pending.at <= self.foul_kind_window
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
        if current and not current.shot.fouls and (again or self._on_stroke(current, t)):
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
        return self._foul_step(None, OpenShot(shot, on_break, t, t), "foul-kind", quiet=True)

    def _foul_step(self, base, after: OpenShot, say: str, *, quiet=False) -> Outcome:
        """A FOUL press: the shot `base` (None: none yet) becomes `after` (its shot None: no
        shot). Taken at once, unless it would end the frame: then it waits, shown as a hint
        (:meth:`settle`), and the frame ends only where the stepping stops. A first FOUL
        press taken at once is `quiet`: the foul's own screen says whose it is."""
        items = items_to(base, after.shot)
        try:
            phase, state = self.match.preview(items)
        except RuleError as exc:
            return Outcome(hint=exc.hint)
        if after.shot is None or not after.shot.fouls:
            hint = say
        else:
            offender = state.foul.offender if state.foul else self.match.state.striker
            hint = said(say, kind=str(after.shot.fouls[0]), name=name_of(self.match, offender))
        if phase in OVER and after.shot is not None:
            hint = ending(self.match, phase, state, after.shot)  # its own consequence, issue 34
            self._pending = Pending(base, after, hint, self._t)
            settle_at = self._t + self.foul_kind_window
            # Shown until it is taken (taking it clears it), however long the kind's window.
            seconds = self.foul_kind_window + 1.0
            return Outcome(hint=hint, hint_seconds=seconds, settle_at=settle_at)
        self._pending = None
        if not items:
            return Outcome(hint=hint)  # a step that was waiting goes: nothing was taken
        self._intent = after if after.shot is not None else None
        return Outcome(items=items, hint=None if quiet else hint)

    def _drop_pending(self) -> Outcome:
        """UNDO while a FOUL step waits: that step goes, nothing had been taken."""
        base, self._pending = self._pending.base, None
        if base is None or not base.shot.fouls:  # the FOUL press itself: the striker's foul
            return Outcome(
                hint=said("undone-foul", name=name_of(self.match, self.match.state.striker))
            )
        return Outcome(hint=said("undone-kind", kind=str(base.shot.fouls[0])))
