"""A match: the lifecycle plus its history, so any number of steps can be undone exactly."""

from dataclasses import dataclass

from scoreboard.core.frame_clock import FrameClock, TimeMark
from scoreboard.core.lifecycle import Lifecycle
from scoreboard.core.phase import CHOOSING, SHOOTING, Phase
from scoreboard.rules import penalty
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Event
from scoreboard.rules.state import MatchState


@dataclass(frozen=True, slots=True)
class Undo:
    """A step of the match log that is no event: it takes the last step back (log word ``undo``):
    an event entered goes, an amended one is as it was, a cancelled one comes back."""


@dataclass(frozen=True, slots=True)
class Amend:
    """One step: the last event becomes ``event`` (log words ``amend EVENT``): a ball joins
    the open shot, a FOUL press or a kind step changes it. :data:`UNDO` brings the old back."""

    event: Event


@dataclass(frozen=True, slots=True)
class Cancel:
    """One step: the last event goes as if it never happened (log word ``cancel``): a FOUL
    that entered its own shot stepped to "no foul". :data:`UNDO` brings it back."""


UNDO = Undo()
CANCEL = Cancel()
Item = Event | Undo | Amend | Cancel


@dataclass(frozen=True, slots=True)
class Step:
    """What one step did to the events, so UNDO can take exactly it back: ``old`` is the
    event an amend replaced or a cancel removed (None: a new event was entered)."""

    kind: str  # "enter" | "amend" | "cancel"
    old: Event | None = None


ENTERED = Step("enter")


# One saved step every CHECKPOINT events: undo goes back to the nearest one and re-applies
# the few events after it, so a long match's history costs a pointer an event, not a state.
CHECKPOINT = 32


