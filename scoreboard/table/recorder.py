"""The match and its journal: every step applied in memory, appended and made durable, and
only then shown (the caller shows). On start the journal is replayed, so after a power cut
the table is exactly where it was; a new match archives this one, and UNDO right after it
brings the archived match back. When the disk refuses a write, the step is kept in memory
until the disk takes it (scoreboard/store/storage.py)."""

from datetime import UTC, datetime

from scoreboard.config import Config
from scoreboard.core.frame_clock import TimeMark, format_mark, parse_mark
from scoreboard.core.match import Match
from scoreboard.core.matchlog import LogError, format_event, replay
from scoreboard.core.phase import OVER
from scoreboard.core.settings import LANG_COMMENT, MatchSettings, from_config
from scoreboard.core.summary import summarise
from scoreboard.store.journal import last_archived
from scoreboard.store.pot_ledger import PotLedger
from scoreboard.store.storage import Storage


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


class Recorder:
    """Durable apply, archive, restore and resume. `written(lines, first_line_number)` is
    called for each record written, on the loop's thread (the socket's observers)."""

    def __init__(
        self,
        config: Config,
        storage: Storage,
        *,
        clock,
        wall_clock,
        first_settings: MatchSettings | None,
        written=lambda lines, first: None,
        log=print,
        warn=print,
    ) -> None:
        self.config = config
        self.storage = storage
        self.clock = clock
        # The journal's time marks: the wall clock read once, then the loop's steady clock,
        # so a frame's time is exact even if the wall clock is set (NTP) while it is played.
        self._wall_start = wall_clock() - clock()
        self.written = written
        self.log, self.warn = log, warn
        self.match = self._resume(first_settings)
        # Which board pots the journal holds (pot_ledger.py). A new match carries them
        # over; a power cut between the archive and the new match's first record leaves
        # them in the last archived journal only.
        self.ledger = PotLedger(
            self._last_archived_lines(), storage.lines, write=self.write, log=warn
        )
        storage.on_durable = self.ledger.durable
        self.restorable: int | None = None  # the match a new match just archived
        self._frame_bytes = 0

    def _last_archived_lines(self) -> list[str]:
        try:
            archived = last_archived(self.storage.state_dir, keep_index=True)
            return archived.lines() if archived else []
        except OSError:
            return []  # an unreadable archive: the storage fault says so

    def _resume(self, first_settings: MatchSettings | None) -> Match:
        """Replay the journal; start a new match from `first_settings` when it is empty."""
        if not self.storage.lines:
            self.storage.append(setup_lines(self.config, first_settings))
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

    def write(self, lines: list[str]) -> bool:
        """Append one record: True once durable (its board pots acked by `ledger.durable`);
        else kept until the disk takes it."""
        self.ledger.take(lines)
        before = self.storage.bytes_written
        durable = self.storage.append(lines)
        self.written(lines, len(self.storage.lines) - len(lines) + 1)
        self._frame_bytes += self.storage.bytes_written - before
        if not durable:
            self.ledger.relieve()  # a long fault must not fill the board's room for balls
        return durable

    def commit(self, items: list, mark: list[str] = ()) -> None:
        """Apply `items` and write them with `mark`; a step the rules refuse raises RuleError
        and changes nothing."""
        frame, phase = self.match.state.frame, self.match.phase
        # When this step happened, as its time mark reads back: a frame's first shot and its
        # end are dated in the journal (frame_clock.py), so replay gives the same frame times.
        now = parse_mark(format_mark(TimeMark(self._wall_start + self.clock())))
        dated = self.match.clock.used
        self.match.clock.mark(now.t)
        self.match.apply_all(items)
        lines = [format_event(item) for item in items] + list(mark)
        if self.match.clock.used != dated:
            lines.insert(0, format_mark(now))
        self.write(lines)
        self.restorable = None  # play has begun: UNDO takes back play from now on
        if self.match.phase in OVER and phase not in OVER:
            s = self.match.state
            self.log(
                f"frame {frame} over: {s.score.A}:{s.score.B}; "
                f"{self._frame_bytes} bytes written to the journal this frame"
            )
            self._frame_bytes = 0

    def new_match(self, settings: MatchSettings) -> None:
        """Archive this match (finished or not) and start a new one with `settings`."""
        meta = summarise(self.match, self.storage.lines)
        # In memory at once; on disk in this order, now or once the disk takes it again.
        saved = self.storage.archive(meta)
        archived = last_archived(self.storage.state_dir) if saved else None
        self.write(setup_lines(self.config, settings) + self.ledger.carry())
        self.restorable = archived.number if archived else None
        self.match = replay(self.storage.lines)

    def restore_match(self) -> bool:
        """UNDO right after a new match, before any play: the archived match comes back
        exactly as it was (docs/decisions.md), its board pots still known."""
        number, self.restorable = self.restorable, None
        if number is None or not self.storage.unarchive(number):
            return False
        if carry := self.ledger.carry():
            self.write(carry)
        self.match = replay(self.storage.lines)
        return True
