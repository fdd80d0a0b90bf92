"""The frame lifecycle: a `transitions` machine over the phases, its guards asking the rules core.

lag → break → play ⇄ foul / break-foul → frame-over → break … → match-over.
``python -m scoreboard.lifecycle`` prints the machine's diagram (Mermaid) from this code.
"""

from transitions import Machine

from scoreboard.rules import frames, penalty, setup, shots
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import (
    Break,
    Choose,
    Event,
    Lapse,
    NextFrame,
    Option,
    Players,
    Race,
    Shot,
    Target,
)
from scoreboard.rules.state import MatchState

PHASES = ["lag", "break", "play", "foul", "break-foul", "frame-over", "match-over"]
IN_FRAME = ["break", "play", "foul", "break-foul"]

# The machine's triggers are what the rules core says an event came to (its outcome);
# a phase that has no such transition refuses the event.
TRANSITIONS = [
    {"trigger": "configure", "source": ["lag", "break"], "dest": None},
    {"trigger": "name_breaker", "source": ["lag", "break"], "dest": "break"},
    {"trigger": "pot", "source": ["break", "play"], "dest": "play"},  # FP-5.2
    {"trigger": "miss", "source": ["break", "play"], "dest": "play"},  # FP-5.3
    {"trigger": "foul", "source": "break", "dest": "break-foul"},  # GR-13.1
    {"trigger": "foul", "source": "play", "dest": "foul"},  # FP-6, FP-7
    {"trigger": "frame_won", "source": ["break", "play"], "dest": "frame-over"},  # FP-1, D-2
    {"trigger": "match_won", "source": ["break", "play"], "dest": "match-over"},  # D-5
    {"trigger": "play_on", "source": ["foul", "break-foul"], "dest": "play"},  # GR-7.4, GR-13.2
    {"trigger": "rerack", "source": "break-foul", "dest": "break"},  # GR-13.2 (3)/(4)
    {"trigger": "lapse", "source": IN_FRAME, "dest": None},  # FP-7 note, D-1
    {"trigger": "next_frame", "source": "frame-over", "dest": "break"},  # GR-14, D-3
]

# An event's kind, and the triggers its outcome can be.
KINDS = {
    Players: "configure",
    Race: "configure",
    Target: "configure",
    Option: "configure",
    Break: "name_breaker",
    Shot: "shoot",
    Choose: "choose",
    Lapse: "lapse",
    NextFrame: "next_frame",
}
OUTCOMES = {
    "shoot": ("pot", "miss", "foul", "frame_won", "match_won"),
    "choose": ("play_on", "rerack"),
}

# Why an event is refused in a phase, in words for the people at the table.
REFUSALS = {
    ("shoot", "lag"): "nobody has broken yet: name the breaker first (break A|B)",
    ("shoot", "foul"): "a foul is waiting for its choice (choose play|pass)",
    ("shoot", "break-foul"): (
        "a foul on the break is waiting for its choice "
        "(choose accept-play|accept-pass|rerack-break|rerack-pass)"
    ),
    ("shoot", "frame-over"): "the frame is over: start the next one (next)",
    ("configure", "play"): "players, race, target and options are set before the first shot",
    ("name_breaker", "play"): "the breaker is chosen before the frame's first shot",
    ("lapse", "lag"): "there is no penalty point to take back",
    ("lapse", "frame-over"): "the frame is over; a lapse can no longer change it (undo instead)",
    ("next_frame", "lag"): "the frame has not started",
}
for _phase in ("lag", "break", "play"):
    REFUSALS[("choose", _phase)] = "there is no foul to choose after"
for _phase in ("foul", "break-foul", "frame-over"):
    REFUSALS[("configure", _phase)] = REFUSALS[("configure", "play")]
    REFUSALS[("name_breaker", _phase)] = REFUSALS[("name_breaker", "play")]
for _phase in IN_FRAME:
    REFUSALS[("next_frame", _phase)] = "the frame is not over yet"