class Match:
    """Events in, state out. Undo pops a step (python-chess keeps a move stack likewise);
    a restart replays the journal through :meth:`apply`, so both share one code path."""

    def __init__(self) -> None:
        self.lifecycle = Lifecycle()
        self._events: list[Event] = []
        # The steps not taken back: how many, and the amends and cancels among them with
        # their place (a step that entered an event needs no record: UNDO pops the event)
        # and the frames' times before them (UNDO puts the old event back with its time).
        self._steps = 0
        self._changes: list[tuple[int, Step, tuple]] = []
        # (number of events before it, phase, rules) at every CHECKPOINT-th event
        self._checkpoints: list[tuple[int, str, MatchState]] = []
        self.clock = FrameClock()  # when each frame started and ended (the log's time marks)

    @property
    def phase(self) -> str:
        return self.lifecycle.phase

    @property
    def state(self) -> MatchState:
        return self.lifecycle.rules

    @property
    def events(self) -> list[Event]:
        return list(self._events)

    @property
    def steps(self) -> int:
        """How many steps UNDO could take back, one by one."""
        return self._steps

    @property
    def last_step(self) -> Step | None:
        """What :data:`UNDO` would take back now (None: nothing)."""
        if not self._steps:
            return None
        changed = self._changes[-1] if self._changes else None
        return changed[1] if changed and changed[0] == self._steps - 1 else ENTERED

    def apply(self, event: Event) -> None:
        """Enter ``event`` as a step, or raise :class:`RuleError` and change nothing."""
        self._push(event)
        self._steps += 1

    def _push(self, event: Event) -> None:
        count = len(self._events)
        before = (count, self.lifecycle.phase, self.lifecycle.rules)
        self.lifecycle.apply(event)
        if count % CHECKPOINT == 0 and (not self._checkpoints or self._checkpoints[-1][0] < count):
            self._checkpoints.append(before)
        self._events.append(event)
        self.clock.after(count + 1, before[2], self.lifecycle.rules)

    def amend(self, event: Event) -> None:
        """The last event becomes ``event``, as one step :data:`UNDO` takes back."""
        if not self._events:
            raise RuleError("nothing to amend")
        spans = self.clock.spans
        old = self._pop()
        try:
            self._push(event)
        except RuleError:
            self._push(old)  # it was legal right here
            raise
        self._changes.append((self._steps, Step("amend", old), spans))
        self._steps += 1

    def cancel(self) -> None:
        """The last event goes, as one step :data:`UNDO` takes back."""
        if not self._events:
            raise RuleError("nothing to cancel")
        spans = self.clock.spans
        self._changes.append((self._steps, Step("cancel", self._pop()), spans))
        self._steps += 1

    def undo(self) -> Step:
        """Take back the last step exactly and return it (what it did)."""
        if not self._steps:
            raise RuleError("nothing to undo")
        step = self.last_step
        if step.kind != "cancel":
            self._pop()
        if step.old is not None:
            self._push(step.old)  # legal once right here, so legal again
            self.clock.put_back(self._changes.pop()[2])  # its frame's times, not the UNDO's
        self._steps -= 1
        return step

    def step(self, item: Item | TimeMark) -> None:
        """One line of a match log: an event, :data:`UNDO`, an amend, :data:`CANCEL`, or a
        time mark for the next event."""
        match item:
            case Undo():
                self.undo()
            case Amend(event=event):
                self.amend(event)
            case Cancel():
                self.cancel()
            case TimeMark(t=t):
                self.clock.mark(t)
            case _:
                self.apply(item)

    def apply_all(self, items: list[Item]) -> None:
        """Apply items as one record: all of them, or none if one is refused.

        The journal writes the same items as one record, so a power cut keeps all or none.
        """
        saved = self._save(items)
        try:
            for item in items:
                self.step(item)
        except RuleError:
            self._restore(saved)
            raise

    def preview(self, items: list[Item]) -> tuple[str, MatchState]:
        """The phase and rules state ``items`` would lead to; nothing changes (a RuleError
        says they would be refused)."""
        saved = self._save(items)
        try:
            for item in items:
                self.step(item)
            return self.phase, self.state
        finally:
            self._restore(saved)

    def _save(self, items: list[Item]) -> tuple:
        """What ``items`` can change. Only that is saved: a step costs the same at event 2,000
        as at event 2 (the history before is never touched). Each item takes back at most
        one event and one step."""
        back = sum(1 for item in items if isinstance(item, Undo | Amend | Cancel))
        keep = max(len(self._events) - back, 0)
        kept = len(self._checkpoints)
        while kept and self._checkpoints[kept - 1][0] > keep:
            kept -= 1
        changed = len(self._changes)
        while changed and self._changes[changed - 1][0] >= self._steps - back:
            changed -= 1
        return (
            (keep, self._events[keep:]),
            (kept, self._checkpoints[kept:]),
            (changed, self._changes[changed:]),
            self._steps,
            self.lifecycle.phase,
            self.lifecycle.rules,
            self.clock.save(),
        )

    def _restore(self, saved: tuple) -> None:
        *lists, self._steps, phase, rules, clock = saved
        for history, (start, tail) in zip(
            (self._events, self._checkpoints, self._changes), lists, strict=True
        ):
            del history[start:]
            history += tail
        self.lifecycle.restore(phase, rules)
        self.clock.restore(clock)

    def _pop(self) -> Event:
        """Take back the last event and return it: back to the last checkpoint, then the
        events after it again (they were legal once, so they are again: a fold is exact)."""
        event = self._events.pop()
        count = len(self._events)
        self.clock.undo(count)
        while self._checkpoints[-1][0] > count:
            self._checkpoints.pop()
        start, phase, rules = self._checkpoints[-1]
        self.lifecycle.restore(phase, rules)
        for again in self._events[start:]:
            self.lifecycle.apply(again)
        return event

    def snapshot(self) -> dict:
        """The whole visible state as plain data (the JSON of ``replay --json`` and ``status``)."""
        s, phase = self.state, self.phase
        foul = s.foul
        return {
            "phase": phase,
            "frame": s.frame,
            "players": {side: name.replace("_", " ") for side, name in s.players.as_dict().items()},
            "race": s.race,
            "target": s.target,
            "breaker": s.breaker,
            "striker": s.striker if phase in SHOOTING else None,
            "decider": s.decider if phase in CHOOSING else None,
            "score": s.score.as_dict(),
            "frames": s.frames.as_dict(),
            "balls_on_table": s.balls_on_table,
            "winner": s.winner if phase == Phase.MATCH_OVER else None,
            "frame_winner": s.frame_winner,
            "foul": None
            if foul is None
            else {
                "offender": foul.offender,
                "kinds": [str(kind) for kind in foul.kinds],
                "penalty_to": foul.penalty_to,
                "to_spot": foul.to_spot,
                "on_break": foul.on_break,
                "lapsed": foul.lapsed,
                "rule": str(foul.rule),
            },
            "choices": [str(c) for c in penalty.choices(s)] if phase in CHOOSING else [],
            "rack": [list(row) for row in s.rack] if phase == Phase.BREAK and s.rack else None,
            "frame_scores": [list(pair) for pair in s.frame_scores],
            "frame_times": self.clock.frame_times(len(s.frame_scores)),
            "jumped_ball": str(s.jumped_ball),
            "penalty": str(s.penalty),
            "stats": {
                side: {
                    "shots": st.shots,
                    "pots": st.pots,
                    "fouls": {str(kind): n for kind, n in st.fouls},
                    "run": st.run,
                    "best_run": st.best_run,
                }
                for side, st in s.stats.as_dict().items()
            },
            "events": len(self._events),
        }
