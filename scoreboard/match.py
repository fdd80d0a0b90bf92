"""A match: the lifecycle plus its history, so any number of steps can be undone exactly."""

from dataclasses import dataclass

from scoreboard.frame_clock import FrameClock, TimeMark
from scoreboard.lifecycle import Lifecycle
from scoreboard.phase import CHOOSING, SHOOTING, Phase
from scoreboard.rules import penalty
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Event
from scoreboard.rules.state import MatchState


@dataclass(frozen=True, slots=True)
class Undo:
    """A step of the match log that is no event: it takes the last one back (log word ``undo``)."""


UNDO = Undo()


# One saved step every CHECKPOINT events: undo goes back to the nearest one and re-applies
# the few events after it, so a long match's history costs a pointer an event, not a state.
CHECKPOINT = 32


class Match:
    """Events in, state out. Undo pops a step (python-chess keeps a move stack likewise);
    a restart replays the journal through :meth:`apply`, so both share one code path."""

    def __init__(self) -> None:
        self.lifecycle = Lifecycle()
        self._events: list[Event] = []
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

    def apply(self, event: Event) -> None:
        """Apply ``event``, or raise :class:`RuleError` and change nothing."""
        count = len(self._events)
        before = (count, self.lifecycle.phase, self.lifecycle.rules)
        self.lifecycle.apply(event)
        if count % CHECKPOINT == 0 and (not self._checkpoints or self._checkpoints[-1][0] < count):
            self._checkpoints.append(before)
        self._events.append(event)
        self.clock.after(count + 1, before[2], self.lifecycle.rules)

    def step(self, item: Event | Undo | TimeMark) -> None:
        """One line of a match log: an event, :data:`UNDO`, or a time mark for the next event."""
        if isinstance(item, Undo):
            self.undo()
        elif isinstance(item, TimeMark):
            self.clock.mark(item.t)
        else:
            self.apply(item)

    def apply_all(self, items: list[Event | Undo]) -> None:
        """Apply events and undos (:data:`UNDO`) as one step: all of them, or none if one is refused.

        The panel amends the open shot this way (``undo`` + the shot with one more
        ball), and the journal writes the same items as one record.
        """
        # Only what the undos can pop is saved: a step costs the same at event 2,000 as at
        # event 2 (the history before them is never touched).
        keep = len(self._events) - sum(1 for item in items if isinstance(item, Undo))
        kept = len(self._checkpoints)
        while kept and self._checkpoints[kept - 1][0] > keep:
            kept -= 1
        saved = (
            self._events[keep:],
            self._checkpoints[kept:],
            self.lifecycle.phase,
            self.lifecycle.rules,
            self.clock.save(),
        )
        try:
            for item in items:
                self.step(item)
        except RuleError:
            events, checkpoints, phase, rules, clock = saved
            del self._events[keep:], self._checkpoints[kept:]
            self._events += events
            self._checkpoints += checkpoints
            self.lifecycle.restore(phase, rules)
            self.clock.restore(clock)
            raise

    def undo(self) -> Event:
        """Take back the last event and return it: back to the last checkpoint, then the
        events after it again (they were legal once, so they are again: a fold is exact)."""
        if not self._events:
            raise RuleError("nothing to undo")
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
