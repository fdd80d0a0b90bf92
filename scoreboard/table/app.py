"""The appliance: inputs → one event loop → panel → match → journal (durable) → screens.

Every accepted step is applied in memory, appended to the journal and fsynced, and only
then shown. On start the journal is replayed, so after a power cut the screens show
exactly the last state they showed. When the disk refuses a write, the step is still shown,
marked "not saved", and kept in memory until the disk takes it (scoreboard/store/storage.py).
"""

import dataclasses
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from scoreboard.config import Config
from scoreboard.core.frame_clock import TimeMark, format_mark, parse_mark
from scoreboard.core.match import CANCEL, Match
from scoreboard.core.matchlog import LogError, format_event, parse_line, replay
from scoreboard.core.phase import OVER, Phase
from scoreboard.core.settings import (
    LANG_COMMENT,
    MatchSettings,
    SettingsError,
    from_config,
    lang_of,
)
from scoreboard.core.summary import summarise
from scoreboard.inputs.events import (
    BoardHello,
    ButtonHold,
    ButtonPress,
    Pot,
)
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Break
from scoreboard.store.journal import last_archived
from scoreboard.store.pot_ledger import PotLedger, is_board_pot
from scoreboard.store.storage import Storage
from scoreboard.table.faults import Faults
from scoreboard.table.loop import EventLoop
from scoreboard.table.panel import SETUP, Outcome, Panel
from scoreboard.table.phone_control import PhoneControl
from scoreboard.table.screen_saver import ScreenSaver
from scoreboard.table.service import Service
from scoreboard.table.setup import command, model
from scoreboard.table.setup.command import SetupNext
from scoreboard.table.setup.desk import SetupDesk
from scoreboard.table.shot_clock import ShotClock
from scoreboard.table.stats_pages import PAGES, StatsPages

LOGGER = logging.getLogger("scoreboard")
HINT_SECONDS = 4.0
# What the app adds to the match's snapshot for the screens only, never in the journal: the
# open setup screen, the page between frames, the shot's time left.
SCREEN_ONLY = ("setup", "page", "shot_clock")
# How long the result of a finished match is shown before the setup screen opens by itself
# (A, B or FOUL opens it sooner; UNDO still takes back the last step): at least this, and long
# enough for each statistics page to have been shown once (stats_pages.py).
RESULT_SECONDS = 30.0


def _is_input(event) -> bool:
    """A player's input, or settings sent for the match: it takes a waiting FOUL step first."""
    return isinstance(event, Pot | ButtonPress | ButtonHold | SetupNext)


def setup_lines(config: Config, settings: MatchSettings | None = None) -> list[str]:
    """The first record of a new match: when it started and its settings (the config's, or
    `settings` chosen at the table or sent for it). The language is written only when it is
    not the config's: a match set up in another language keeps it across a restart."""
    started = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    settings = settings or from_config(config)
    lines = settings.lines()
    if settings.lang == config.display.language:
        lines = [line for line in lines if not line.startswith(LANG_COMMENT)]
    return [f"# match started {started}", *lines]


@dataclass
class Shown:
    """What the screens were last asked to show."""

    snapshot: dict
    faults: tuple
    hint: str | None

    def data(self) -> tuple[dict, list[dict]]:
        """The match's data, for those who watch from outside (the socket, the web, MQTT):
        the snapshot without what only the screens show (SCREEN_ONLY), the faults without
        which of their pages a small screen shows now. A shot clock's tick changes neither."""
        snapshot = {k: v for k, v in self.snapshot.items() if k not in SCREEN_ONLY}
        faults = [{k: v for k, v in f.items() if k != "page"} for f in self.faults]
        return snapshot, faults


