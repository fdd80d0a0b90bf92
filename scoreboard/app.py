"""The appliance: inputs → one event loop → panel → match → journal (durable) → screens.

Every accepted step is applied in memory, appended to the journal and fsynced, and only
then shown. On start the journal is replayed, so after a power cut the screens show
exactly the last state they showed. When the disk refuses a write, the step is still shown,
marked "not saved", and kept in memory until the disk takes it (scoreboard/storage.py).
"""

import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from scoreboard.config import Config
from scoreboard.faults import Faults
from scoreboard.inputs.events import (
    BoardHello,
    ButtonHold,
    ButtonPress,
    Pot,
)
from scoreboard.journal import last_archived
from scoreboard.loop import EventLoop
from scoreboard.match import Match
from scoreboard.matchlog import LogError, format_event, parse_line, replay
from scoreboard.panel import SETUP, Outcome, Panel
from scoreboard.phase import OVER
from scoreboard.pot_ledger import PotLedger, is_board_pot
from scoreboard.rules.errors import RuleError
from scoreboard.screensaver import ScreenSaver
from scoreboard.service import Service
from scoreboard.storage import Storage
from scoreboard.summary import summarise

LOGGER = logging.getLogger("scoreboard")
HINT_SECONDS = 4.0


def setup_lines(config: Config) -> list[str]:
    """The first record of a new match: when it started and its settings from the config."""
    m, started = config.match, datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return [
        f"# match started {started}",
        f"players {log_name(m.player_a)} {log_name(m.player_b)}",
        f"race {m.race}",
        f"target {m.target}",
        f"option jumped-ball={config.rules.jumped_ball}",
        f"option penalty={config.rules.penalty}",
    ]


def log_name(name: str) -> str:
    """A name as one word of the match log: spaces become underscores (shown as spaces)."""
    return "_".join(name.split())


@dataclass
class Shown:
    """What the screens were last asked to show."""

    snapshot: dict
    faults: tuple
    hint: str | None


