"""The frame lifecycle: a `transitions` machine over the phases, its guards asking the rules core.

lag → break → play ⇄ foul / break-foul → frame-over → break … → match-over.
``python -m scoreboard.core.lifecycle`` prints the machine's diagram (Mermaid) from this code.
"""

from typing import NamedTuple

from transitions import Machine

from scoreboard.core.phase import IN_FRAME, Phase
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

PHASES = [phase.value for phase in Phase]  # `transitions` names an Enum's states by member name
_PHASES = {phase.value: phase for phase in Phase}

# The machine's triggers are what the rules core says an event came to (its outcome);
# a phase that has no such transition refuses the event.
TRANSITIONS = [
    {"trigger": "configure", "source": [Phase.LAG, Phase.BREAK], "dest": None},
    {"trigger": "name_breaker", "source": [Phase.LAG, Phase.BREAK], "dest": Phase.BREAK},
    {"trigger": "pot", "source": [Phase.BREAK, Phase.PLAY], "dest": Phase.PLAY},  # FP-5.2
    {"trigger": "miss", "source": [Phase.BREAK, Phase.PLAY], "dest": Phase.PLAY},  # FP-5.3
    {"trigger": "foul", "source": Phase.BREAK, "dest": Phase.BREAK_FOUL},  # GR-13.1
    {"trigger": "foul", "source": Phase.PLAY, "dest": Phase.FOUL},  # FP-6, FP-7
    {
        "trigger": "frame_won",
        "source": [Phase.BREAK, Phase.PLAY],
        "dest": Phase.FRAME_OVER,
    },  # FP-1, D-2
    {"trigger": "match_won", "source": [Phase.BREAK, Phase.PLAY], "dest": Phase.MATCH_OVER},  # D-5
    {
        "trigger": "play_on",
        "source": [Phase.FOUL, Phase.BREAK_FOUL],
        "dest": Phase.PLAY,
    },  # GR-7.4, GR-13.2
    {"trigger": "rerack", "source": Phase.BREAK_FOUL, "dest": Phase.BREAK},  # GR-13.2 (3)/(4)
    {"trigger": "lapse", "source": list(IN_FRAME), "dest": None},  # FP-7 note, D-1
    {"trigger": "next_frame", "source": Phase.FRAME_OVER, "dest": Phase.BREAK},  # GR-14, D-3
]


def _plain(transition: dict) -> dict:
    """A transition with its phases as plain strings, the states the machine knows."""
    return {
        key: [str(p) for p in value]
        if isinstance(value, list)
        else value
        if not isinstance(value, Phase)
        else str(value)
        for key, value in transition.items()
    }


def _listed(phases) -> list:
    return phases if isinstance(phases, list) else [phases]


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


class Refusal(NamedTuple):
    """Why an event is refused in a phase: in words for a log (``reason``), and the key of
    what the table's display says (``hint``). Decided here only: the panel asks."""

    reason: str
    hint: str = "refused"


_FRAME_IS_OVER = Refusal("the frame is over: start the next one (next)", "ball-after-frame")
_SETTINGS = Refusal("players, race, target and options are set before the first shot")
_BREAKER = Refusal("the breaker is chosen before the frame's first shot")
REFUSALS = {
    ("shoot", Phase.LAG): Refusal(
        "nobody has broken yet: name the breaker first (break A|B)", "who-breaks"
    ),
    ("shoot", Phase.FOUL): Refusal("a foul is waiting for its choice (choose play|pass)", "choose"),
    ("shoot", Phase.BREAK_FOUL): Refusal(
        "a foul on the break is waiting for its choice "
        "(choose accept-play|accept-pass|rerack-break|rerack-pass)",
        "choose",
    ),
    ("lapse", Phase.LAG): Refusal("there is no penalty point to take back"),
    ("lapse", Phase.FRAME_OVER): Refusal(
        "the frame is over; a lapse can no longer change it (undo instead)", "ball-after-frame"
    ),
    ("next_frame", Phase.LAG): Refusal("the frame has not started", "who-breaks"),
}
for _phase in (Phase.LAG, Phase.BREAK, Phase.PLAY):
    REFUSALS[("choose", _phase)] = Refusal("there is no foul to choose after")
for _phase in (Phase.PLAY, Phase.FOUL, Phase.BREAK_FOUL, Phase.FRAME_OVER):
    REFUSALS[("configure", _phase)] = _SETTINGS
    REFUSALS[("name_breaker", _phase)] = _BREAKER
for _phase in IN_FRAME:
    REFUSALS[("next_frame", _phase)] = Refusal("the frame is not over yet")