for _kind in ("configure", "name_breaker", "shoot", "choose", "lapse", "next_frame"):
    REFUSALS[(_kind, "frame-over")] = REFUSALS.get(
        (_kind, "frame-over"), "the frame is over: start the next one (next)"
    )
    REFUSALS[(_kind, "match-over")] = "the match is over: only undo is possible"


class Lifecycle:
    """The model the machine drives: the phase (``state``) and the rules state (``rules``).

    For each event the rules core computes the next rules state and its outcome; the
    outcome is fired as the machine's trigger, and once the machine has moved (it raises
    if the phase has no such transition) the new rules state is kept.
    """

    def __init__(self, rules: MatchState | None = None, phase: str = "lag") -> None:
        self.rules = rules or MatchState()
        self.machine = Machine(
            model=self,
            states=PHASES,
            transitions=TRANSITIONS,
            initial=phase,
            auto_transitions=False,
            queued=True,
        )
        # Which kinds of event each phase takes, read off the machine itself.
        self._takes = {
            phase: {
                kind
                for kind in set(KINDS.values())
                if set(OUTCOMES.get(kind, (kind,))) & set(self.machine.get_triggers(phase))
            }
            for phase in PHASES
        }
        # Where each outcome leads from each phase, read off the machine: an outcome that
        # keeps the phase (a miss or a pot in play, a lapse, a setting) needs no transition
        # to fire, so replay pays for `transitions` only when the phase changes.
        self._dest = {
            (source, trigger): transition.dest or source
            for trigger, event in self.machine.events.items()
            for source, transitions in event.transitions.items()
            for transition in transitions
        }

    @property
    def phase(self) -> str:
        return self.state

    def restore(self, phase: str, rules: MatchState) -> None:
        """Put the machine back to an earlier step (undo)."""
        self.machine.set_state(phase)
        self.rules = rules

    def apply(self, event: Event) -> None:
        """Apply one event or raise :class:`RuleError` saying why; a refusal changes nothing."""
        kind, phase = KINDS[type(event)], self.state
        if kind not in self._takes[phase]:
            raise RuleError(REFUSALS.get((kind, phase), f"not allowed in phase {phase}"))
        rules, outcome = self._judge(event, phase)
        dest = self._dest.get((phase, outcome))
        if dest is None:
            raise RuleError(f"{kind} cannot end in {outcome} in phase {phase}")
        if dest != phase:
            self.machine.events[outcome].trigger(self)
        self.rules = rules

    def _judge(self, event: Event, phase: str) -> tuple[MatchState, str]:
        """The pure rules: the next rules state and what the event came to."""
        rules = self.rules
        match event:  # shots first: nearly every event of a match is one
            case Shot():
                return shots.play_shot(rules, event, opening=phase == "break")
            case Players() | Race() | Target() | Option():
                return setup.configure(rules, event), "configure"
            case Break(side):
                return frames.choose_breaker(rules, side), "name_breaker"
            case Choose(choice):
                return penalty.decide(rules, choice)
            case Lapse():
                return penalty.lapse(rules), "lapse"
            case NextFrame():
                return frames.next_frame(rules), "next_frame"
        raise TypeError(f"not an event: {event!r}")


def diagram() -> str:
    """The lifecycle as a Mermaid state diagram, generated from TRANSITIONS."""
    from transitions.extensions import GraphMachine

    machine = GraphMachine(
        states=PHASES,
        transitions=TRANSITIONS,
        initial="lag",
        auto_transitions=False,
        graph_engine="mermaid",
        title="Frame lifecycle",
    )
    return machine.get_graph().draw(None)


if __name__ == "__main__":
    print("# Frame lifecycle\n")
    print("Generated from `scoreboard/lifecycle.py` by `make diagram`; do not edit by hand.\n")
    print("```mermaid")
    print(diagram().strip())
    print("```")
