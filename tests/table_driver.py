"""The real table driven as the hardware drives it, for tests that play whole matches.

An `App` on a state dir with its real panel and journal; the four buttons go through the
real `ButtonDebouncer` with the config's hold times (a short press is a ButtonPress, a long
one a ButtonHold), balls are `Pot` events, and time is a `ManualClock` moved to each timer
and each debouncer tick at its own moment, so every timed window closes exactly when it
would on the table. A restart closes the app and opens a new one on the same state dir (the
journal is replayed). Nothing sleeps.

`Table` reports what happened to `watch(kind, before, what)`: "before" just before an input
event is handled and "input" after it (`what` is the event), "time" after timers changed the
match or wrote to the journal (`what`: the records written), "restart" after a restart.
`before` is the match as shown before it (`match_state`).
"""

from dataclasses import dataclass, field

from scoreboard import config as configuration
from scoreboard.inputs.debounce import ButtonDebouncer
from scoreboard.inputs.events import Button, Pot
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock
from scoreboard.table.presenter import SCREEN_ONLY
from scoreboard.table.wiring import command_table

EPOCH = 1_750_000_000.0  # the wall clock at the ManualClock's 0: the journal's time marks
PAIRING_CODE = "042917"
COMMANDS = command_table()  # what the local socket takes, as the wiring builds it


def match_state(snapshot: dict) -> dict:
    """What the match is, as shown: the snapshot without the screens' own keys (the setup
    screen, the page between frames, the shot clock) and without the count of log events."""
    return {k: v for k, v in snapshot.items() if k not in SCREEN_ONLY and k != "events"}


class Recorder:
    """A screen that keeps what it was last shown."""

    def __init__(self):
        self.last = None

    def show(self, snapshot, *, faults=(), hint=None):
        self.last = (snapshot, faults, hint)


@dataclass
class Net:
    """The net process as the table sees it: asked for a pairing code, it answers with one;
    it is told of every record written (`written`), one record a step."""

    asked: int = 0
    records: list = field(default_factory=list)  # (lines, first line number) of each record

    def pairing_asked(self):
        self.asked += 1

    def written(self, lines, first):
        self.records.append((list(lines), first))

    def shown(self, shown):
        pass


class Table:
    def __init__(self, state_dir, config_text: str, watch, *, start: float = 1000.0):
        self.state_dir = state_dir
        self.config = configuration.loads(config_text)
        self.watch = watch
        self.clock = ManualClock(start)
        self.app: App | None = None
        self.open()

    # -- the appliance ---------------------------------------------------------------------------
    def open(self) -> None:
        t = self.config.timings
        self.screen = Recorder()
        self.net = Net()
        clock = self.clock
        self.app = App(
            self.config,
            state_dir=self.state_dir,
            screens=[self.screen],
            clock=clock,
            wall_clock=lambda: EPOCH + clock.now,
            log=lambda message: None,
        )
        self.app.watch(self.net)
        self.app.start()
        holds = {Button.UNDO: t.undo_hold_time}
        self.buttons = {
            b: ButtonDebouncer(
                b, bounce_time=t.button_debounce, hold_time=holds.get(b, t.hold_time)
            )
            for b in Button
        }

    def restart(self, downtime: float, *, power_cut: bool) -> None:
        """The table off for `downtime` seconds: closed in order (systemd stop), or a power cut
        (nothing is told; the journal holds what was synced, which is every record)."""
        before = self.state
        if power_cut:
            self.app.storage.close()  # only the lock and the file go, as the kernel does
        else:
            self.app.close()
        self.clock.advance(downtime)
        self.open()
        self.watch("restart", before, None)

    def close(self) -> None:
        self.app.close()

    # -- what is shown ---------------------------------------------------------------------------
    @property
    def snapshot(self) -> dict:
        return self.app.shown.snapshot

    @property
    def state(self) -> dict:
        return match_state(self.app.shown.snapshot)

    @property
    def hint(self):
        return self.app.shown.hint

    # -- time ------------------------------------------------------------------------------------
    def run_until(self, t: float) -> None:
        """Move the clock to `t`, stopping at every timer and debouncer tick due before it."""
        while True:
            due = [d.due() for d in self.buttons.values()]
            wait = self.app.loop.until_next_timer()
            if wait is not None:
                due.append(self.clock.now + wait)
            due = [d for d in due if d is not None and d <= t]
            if not due:
                break
            self.clock.now = max(self.clock.now, min(due))
            self._tick()
        self.clock.now = max(self.clock.now, t)
        self._tick()

    def _tick(self) -> None:
        self._timers()
        for debouncer in self.buttons.values():
            for event in debouncer.tick(self.clock.now):
                self._deliver(event)

    def _timers(self) -> None:
        if self.app.loop.until_next_timer() != 0:  # nothing due: nothing runs
            return
        before = self.state
        records = len(self.net.records)
        self.app.loop.run_pending()
        if self.state != before or len(self.net.records) != records:
            self.watch("time", before, self.net.records[records:])

    def _deliver(self, event) -> None:
        self._timers()  # what is due now happens first, as the loop runs timers first
        before = self.state
        self.watch("before", before, event)
        self.app.loop.put(event)
        self.app.loop.run_pending()
        self.watch("input", before, event)
        if self.net.asked:  # the net process answers with a code at once
            self.net.asked = 0
            self.app.phone.show_code(PAIRING_CODE, "http://table.local/pair")

    # -- inputs ----------------------------------------------------------------------------------
    def press(self, button: str, at: float, duration: float) -> None:
        """`button` down at `at` for `duration` seconds (a press, or a hold if long enough)."""
        debouncer = self.buttons[Button(button)]
        self.run_until(at)
        for event in debouncer.edge(True, at):
            self._deliver(event)
        self.run_until(at + duration)
        for event in debouncer.edge(False, at + duration):
            self._deliver(event)
        self.run_until(at + duration + debouncer.bounce_time)

    def pot(self, pocket: int, at: float) -> None:
        self.run_until(at)
        self._deliver(Pot(pocket, at))

    def phone_asks_undo(self) -> None:
        """A paired phone's UNDO: it waits for an OK press at the table (table/phone_commands.py)."""
        self._timers()
        COMMANDS.run(self.app.controls(), "undo", {"phone": "ab12cd"})

    def phone_paired(self) -> None:
        """The code shown was used: the phone is paired."""
        self._timers()
        self.app.phone.paired()
