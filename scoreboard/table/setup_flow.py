"""The next match's settings as the table takes them (scoreboard/table/setup/): a button
while the setup screen is open, settings sent through the queue (a phone, the club), the
result of a finished match shown before the setup screen opens by itself, the language a
match is played in, and a changed config taken without a restart."""

import dataclasses

from scoreboard.config import Config
from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.match import CANCEL
from scoreboard.core.matchlog import parse_line
from scoreboard.core.phase import Phase
from scoreboard.core.settings import (
    ASSIGN_COMMENT,
    LANG_COMMENT,
    MatchSettings,
    SettingsError,
    assign_of,
    from_config,
    lang_of,
    log_name,
)
from scoreboard.display.screens.between_frames import PAGES
from scoreboard.inputs.events import ButtonHold, ButtonPress
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Break
from scoreboard.table.outcome import SETUP, Outcome
from scoreboard.table.recorder import Recorder, setup_lines
from scoreboard.table.setup import command, model
from scoreboard.table.setup.command import SetupNext
from scoreboard.table.setup.desk import SetupDesk

# How long the result of a finished match is shown before the setup screen opens by itself
# (A, B or FOUL opens it sooner; UNDO still takes back the last step): at least this, and long
# enough for each statistics page to have been shown once (stats_pages.py).
RESULT_SECONDS = 30.0
# A press this soon after the setup screen opened by itself does nothing: it was meant for the
# screen the player was looking at.
OPENED_GUARD = 2.0


