"""The match's steps as the table takes them (scoreboard/table/app.py): what the panel's
outcome comes to (a step made durable, a new match, the archived one back, a phone's code),
a FOUL step that waits for its window, and a step the rules refuse, said as a hint."""

from scoreboard.inputs.events import Pot
from scoreboard.rules.errors import RuleError
from scoreboard.table.outcome import Outcome
from scoreboard.table.presenter import HINT_SECONDS


class Steps:
    """The App's steps; the App holds the panel, the recorder, the setup flow and the rest."""

    def _settle(self) -> None:
        """The waiting FOUL step (panel.py), taken now."""
        if self._settle_timer is not None:
            self._settle_timer.cancel()
            self._settle_timer = None
        self.storage.retry()
        self._play(self.panel.settle())

    def _settle_due(self) -> None:
        """The FOUL step's window closed with no FOUL press: the step is taken."""
        self._settle_timer = None
        if self.panel.pending:
            self._settle()
            self.show()

    def _play(self, outcome: Outcome, *, pot: Pot | None = None) -> None:
        if outcome.settle_at is not None:
            if self._settle_timer is not None:
                self._settle_timer.cancel()
            self._settle_timer = self.loop.call_at(outcome.settle_at, self._settle_due)
        mark = self.ledger.mark(pot)
        if outcome.pairing:
            self.phone.ask_code()
        elif outcome.new_match:
            self.new_match()
        elif outcome.restore_match and self.recorder.restorable is not None:
            self._restore_match()
            return
        else:
            committed = bool(outcome.items) and self.commit(outcome, mark=mark)
            if not committed and mark:
                self.recorder.write(mark)  # a pot that scored nothing: the board may forget it
            if outcome.items and not committed:
                return  # refused: the rules' words (commit) stay, never the step's own hint
        if outcome.hint:
            self.set_hint(outcome.hint, outcome.hint_seconds or HINT_SECONDS)
        elif outcome.items:  # a step that says itself (its own screen): older words would
            self.presenter.clear_hint()  # speak of another step ("Foul Olena: cue-tip")

    def commit(self, outcome: Outcome, *, mark: list[str] = ()) -> bool:
        """Apply, make durable (or keep until the disk takes it), then (the caller) show.
        A step the rules refuse is a hint, never a crash."""
        try:
            self.recorder.commit(list(outcome.items), mark)
        except RuleError as exc:
            self.log(f"refused: {exc}")
            self.set_hint(exc.hint)
            return False
        self.panel.applied(outcome)
        self.confirm.follow()  # a match over: its players' time to confirm starts (issue 34)
        return True

    def new_match(self, settings=None) -> None:
        """Archive this match (finished or not) and start a new one with `settings` (the
        next match's: sent for it, else the last match's, else the config's)."""
        self.recorder.new_match(settings or self.desk.next_settings())
        self.hint = None  # the question about a new match is answered
        self.panel = self._new_panel()
        self.faults.new_match()
        self.confirm.follow()
        self.setup.follow_language()

    def _restore_match(self) -> None:
        """UNDO right after a new match, before any play: the archived match comes back."""
        if not self.recorder.restore_match():
            self.set_hint("nothing-to-undo")
            return
        self.panel = self._new_panel()
        self.confirm.follow()
        self.setup.follow_language()
        self.set_hint("match-restored")