class App:
    def __init__(
        self,
        config: Config,
        *,
        state_dir: str,
        screens: list,
        clock=time.monotonic,
        notifier=None,
        log=None,
        storage: Storage | None = None,
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
        self._restorable: int | None = None  # the match a new match just archived
        # OLED burn-in: dim, then a moving saver; the press that wakes it does nothing else.
        self.saver = ScreenSaver.from_config(config.display, screens, self.loop.call_later)

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
            self.storage.append(setup_lines(self.config))
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

    def start(self) -> None:
        """Show the first frame and tell systemd we are ready (Type=notify)."""
        self.show()
        self.service.ready()

    # -- events --------------------------------------------------------------------------------
    def handle(self, event) -> None:
        """Everything that happens, one event at a time, on the loop's thread."""
        extra = self.extra_handlers.get(type(event))
        if extra is not None:
            extra(event)
            return
        if self.saver.woken_by(event):
            return
        self.storage.retry()  # records kept while the disk refused them go first
        if is_board_pot(event) and not self.ledger.admit(event):
            self.show()  # taken already, waiting for an earlier one, or refused (a fault)
            return
        self.faults.note(event)
        match event:
            case BoardHello():
                self.ledger.hello(event)
            case Pot() | ButtonPress() | ButtonHold():
                self._play(self.panel.handle(event), pot=event if isinstance(event, Pot) else None)
        self.show()

    def _play(self, outcome: Outcome, *, pot: Pot | None = None) -> None:
        mark = self.ledger.mark(pot)
        if outcome.new_match:
            self.new_match()
        elif outcome.restore_match and self._restorable is not None:
            self._restore_match()
            return
        elif not (outcome.items and self.commit(outcome, mark=mark)) and mark:
            self._write(mark)  # a pot that scored nothing is still one the board may forget
        if outcome.hint:
            self.set_hint(outcome.hint)

    def _write(self, lines: list[str]) -> bool:
        """Append one record: True once durable (its board pots acked by `ledger.durable`);
        else kept until the disk takes it."""
        self.ledger.take(lines)
        before = self.storage.bytes_written
        durable = self.storage.append(lines)
        self._frame_bytes += self.storage.bytes_written - before
        if not durable:
            self.ledger.relieve()  # a long fault must not fill the board's room for balls
        return durable

    def commit(self, outcome: Outcome, *, mark: list[str] = ()) -> bool:
        """Apply, make durable (or keep until the disk takes it), then (the caller) show.
        A step the rules refuse is a hint, never a crash."""
        items = list(outcome.items)
        frame, phase = self.match.state.frame, self.match.phase
        try:
            self.match.apply_all(items)
        except RuleError as exc:
            self.log(f"refused: {exc}")
            self.set_hint(exc.hint)
            return False
        self._write([format_event(item) for item in items] + list(mark))
        self.panel.applied(outcome)
        self._restorable = None  # play has begun: UNDO takes back play from now on
        if self.match.phase in OVER and phase not in OVER:
            s = self.match.state
            self.log(
                f"frame {frame} over: {s.score.A}:{s.score.B}; "
                f"{self._frame_bytes} bytes written to the journal this frame"
            )
            self._frame_bytes = 0
        return True

    def new_match(self) -> None:
        """Archive this match (finished or not) and start a new one from the config."""
        meta = summarise(self.match, self.storage.lines)
        # In memory at once; on disk in this order, now or once the disk takes it again.
        saved = self.storage.archive(meta)
        archived = last_archived(self.storage.state_dir) if saved else None
        self._write(setup_lines(self.config) + self.ledger.carry())
        self._restorable = archived.number if archived else None
        self.hint = None  # the question about a new match is answered
        self.match = replay(self.storage.lines)
        self.panel = self._new_panel()
        self.faults.new_match()

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
        self.set_hint("match-restored")

    def reconfigure(self, config: Config) -> None:
        """A changed config, taken without a restart (SIGHUP, `systemctl reload`): timings and
        language at once; players and match settings for this match if nothing has been
        played in it yet, else for the next one. The display says which, once."""
        old, self.config = self.config, config
        for name, value in self._panel_timings().items():  # the open shot stays open
            setattr(self.panel, name, value)
        if config.display.language != old.display.language:
            for screen in self.screens:
                if hasattr(screen, "lang"):
                    screen.lang = config.display.language
            self.shown = None  # the same state, drawn again in the new language
        settings = setup_lines(config)[1:]  # without the time it started
        if settings == setup_lines(old)[1:]:
            self.log("config reloaded")
            return
        if self.match.events and not all(isinstance(e, SETUP) for e in self.match.events):
            self.log("config reloaded: the new players and settings are for the next match")
            self.set_hint("config-next-match")
            return
        items = tuple(parse_line(line) for line in settings)
        if self.commit(Outcome(items=items)):
            self.log("config reloaded: this match has the new players and settings")
            self.set_hint("config-applied")

    def set_hint(self, hint: str) -> None:
        self.hint = hint
        if self._hint_timer:
            self._hint_timer.cancel()
        self._hint_timer = self.loop.call_later(HINT_SECONDS, self._clear_hint)

    def _clear_hint(self) -> None:
        self.hint, self._hint_timer = None, None
        self.show()

    # -- output --------------------------------------------------------------------------------
    def show(self) -> None:
        """Redraw every screen (each redraws only if its picture changed)."""
        faults = (*self.faults.shown(), *self.ledger.faults())
        if (not_saved := self.storage.shown_fault()) is not None:
            faults = (not_saved, *faults)  # first: it is what the table must know now
            self.storage.keep_trying(self.loop.call_later, self.show)
        shown = Shown(self.match.snapshot(), faults, self.hint)
        if shown == self.shown:
            return
        self.shown = shown
        for screen in self.screens:
            try:
                screen.show(shown.snapshot, faults=shown.faults, hint=shown.hint)
            except Exception as exc:  # one failing display must not stop the others
                self.warn(f"display {screen}: {exc}")

    def close(self) -> None:
        self.storage.close()
