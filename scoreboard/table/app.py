"""The table: inputs → one event loop → the input filters → the panel → the recorder
(durable) → the presenter (screens and watchers).

Every accepted step is applied in memory, appended to the journal and fsynced, and only
then shown. On start the journal is replayed, so after a power cut the screens show
exactly the last state they showed. When the disk refuses a write, the step is still shown,
marked "not saved", and kept in memory until the disk takes it (scoreboard/store/storage.py).
"""

import logging
import time

from scoreboard.config import Config
from scoreboard.core.phase import Phase
from scoreboard.inputs.events import BoardHello, ButtonHold, ButtonPress, Pot
from scoreboard.store.pot_ledger import is_board_pot
from scoreboard.store.storage import Storage
from scoreboard.table.controls import Controls
from scoreboard.table.faults import Faults
from scoreboard.table.filters import standard_filters
from scoreboard.table.loop import EventLoop
from scoreboard.table.outcome import Outcome
from scoreboard.table.panel import Panel
from scoreboard.table.phone_control import PhoneControl
from scoreboard.table.presenter import HINT_SECONDS, Presenter
from scoreboard.table.recorder import Recorder
from scoreboard.table.result_confirm import ResultConfirm
from scoreboard.table.scene import scene
from scoreboard.table.screen_saver import ScreenSaver
from scoreboard.table.service import Service
from scoreboard.table.setup.command import SetupNext
from scoreboard.table.setup.desk import SetupDesk
from scoreboard.table.setup_flow import SetupFlow
from scoreboard.table.shot_clock import ShotClock
from scoreboard.table.stats_pages import StatsPages
from scoreboard.table.steps import Steps

LOGGER = logging.getLogger("scoreboard")


def _is_input(event) -> bool:
    """A player's input, or settings sent for the match: it takes a waiting FOUL step first."""
    return isinstance(event, Pot | ButtonPress | ButtonHold | SetupNext)