class App:
    def __init__(
        self,
        config: Config,
        *,
        state_dir: str,
        screens: list,
        clock=time.monotonic,
        wall_clock=time.time,
        notifier=None,
        log=None,
        storage: Storage | None = None,
    ) -> None:
        self.config = config
        # The journal's time marks: the wall clock read once, then the loop's steady clock,
        # so a frame's time is exact even if the wall clock is set (NTP) while it is played.
        self._wall_start = wall_clock() - clock()
        self.screens = screens
        # Messages go to stderr (the systemd journal) through logging, at the config's level;
        # a test passes its own `log` for both kinds.
        self.log = log or LOGGER.info
        self.warn = log or LOGGER.warning
        self.loop = EventLoop(self.handle, clock=clock)
        self.service = Service(notifier, self.loop)
        # Taken by the wiring before the displays when it runs for real (the lock).
        self.storage = storage or Storage(state_dir, log=self.log, warn=self.warn)
        self.storage.start()
        # The setup screen and the next match's settings (scoreboard/table/setup/).
        self.desk = SetupDesk(state_dir, config, warn=self.warn)
        self.match = self._resume()
        # Which board pots the journal holds (pot_ledger.py). A new match carries them
        # over; a power cut between the archive and the new match's first record leaves
        # them in the last archived journal only.
        self.ledger = PotLedger(
            self._last_archived_lines(), self.storage.lines, write=self._write, log=self.warn
        )
        self.storage.on_durable = self.ledger.durable
        self.panel = self._new_panel()
        self.faults = Faults()
        self.hint: str | None = None
        self._hint_timer = None
        self.shown: Shown | None = None
        self._frame_bytes = 0
        self.extra_handlers: dict[type, object] = {}  # events the wiring handles itself
        # Told of each record written (`written(lines, first_line_number)`) and each new
        # picture (`shown(Shown)`), on the loop's thread; they must never wait (bridge/).
        self.observers: list = []
        self._restorable: int | None = None  # the match a new match just archived
        self._settle_timer = None  # when a waiting FOUL step is taken (panel.py)
        # OLED burn-in: dim, then a moving saver; the press that wakes it does nothing else.
        self.saver = ScreenSaver.from_config(config.display, screens, self.loop.call_later)
        # Phones (issue 12): the pairing code, and a phone's change waiting for an OK press.
        self.phone = PhoneControl(self)
        self.lang = config.display.language  # the match's language (its setup, or the config's)
        self._follow_language()
        # Between frames: the result, then statistics pages (FOUL, or [display] page_seconds).
        self.pages = StatsPages(
            self.loop.call_later, every=config.display.page_seconds, on_turn=self.show
        )
        # An advisory shot clock ([shot_clock]), and the beeper where the wiring fitted one.
        self.beeper = None
        self.shot_clock = ShotClock.from_config(
            config.shot_clock,
            self.loop.call_at,
            self.loop.clock,
            on_tick=self.show,
            beep=self._shot_clock_says,
        )

    def _new_panel(self) -> Panel:
        return Panel(self.match, **self._panel_timings())

    def _panel_timings(self) -> dict:
        """The panel's windows, from the config's [timings]."""
        t = self.config.timings
        return {
            "shot_pause": t.shot_pause,
            "foul_kind_window": t.foul_kind_window,
            "penalty_window": t.penalty_ball_window,
        }

    def _last_archived_lines(self) -> list[str]:
        try:
            archived = last_archived(self.storage.state_dir, keep_index=True)
            return archived.lines() if archived else []
        except OSError:
            return []  # an unreadable archive: the storage fault says so

    # -- start ---------------------------------------------------------------------------------
    def _resume(self) -> Match:
        """Replay the journal; start a new match from the config when it is empty."""
        if not self.storage.lines:
            self.storage.append(setup_lines(self.config, self.desk.next_settings()))
        try:
            return replay(self.storage.lines)
        except LogError as exc:
            # Never refuse to start: keep the match up to the line the rules refuse,
            # archive the journal as it was, and go on from the part that replays.
            self.warn(f"journal: {exc}; the lines from there on are kept in the archive")
            good = self.storage.lines[: exc.line_no - 1] or setup_lines(self.config)
            self.storage.archive({"unreplayable": str(exc)})
            self.storage.append(good)
            return replay(good)

    def drop_question(self) -> None:
        """The question UNDO held asked is gone (a phone's request took its place, a remote
        UNDO came): no button answers it any more."""
        self.panel.drop_question()

    def start(self) -> None:
        """Show the first frame and tell systemd we are ready (Type=notify)."""
        self._after_result()
        self.show()
        self.service.ready()

    # -- events --------------------------------------------------------------------------------
    def handle(self, event) -> None:
        """Everything that happens, one event at a time, on the loop's thread."""
        extra = self.extra_handlers.get(type(event))
        if extra is not None:
            extra(event)
            return
        if self.panel.pending and not self.panel.steps_on(event) and _is_input(event):
            # A FOUL step that would end the frame is taken where the stepping stops: here.
            self._settle()
            if isinstance(event, ButtonPress | ButtonHold):
                self.show()  # the press that stopped it does nothing else (the frame ended)
                return
        if self.saver.woken_by(event):
            return
        if self.phone.takes(event):  # a press that closed the pairing code or answered a phone
            self.show()
            return
        # UNDO held asked "UNDO: new match, FOUL: pair a phone": the next button is its answer
        # in every phase (panel.py), never a page, the setup screen or the shot clock's.
        answer = isinstance(event, ButtonPress | ButtonHold) and self.panel.asking(event.t)
        if not (answer or self.desk.is_open) and self.pages.takes(event, self.match.phase):
            self.show()  # FOUL between frames turns the statistics page (stats_pages.py)
            return
        if not answer and self.shown and self.shot_clock.takes(event, self.shown.snapshot):
            self.show()  # the striker's own button: his extension (shot_clock.py)
            return
        self.storage.retry()  # records kept while the disk refused them go first
        if is_board_pot(event) and not self.ledger.admit(event):
            self.show()  # taken already, waiting for an earlier one, or refused (a fault)
            return
        self.faults.note(event)
        match event:
            case BoardHello():
                self.ledger.hello(event)
            case SetupNext():
                self._setup_next(event)
            case ButtonPress() | ButtonHold() if answer:
                if self.desk.is_open:  # it opened by itself after a match, over the question
                    self.desk.close()
                self.hint = None  # the question is answered: its words go
                self._play(self.panel.handle(event))
            case ButtonHold(button="undo") if self.desk.is_open:
                self.desk.close()  # UNDO held asks for a new match, in the setup too
                self._play(self.panel.handle(event))
            case ButtonPress() | ButtonHold() if self.desk.is_open:
                self._setup_press(event)
            case ButtonHold(button="foul") if self.match.phase == Phase.LAG:
                self.desk.open()  # the long press from the lag screen: set up the match
            case ButtonPress(button="A" | "B" | "foul") if self.match.phase == Phase.MATCH_OVER:
                self.desk.open()  # the result has been shown: set up the next match
            case Pot() | ButtonPress() | ButtonHold():
                self._play(self.panel.handle(event), pot=event if isinstance(event, Pot) else None)
        self.show()

    # -- the next match's settings (scoreboard/table/setup/) ----------------------------------
    def _setup_press(self, event: ButtonPress | ButtonHold) -> None:
        """A button while the setup screen is open (table/setup/model.py)."""
        asks = self.desk.press(event.button, held=isinstance(event, ButtonHold))
        if asks == model.START:
            self.take_settings(self.desk.draft.settings)
        elif asks not in (None, model.CLOSE):
            self.set_hint(asks)

    def _setup_next(self, event: SetupNext) -> None:
        """Settings sent through the queue (the phone, the club): table/setup/command.py."""
        try:
            settings = command.resolve(event, self.desk.next_settings())
        except SettingsError as exc:
            self.log(f"setup from {event.source} refused: {exc}")
            event.answer(False, str(exc))
            return
        if self.desk.is_open:
            self.desk.show(settings)
            where = command.ON_SCREEN
        elif self._not_begun() or self.match.phase == Phase.MATCH_OVER:
            where = self.take_settings(settings)
        else:
            self.desk.wait(settings)
            self.set_hint("setup-next-match")
            where = command.PENDING
        self.log(f"setup from {event.source}: {where}")
        event.answer(True, where)

    def _after_result(self) -> None:
        """A finished match: its result is shown, then the setup screen opens by itself."""
        if self.match.phase != Phase.MATCH_OVER or self.desk.is_open:
            return
        events = len(self.match.events)

        def result_shown():
            same = self.match.phase == Phase.MATCH_OVER and len(self.match.events) == events
            if same and not self.desk.is_open:
                self.desk.open()
                self.show()

        self.loop.call_later(self.result_seconds, result_shown)

    @property
    def result_seconds(self) -> float:
        """How long a finished match's result and statistics pages are shown before the setup
        screen opens by itself."""
        return max(RESULT_SECONDS, len(PAGES) * self.config.display.page_seconds)

    def _not_begun(self) -> bool:
        """No shot yet: the match may still take other settings (a chosen breaker is undone)."""
        return not self.match.state.started and self.match.phase in (Phase.LAG, Phase.BREAK)

    def take_settings(self, settings: MatchSettings) -> str:
        """Start with `settings`: this match if nothing is played yet, else a new match. The
        setup's own file is written first: a cut before the journal takes them leaves the
        table where it was, with these settings offered again."""
        self.desk.started(settings)
        if not self._not_begun():
            self.new_match(settings)
            return command.STARTED
        # A breaker chosen goes as if never chosen (UNDO would bring back a cancelled step).
        undo = [CANCEL] if self.match.events and isinstance(self.match.events[-1], Break) else []
        lines = setup_lines(self.config, settings)[1:]
        items = tuple(undo) + tuple(i for i in map(parse_line, lines) if i is not None)
        comment = [line for line in lines if line.startswith(LANG_COMMENT)]
        if self.commit(Outcome(items=items), mark=comment or [f"{LANG_COMMENT}{settings.lang}"]):
            self._follow_language()
        return command.APPLIED

    def set_language(self, lang: str) -> None:
        """The match's language from now on (the simulator's language key): written with the
        match, as the setup screen's choice is, so a restart keeps it."""
        self._write([f"{LANG_COMMENT}{lang}"])
        self._follow_language()

    def _follow_language(self) -> None:
        """The screens in the match's language: its setup's, else the config's."""
        lang = lang_of(self.storage.lines) or self.config.display.language
        if lang != self.lang:
            self.lang = lang
            for screen in self.screens:
                if hasattr(screen, "lang"):
                    screen.lang = lang
            self.shown = None

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
        elif outcome.restore_match and self._restorable is not None:
            self._restore_match()
            return
        else:
            committed = bool(outcome.items) and self.commit(outcome, mark=mark)
            if not committed and mark:
                self._write(mark)  # a pot that scored nothing is still one the board may forget
            if outcome.items and not committed:
                return  # refused: the rules' words (commit) stay, never the step's own hint
        if outcome.hint:
            self.set_hint(outcome.hint, outcome.hint_seconds or HINT_SECONDS)
        elif outcome.items:  # a step that says itself (its own screen): older words would
            self._clear_hint()  # speak of another step ("Foul Olena: cue-tip" on a new foul)

    def _write(self, lines: list[str]) -> bool:
        """Append one record: True once durable (its board pots acked by `ledger.durable`);
        else kept until the disk takes it."""
        self.ledger.take(lines)
        before = self.storage.bytes_written
        durable = self.storage.append(lines)
        for observer in self.observers:
            observer.written(lines, len(self.storage.lines) - len(lines) + 1)
        self._frame_bytes += self.storage.bytes_written - before
        if not durable:
            self.ledger.relieve()  # a long fault must not fill the board's room for balls
        return durable

    def commit(self, outcome: Outcome, *, mark: list[str] = ()) -> bool:
        """Apply, make durable (or keep until the disk takes it), then (the caller) show.
        A step the rules refuse is a hint, never a crash."""
        items = list(outcome.items)
        frame, phase = self.match.state.frame, self.match.phase
        # When this step happened, as its time mark reads back: a frame's first shot and its
        # end are dated in the journal (frame_clock.py), so replay gives the same frame times.
        now = parse_mark(format_mark(TimeMark(self._wall_start + self.loop.clock())))
        dated = self.match.clock.used
        self.match.clock.mark(now.t)
        try:
            self.match.apply_all(items)
        except RuleError as exc:
            self.log(f"refused: {exc}")
            self.set_hint(exc.hint)
            return False
        lines = [format_event(item) for item in items] + list(mark)
        if self.match.clock.used != dated:
            lines.insert(0, format_mark(now))
        self._write(lines)
        self.panel.applied(outcome)
        self._restorable = None  # play has begun: UNDO takes back play from now on
        if self.match.phase == Phase.MATCH_OVER and phase != Phase.MATCH_OVER:
            self._after_result()
        if self.match.phase in OVER and phase not in OVER:
            s = self.match.state
            self.log(
                f"frame {frame} over: {s.score.A}:{s.score.B}; "
                f"{self._frame_bytes} bytes written to the journal this frame"
            )
            self._frame_bytes = 0
        return True

    def new_match(self, settings: MatchSettings | None = None) -> None:
        """Archive this match (finished or not) and start a new one with `settings` (the
        next match's: sent for it, else the last match's, else the config's)."""
        meta = summarise(self.match, self.storage.lines)
        # In memory at once; on disk in this order, now or once the disk takes it again.
        saved = self.storage.archive(meta)
        archived = last_archived(self.storage.state_dir) if saved else None
        settings = settings or self.desk.next_settings()
        self._write(setup_lines(self.config, settings) + self.ledger.carry())
        self._restorable = archived.number if archived else None
        self.hint = None  # the question about a new match is answered
        self.match = replay(self.storage.lines)
        self.panel = self._new_panel()
        self.faults.new_match()
        self._follow_language()

    def _restore_match(self) -> None:
        """UNDO right after a new match, before any play: the archived match comes back
        exactly as it was (docs/decisions.md), its board pots still known."""
        number, self._restorable = self._restorable, None
        if not self.storage.unarchive(number):
            self.set_hint("nothing-to-undo")
            return
        if carry := self.ledger.carry():
            self._write(carry)
        self.match = replay(self.storage.lines)
        self.panel = self._new_panel()
        self._follow_language()
        self.set_hint("match-restored")

    def reconfigure(self, config: Config) -> None:
        """A changed config, taken without a restart (SIGHUP, `systemctl reload`): timings and
        language at once; players and match settings for this match if nothing has been
        played in it yet, else for the next one. The display says which, once."""
        old, self.config = self.config, config
        self.desk.config = config
        for name, value in self._panel_timings().items():  # the open shot stays open
            setattr(self.panel, name, value)
        self.pages.every = config.display.page_seconds
        s = config.shot_clock
        self.shot_clock.seconds, self.shot_clock.warning = s.seconds, s.warning
        self.shot_clock.extension = s.extension
        if config.display.language != old.display.language:
            self.lang = config.display.language
            for screen in self.screens:
                if hasattr(screen, "lang"):
                    screen.lang = config.display.language
            self.shown = None  # the same state, drawn again in the new language
        settings = from_config(config)
        if dataclasses.replace(settings, lang="en") == dataclasses.replace(
            from_config(old), lang="en"
        ):
            self.log("config reloaded")
            return
        if self.match.events and not all(isinstance(e, SETUP) for e in self.match.events):
            self.log("config reloaded: the new players and settings are for the next match")
            self.desk.wait(settings)
            self.set_hint("config-next-match")
            return
        lines = [line for line in settings.lines() if not line.startswith(LANG_COMMENT)]
        items = tuple(parse_line(line) for line in lines)
        if self.commit(Outcome(items=items)):
            self.desk.started(settings)
            self.log("config reloaded: this match has the new players and settings")
            self.set_hint("config-applied")

    def _shot_clock_says(self, name: str) -> None:
        """The shot clock's moments: a beep where a beeper is fitted, and a word on screen."""
        if self.beeper is not None:
            self.beeper.play(name)
        if name in ("time-up", "extension"):
            striker = self.match.state.striker
            who = self.match.state.players[striker].replace("_", " ") if striker else ""
            self.set_hint((name, (("name", who),)))

    def set_hint(self, hint: str | tuple, seconds: float = HINT_SECONDS) -> None:
        self.hint = hint
        if self._hint_timer:
            self._hint_timer.cancel()
        self._hint_timer = self.loop.call_later(seconds, self._clear_hint)

    def _clear_hint(self) -> None:
        if self._hint_timer:
            self._hint_timer.cancel()
        self.hint, self._hint_timer = None, None
        self.show()

    # -- output --------------------------------------------------------------------------------
    def show(self) -> None:
        """Redraw every screen (each redraws only if its picture changed)."""
        faults = (*self.faults.shown(), *self.ledger.faults())
        if (not_saved := self.storage.shown_fault()) is not None:
            faults = (not_saved, *faults)  # first: it is what the table must know now
            self.storage.keep_trying(self.loop.call_later, self.show)
        snapshot = self.match.snapshot()
        if self.desk.is_open:  # the setup screen over the match (docs/ARCHITECTURE.md)
            snapshot["setup"] = self.desk.view()
        self.pages.follow(snapshot["phase"])
        if self.pages.current:  # which page between frames: for the screens only
            snapshot["page"] = self.pages.current
        self.shot_clock.follow(snapshot)
        if clock := self.shot_clock.view():  # the shot's time: for the screens only
            snapshot["shot_clock"] = clock
        shown = Shown(snapshot, faults, self.hint)
        if shown == self.shown:
            return
        self.shown = shown
        for screen in self.screens:
            try:
                screen.show(shown.snapshot, faults=shown.faults, hint=shown.hint)
            except Exception as exc:  # one failing display must not stop the others
                self.warn(f"display {screen}: {exc}")
        for observer in self.observers:
            observer.shown(shown)

    def close(self) -> None:
        self.storage.close()