for _kind in ("configure", "name_breaker", "shoot", "choose", "lapse", "next_frame"):
    REFUSALS.setdefault((_kind, Phase.FRAME_OVER), _FRAME_IS_OVER)
    REFUSALS[(_kind, Phase.MATCH_OVER)] = Refusal(
        "the match is over: only undo is possible", "match-over"
    )


class Lifecycle:
    """The model the machine drives: the phase (``state``) and the rules state (``rules``).

    For each event the rules core computes the next rules state and its outcome; the
    outcome is fired as the machine's trigger, and once the machine has moved (it raises
    if the phase has no such transition) the new rules state is kept.
    """

    def __init__(self, rules: MatchState | None = None, phase: str = Phase.LAG) -> None:
        self.rules = rules or MatchState()
        plain = [_plain(t) for t in TRANSITIONS]
        self.machine = Machine(
            model=self,
            states=PHASES,
            transitions=plain,
            initial=str(phase),
            auto_transitions=False,
        )
        # Where each outcome leads from each phase, read off the transitions the machine was
        # given: an outcome that keeps the phase (a miss or a pot in play, a lapse, a
        # setting) needs no transition to fire, so replay pays for `transitions` only when
        # the phase changes. (Off the plain data, not the machine's own tables: a Match is
        # made for every replay, and asking the machine costs twice as much as making it.)
        self._dest = {
            (source, transition["trigger"]): transition["dest"] or source
            for transition in plain
            for source in _listed(transition["source"])
        }
        # Which kinds of event each phase takes: a kind whose outcomes one of its triggers is.
        triggers = {phase: set() for phase in PHASES}
        for source, trigger in self._dest:
            triggers[source].add(trigger)
        self._takes = {
            phase: {
                kind
                for kind in set(KINDS.values())
                if not triggers[phase].isdisjoint(OUTCOMES.get(kind, (kind,)))
            }
            for phase in PHASES
        }

    @property
    def phase(self) -> Phase:
        return _PHASES[self.state]

    def restore(self, phase: Phase, rules: MatchState) -> None:
        """Put the machine back to an earlier step (undo)."""
        self.machine.set_state(str(phase))
        self.rules = rules

    def apply(self, event: Event) -> None:
        """Apply one event or raise :class:`RuleError` saying why; a refusal changes nothing."""
        kind = KINDS[type(event)]
        refusal = self.refusal(kind)
        if refusal is not None:
            raise RuleError(*refusal)
        phase = self.state
        rules, outcome = self._judge(event, phase)
        dest = self._dest.get((phase, outcome))
        if dest is None:
            raise RuleError(f"{kind} cannot end in {outcome} in phase {phase}")
        if dest != phase:
            self.machine.events[outcome].trigger(self)
        self.rules = rules

    def refusal(self, kind: str) -> Refusal | None:
        """Why an event of ``kind`` ("shoot", "choose", "next_frame"...) is refused now, or
        None if the phase takes it."""
        phase = self.state
        if kind in self._takes[phase]:
            return None
        return REFUSALS[(kind, phase)]  # every refused (kind, phase) has its words

    def _judge(self, event: Event, phase: str) -> tuple[MatchState, str]:
        """The pure rules: the next rules state and what the event came to."""
        rules = self.rules
        match event:  # shots first: nearly every event of a match is one
            case Shot():
                return shots.play_shot(rules, event, opening=phase == Phase.BREAK)
            case Players() | Race() | Target() | Option():
                return setup.configure(rules, event), "configure"
            case Break(side):
                return frames.choose_breaker(rules, side), "name_breaker"
            case Choose(choice):
                return penalty.decide(rules, choice)
            case Lapse():  # CV-1: the offender's point back may be his target's (D-2)
                return frames.settle_frame(penalty.lapse(rules), "lapse")
            case NextFrame():
                return frames.next_frame(rules), "next_frame"
        raise TypeError(f"not an event: {event!r}")


def diagram() -> str:
    """The lifecycle as a Mermaid state diagram, generated from TRANSITIONS."""
    from transitions.extensions import GraphMachine

    machine = GraphMachine(
        states=PHASES,
        transitions=[_plain(t) for t in TRANSITIONS],
        initial=str(Phase.LAG),
        graph_engine="mermaid",
        title="Frame lifecycle",
    )
    return machine.get_graph().draw(None)


def markdown() -> str:
    """``docs/lifecycle.md``: the diagram in a page of its own."""
    return (
        "# Frame lifecycle\n\n"
        "Generated from `scoreboard/core/lifecycle.py` by `make diagram`; do not edit by hand.\n\n"
        f"```mermaid\n{diagram().strip()}\n```\n"
    )


if __name__ == "__main__":
    print(markdown(), end="")