class App(Steps):
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
        beeper=None,
    ) -> None:
        self.config = config
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
        # Told of each record written (`written(lines, first_line_number)`) and each new
        # picture (`shown(Shown)`), on the loop's thread; they must never wait (bridge/).
        self.observers: list = []
        # The setup screen and the next match's settings (scoreboard/table/setup/).
        self.desk = SetupDesk(state_dir, config, warn=self.warn)
        self.recorder = Recorder(
            config,
            self.storage,
            clock=self.loop.clock,
            wall_clock=wall_clock,
            first_settings=self.desk.next_settings() if not self.storage.lines else None,
            written=self._written,
            log=self.log,
            warn=self.warn,
        )
        self.panel = self._new_panel()
        self.faults = Faults()
        self._settle_timer = None  # when a waiting FOUL step is taken (panel.py)
        self.presenter = Presenter(
            screens,
            self._scene,
            self.loop.call_later,
            lang=config.display.language,
            warn=self.warn,
        )
        self.presenter.watchers = self.observers
        # OLED burn-in: dim, then a moving saver; the press that wakes it does nothing else.
        self.saver = ScreenSaver.from_config(
            config.display, self.presenter.rest, self.loop.call_later
        )
        # Phones (issue 12): the pairing code, and a phone's change waiting for an OK press.
        self.phone = PhoneControl(
            self.presenter,
            self.loop.call_later,
            listeners=self.observers,
            drop_question=self.drop_question,
            log=self.log,
        )
        # Between frames: the result, then statistics pages (FOUL, or [display] page_seconds).
        self.pages = StatsPages(
            self.loop.call_later, every=config.display.page_seconds, on_turn=self.show
        )
        # An advisory shot clock ([shot_clock]), and the beeper where the wiring fitted one.
        self.beeper = beeper
        self.shot_clock = ShotClock.from_config(
            config.shot_clock,
            self.loop.call_at,
            self.loop.clock,
            on_tick=self.show,
            beep=self._shot_clock_says,
        )
        self.setup = SetupFlow(
            config,
            self.desk,
            self.recorder,
            self.presenter,
            call_later=self.loop.call_later,
            commit=self.commit,
            new_match=self.new_match,
            clock=self.loop.clock,
            log=self.log,
        )
        self.setup.follow_language()
        # The end of a match is the players' to confirm (issue 34): each presses his own button.
        self.confirm = ResultConfirm(
            self.recorder,
            call_later=self.loop.call_later,
            seconds=config.timings.confirm_result,
            closed=self._result_closed,
            show=self.show,
            busy=lambda: self.panel.pending,
        )
        # What takes an input before the panel, in order; the first that takes it ends it.
        self.filters = standard_filters(self)
        self.extra_handlers: dict[type, object] = {}  # events the wiring handles itself

    # -- what the parts hold, read through the table ------------------------------------------
    @property
    def match(self):
        return self.recorder.match

    @property
    def ledger(self):
        return self.recorder.ledger

    @property
    def hint(self):
        return self.presenter.hint

    @hint.setter
    def hint(self, value) -> None:
        self.presenter.hint = value

    @property
    def shown(self):
        return self.presenter.shown

    @shown.setter
    def shown(self, value) -> None:
        self.presenter.shown = value

    @property
    def lang(self) -> str:
        return self.presenter.lang

    # -- what the wiring fits -------------------------------------------------------------------
    def watch(self, observer) -> None:
        """`observer` is told of each record written and each new picture (see observers)."""
        self.observers.append(observer)

    def unwatch(self, observer) -> None:
        self.observers.remove(observer)

    def on(self, kind: type, handler) -> None:
        """Events of `kind` go to `handler` (on the loop's thread), never to the panel."""
        self.extra_handlers[kind] = handler

    def fit_beeper(self, beeper) -> None:
        """A piezo: the shot clock's beeps, and the tunes it plays for what is shown."""
        self.beeper = beeper
        self.watch(beeper)

    def controls(self) -> Controls:
        """What a command from the local socket may do here (table/controls.py)."""
        return Controls(self)

    def _new_panel(self) -> Panel:
        return Panel(self.recorder.match, **self._panel_timings())

    def _panel_timings(self) -> dict:
        """The panel's windows, from the config's [timings]."""
        t = self.config.timings
        return {
            "shot_pause": t.shot_pause,
            "miss_ball_window": t.miss_ball_window,
            "foul_kind_window": t.foul_kind_window,
            "penalty_window": t.penalty_ball_window,
        }

    def _written(self, lines: list[str], first: int) -> None:
        for observer in self.observers:
            observer.written(lines, first)

    def drop_question(self) -> None:
        """The question UNDO held asked is gone (a phone's request took its place, a remote
        UNDO came): no button answers it any more."""
        self.panel.drop_question()

    def start(self) -> None:
        """Show the first frame and tell systemd we are ready (Type=notify)."""
        self.confirm.follow()  # a match over and not yet confirmed: the time starts again
        if self.confirm.final():
            self.setup.after_result()
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
        # UNDO held asked "UNDO: new match, FOUL: pair a phone": the next button is its answer
        # in every phase (panel.py), never a page, the setup screen or the shot clock's.
        answer = isinstance(event, ButtonPress | ButtonHold) and self.panel.asking(event.t)
        for taken in self.filters:
            if taken(event, answer):
                return
        self.storage.retry()  # records kept while the disk refused them go first
        if is_board_pot(event) and not self.ledger.admit(event):
            self.show()  # taken already, waiting for an earlier one, or refused (a fault)
            return
        self.faults.note(event)
        desk = self.desk
        match event:
            case BoardHello():
                self.ledger.hello(event)
            case SetupNext():
                self.setup.sent(event)
            case ButtonPress() | ButtonHold() if answer:
                if desk.is_open:  # it opened by itself after a match, over the question
                    desk.close()
                self.hint = None  # the question is answered: its words go
                self._play(self.panel.handle(event))
            case ButtonHold(button="undo") if desk.is_open:
                desk.close()  # UNDO held asks for a new match, in the setup too
                self._play(self.panel.handle(event))
            case ButtonPress() | ButtonHold() if desk.is_open:
                if not self.setup.swallows(event):
                    self.setup.press(event)
            case ButtonHold(button="foul") if self.match.phase == Phase.LAG:
                desk.open()  # the long press from the lag screen: set up the match
            case ButtonPress(button="A" | "B") | ButtonHold(button="A" | "B") if (
                self.confirm.open()
            ):
                self.set_hint(self.confirm.press(event.button))  # issue 34: his confirmation
            case ButtonPress(button="A" | "B") | ButtonHold(button="A" | "B") if (
                self.match.phase == Phase.MATCH_OVER
            ):
                desk.open()  # the result is closed: set up the next match (held: the same)
            case Pot() | ButtonPress(button="undo" | "foul") if self.confirm.final():
                # A closed result is final at the table (issue 34); a ball is still kept, and
                # drops the question UNDO held asked, as everywhere.
                pot = event if isinstance(event, Pot) else None
                if pot is not None:
                    self.drop_question()
                self._play(Outcome(hint="result-final"), pot=pot)
            case Pot() | ButtonPress() | ButtonHold():
                self._play(self.panel.handle(event), pot=event if isinstance(event, Pot) else None)
        self.show()

    def _result_closed(self) -> None:
        """Both players confirmed the result, or their time ran out: the table is free for
        the next match (a club's game that waited for it is taken now)."""
        self.setup.result_closed()

    def remote_press(self, button: str) -> str | tuple | None:
        """A button pressed from outside (a phone's UNDO, the socket): it wakes the screens
        and still acts, never answers the question UNDO held asked; the hint it left."""
        press = ButtonPress(button, self.loop.clock())
        self.saver.woken_by(press)
        self.drop_question()
        self.hint = None
        self.handle(press)
        return self.hint

    def set_language(self, lang: str) -> None:
        self.setup.set_language(lang)

    def reconfigure(self, config: Config) -> None:
        """A changed config, taken without a restart (SIGHUP, `systemctl reload`): timings and
        language at once; players and match settings for this match if nothing has been
        played in it yet, else for the next one. The display says which, once."""
        self.config = config
        for name, value in self._panel_timings().items():  # the open shot stays open
            setattr(self.panel, name, value)
        self.pages.every = config.display.page_seconds
        self.confirm.seconds = config.timings.confirm_result  # from the next match's end
        s = config.shot_clock
        self.shot_clock.seconds, self.shot_clock.warning = s.seconds, s.warning
        self.shot_clock.extension = s.extension
        self.recorder.config = config
        self.setup.reconfigure(config)

    def _shot_clock_says(self, name: str) -> None:
        """The shot clock's moments: a beep where a beeper is fitted, and a word on screen."""
        if self.beeper is not None:
            self.beeper.play(name)
        if name in ("time-up", "extension"):
            striker = self.match.state.striker
            who = self.match.state.players[striker].replace("_", " ") if striker else ""
            self.set_hint((name, (("name", who),)))

    # -- output --------------------------------------------------------------------------------
    def set_hint(self, hint: str | tuple, seconds: float = HINT_SECONDS) -> None:
        self.presenter.set_hint(hint, seconds)

    def _scene(self) -> tuple[dict, tuple]:
        return scene(
            self.recorder, self.desk, self.pages, self.shot_clock, self.faults, self.confirm,
            call_later=self.loop.call_later, show=self.show,
        )  # fmt: skip

    def show(self) -> None:
        """Redraw every screen (each redraws only if its picture changed)."""
        self.presenter.show()

    def close(self) -> None:
        self.storage.close()