class SetupFlow:
    """`commit(outcome, mark) -> bool` and `new_match(settings)` are the table's own (they
    also reset the panel); `presenter` says hints and speaks the match's language."""

    def __init__(
        self,
        config: Config,
        desk: SetupDesk,
        recorder: Recorder,
        presenter,
        *,
        call_later,
        commit,
        new_match,
        clock=lambda: 0.0,
        log=print,
    ) -> None:
        self.config = config
        self.desk = desk
        self.recorder = recorder
        self.presenter = presenter
        self.call_later = call_later
        self.commit = commit
        self.new_match = new_match
        self.clock = clock
        self.log = log
        self.opened_by_itself: float | None = None  # when the setup opened by itself
        self._take_when_closed = False  # settings came while the result was being confirmed

    @property
    def match(self):
        return self.recorder.match

    def press(self, event: ButtonPress | ButtonHold) -> None:
        """A button while the setup screen is open (table/setup/model.py)."""
        asks = self.desk.press(event.button, held=isinstance(event, ButtonHold))
        if asks == model.START:
            self.take_settings(self.desk.draft.settings)
        elif asks not in (None, model.CLOSE):
            self.presenter.set_hint(asks)

    def sent(self, event: SetupNext) -> None:
        """Settings sent through the queue (the phone, the club): table/setup/command.py."""
        try:
            settings = command.resolve(event, self.desk.next_settings())
        except SettingsError as exc:
            self.log(f"setup from {event.source} refused: {exc}")
            event.answer(False, str(exc))
            return
        if "breaker" not in (event.fields or {}) and event.settings is None:
            settings = dataclasses.replace(settings, breaker=self._breaker_for(settings))
        if self.desk.is_open:
            self.desk.show(settings)
            where = command.ON_SCREEN
        elif self.not_begun() or self.result_closed_now():
            where = self.take_settings(settings)
        else:
            self.desk.wait(settings)
            # Sent once the match was over: taken the moment its players close the result.
            self._take_when_closed = self.match.phase == Phase.MATCH_OVER
            self.presenter.set_hint("setup-next-match")
            where = command.PENDING
        self.log(f"setup from {event.source}: {where}")
        event.answer(True, where)

    def result_closed_now(self) -> bool:
        """The match is over and its players have closed its result (issue 34): confirmed,
        or their time ran out. Only then is the table free for another match."""
        lines = self.recorder.storage.lines
        return self.match.phase == Phase.MATCH_OVER and confirmation_of(lines).closed is not None

    def result_closed(self) -> None:
        """The result is closed: a club's game that waited for the table, or settings sent
        after the match ended, are taken at once; else the result stays, then the setup
        screen opens by itself."""
        waiting, sent_after = self.desk.kept.pending, self._take_when_closed
        self._take_when_closed = False
        if waiting is not None and (waiting.assign or sent_after):
            self.log(f"the result is closed: the next match starts ({waiting.assign or 'sent'})")
            self.take_settings(waiting)
            return
        self.after_result()

    def after_result(self) -> None:
        """A finished match whose result is closed: it is shown, then the setup screen opens
        by itself."""
        if not self.result_closed_now() or self.desk.is_open:
            return
        match, events = self.match, len(self.match.events)

        def result_shown():
            # The same match, as it was closed: not a later one (a rematch that ended with as
            # many events), nor this one taken back and ended again.
            same = self.match is match and len(match.events) == events
            if same and self.result_closed_now() and not self.desk.is_open:
                self.desk.open()
                self.opened_by_itself = self.clock()
                self.presenter.show()

        self.call_later(self.result_seconds, result_shown)

    def swallows(self, event) -> bool:
        """A press within a moment of the setup screen opening by itself was meant for the
        screen before it (a page, the result): it does nothing (issue 34: a press that turned
        a page never starts a match)."""
        opened, self.opened_by_itself = self.opened_by_itself, None
        return opened is not None and event.t - opened < OPENED_GUARD

    @property
    def result_seconds(self) -> float:
        """How long a finished match's result and statistics pages are shown before the setup
        screen opens by itself."""
        return max(RESULT_SECONDS, len(PAGES) * self.config.display.page_seconds)

    def _breaker_for(self, settings: MatchSettings) -> str:
        """Who breaks, for settings that do not say (issue 22; GR-8: the lag decides, or the
        players agree beforehand): the same two players who chose at the table and have not
        shot yet keep their choice ("Олена breaks"); anyone else lags for it (a choice of the
        last match is never carried into another)."""
        state = self.match.state
        chosen = self.match.phase == Phase.BREAK and state.breaker in ("A", "B")
        same = [log_name(p) for p in settings.players] == [log_name(p) for p in state.players]
        kept = chosen and same and self.not_begun() and not self.desk.is_open
        return state.breaker if kept else "lag"

    def not_begun(self) -> bool:
        """No shot yet: the match may still take other settings (a chosen breaker is undone)."""
        return not self.match.state.started and self.match.phase in (Phase.LAG, Phase.BREAK)

    def take_settings(self, settings: MatchSettings) -> str:
        """Start with `settings`: this match if nothing is played yet, else a new match. The
        setup's own file is written first: a cut before the journal takes them leaves the
        table where it was, with these settings offered again."""
        self.desk.started(settings)
        if not self.not_begun():
            self.new_match(settings)
            return command.STARTED
        # A breaker chosen goes as if never chosen (UNDO would bring back a cancelled step).
        undo = [CANCEL] if self.match.events and isinstance(self.match.events[-1], Break) else []
        lines = setup_lines(self.config, settings)[1:]
        items = tuple(undo) + tuple(i for i in map(parse_line, lines) if i is not None)
        if self.holds_already(items, settings):  # sent again: nothing to write (issue 21)
            return command.APPLIED
        comment = [line for line in lines if line.startswith((LANG_COMMENT, ASSIGN_COMMENT))]
        if not settings.assign and assign_of(self.recorder.storage.lines) is not None:
            comment.append(ASSIGN_COMMENT)  # other settings: no longer the club's game
        if self.commit(Outcome(items=items), mark=comment or [f"{LANG_COMMENT}{settings.lang}"]):
            self.follow_language()
        return command.APPLIED

    def holds_already(self, items: tuple, settings: MatchSettings) -> bool:
        """The match, not begun, has `settings` already: taking `items` would change nothing
        but the journal's length (a phone or the club sending the same settings again)."""
        try:
            after = self.match.preview(list(items))
        except RuleError:
            return False
        lines = self.recorder.storage.lines
        lang = lang_of(lines) or self.config.display.language
        tagged = not settings.assign or settings.assign == assign_of(lines)
        return after == (self.match.phase, self.match.state) and settings.lang == lang and tagged

    def set_language(self, lang: str) -> None:
        """The match's language from now on (the simulator's language key): written with the
        match, as the setup screen's choice is, so a restart keeps it."""
        self.recorder.write([f"{LANG_COMMENT}{lang}"])
        self.presenter.speak(lang)  # whatever the disk could keep

    def follow_language(self) -> None:
        """The screens in the match's language: its setup's, else the config's."""
        self.presenter.speak(lang_of(self.recorder.storage.lines) or self.config.display.language)

    def reconfigure(self, config: Config) -> None:
        """A changed config's players and match settings: for this match if nothing has been
        played in it yet, else for the next one. The display says which, once."""
        old, self.config = self.config, config
        self.desk.config = config
        if config.display.language != old.display.language:
            self.presenter.speak(config.display.language)
        settings = from_config(config)
        if dataclasses.replace(settings, lang="en") == dataclasses.replace(
            from_config(old), lang="en"
        ):
            self.log("config reloaded")
            return
        if self.match.events and not all(isinstance(e, SETUP) for e in self.match.events):
            self.log("config reloaded: the new players and settings are for the next match")
            self.desk.wait(settings)
            self.presenter.set_hint("config-next-match")
            return
        lines = [line for line in settings.lines() if not line.startswith(LANG_COMMENT)]
        items = tuple(parse_line(line) for line in lines)
        if self.commit(Outcome(items=items)):
            self.desk.started(settings)
            self.log("config reloaded: this match has the new players and settings")
            self.presenter.set_hint("config-applied")
