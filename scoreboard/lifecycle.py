"""The frame lifecycle: a `transitions` machine over the phases, its guards asking the rules core.

lag → break → play ⇄ foul / break-foul → frame-over → break … → match-over.
``python -m scoreboard.lifecycle`` prints the machine's diagram (Mermaid) from this code.
"""

from transitions import Machine, MachineError

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

# Each trigger's transitions are tried in order; the first whose guard holds is taken.
TRANSITIONS = [
    {"trigger": "configure", "source": ["lag", "break"], "dest": None},
    {"trigger": "name_breaker", "source": ["lag", "break"], "dest": "break"},
    {
        "trigger": "shoot",
        "source": ["break", "play"],
        "dest": "match-over",
        "conditions": "match_won",
    },
    {
        "trigger": "shoot",
        "source": ["break", "play"],
        "dest": "frame-over",
        "conditions": "frame_won",
    },
    {"trigger": "shoot", "source": "break", "dest": "break-foul", "conditions": "fouled"},
    {"trigger": "shoot", "source": "play", "dest": "foul", "conditions": "fouled"},
    {"trigger": "shoot", "source": ["break", "play"], "dest": "play"},
    {"trigger": "choose", "source": "break-foul", "dest": "break", "conditions": "reracked"},
    {"trigger": "choose", "source": ["foul", "break-foul"], "dest": "play"},
    {"trigger": "lapse", "source": IN_FRAME, "dest": None},
    {"trigger": "start_next_frame", "source": "frame-over", "dest": "break"},
]

TRIGGERS = {
    Players: "configure",
    Race: "configure",
    Target: "configure",
    Option: "configure",
    Break: "name_breaker",
    Shot: "shoot",
    Choose: "choose",
    Lapse: "lapse",
    NextFrame: "start_next_frame",
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
    ("choose", "lag"): "there is no foul to choose after",
    ("choose", "break"): "there is no foul to choose after",
    ("choose", "play"): "there is no foul to choose after",
    ("choose", "frame-over"): "the frame is over: start the next one (next)",
    ("configure", "play"): "players, race, target and options are set before the first shot",
    ("name_breaker", "play"): "the breaker is chosen before the frame's first shot",
    ("name_breaker", "foul"): "the breaker is chosen before the frame's first shot",
    ("name_breaker", "break-foul"): "the breaker is chosen before the frame's first shot",
    ("name_breaker", "frame-over"): "the frame is over: start the next one (next)",
    ("lapse", "lag"): "there is no penalty point to take back",
    ("lapse", "frame-over"): "the frame is over; a lapse can no longer change it (undo instead)",
    ("start_next_frame", "lag"): "the frame has not started",
}
for _trigger in ("configure", "shoot", "choose", "lapse", "start_next_frame", "name_breaker"):
    REFUSALS[(_trigger, "match-over")] = "the match is over: only undo is possible"
for _phase in IN_FRAME:
    REFUSALS[("start_next_frame", _phase)] = "the frame is not over yet"
for _phase in ("foul", "break-foul", "frame-over"):
    REFUSALS[("configure", _phase)] = REFUSALS[("configure", "play")]


class Lifecycle:
    """The model the machine drives: the phase (``state``) and the rules state (``rules``).

    The rules core computes the next rules state once per event (``prepare_event``);
    the guards read its outcome and the first transition taken commits it.
    """

    def __init__(self, rules: MatchState | None = None, phase: str = "lag") -> None:
        self.rules = rules or MatchState()
        self._next: MatchState | None = None
        self._outcome: str | None = None
        self.machine = Machine(
            model=self,
            states=PHASES,
            transitions=TRANSITIONS,
            initial=phase,
            auto_transitions=False,
            queued=True,
            send_event=True,
            prepare_event="_judge",
            before_state_change="_commit",
        )

    @property
    def phase(self) -> str:
        return self.state

    def restore(self, phase: str, rules: MatchState) -> None:
        """Put the machine back to an earlier step (undo)."""
        self.machine.set_state(phase)
        self.rules = rules

    def apply(self, event: Event) -> None:
        """Apply one event or raise :class:`RuleError` saying why it is refused."""
        trigger = TRIGGERS[type(event)]
        self._next = None
        try:
            self.trigger(trigger, event)
        except MachineError:
            reason = REFUSALS.get((trigger, self.state), f"not allowed in phase {self.state}")
            raise RuleError(reason) from None
        if self._next is not None:  # a guard held but no transition committed: cannot happen
            raise RuleError(f"no transition for {trigger} in phase {self.state}")

    # -- callbacks (names unlike any trigger) ---------------------------------------------
    def _judge(self, event_data) -> None:
        event = event_data.args[0]
        rules, phase = self.rules, self.state
        self._outcome = None
        match event:
            case Players() | Race() | Target() | Option():
                self._next = setup.configure(rules, event)
            case Break(side):
                self._next = frames.choose_breaker(rules, side)
            case Shot():
                self._next, self._outcome = shots.play_shot(rules, event, opening=phase == "break")
            case Choose(choice):
                self._next, self._outcome = penalty.decide(rules, choice)
            case Lapse():
                self._next = penalty.lapse(rules)
            case NextFrame():
                self._next = frames.next_frame(rules)

    def _commit(self, event_data) -> None:
        self.rules, self._next = self._next, None

    # -- guards ----------------------------------------------------------------------------
    def match_won(self, event_data) -> bool:
        return self._outcome == "match-won"

    def frame_won(self, event_data) -> bool:
        return self._outcome == "frame-won"

    def fouled(self, event_data) -> bool:
        return self._outcome == "foul"

    def reracked(self, event_data) -> bool:
        return self._outcome == "break"


def diagram() -> str:
    """The lifecycle as a Mermaid state diagram, generated from TRANSITIONS."""
    from transitions.extensions import GraphMachine

    machine = GraphMachine(
        states=PHASES,
        transitions=TRANSITIONS,
        initial="lag",
        auto_transitions=False,
        graph_engine="mermaid",
        show_conditions=True,
        title="Frame lifecycle",
    )
    return machine.get_graph().draw(None)


if __name__ == "__main__":
    print("# Frame lifecycle\n")
    print("Generated from `scoreboard/lifecycle.py` by `make diagram`; do not edit by hand.\n")
    print("```mermaid")
    print(diagram().strip())
    print("```")
