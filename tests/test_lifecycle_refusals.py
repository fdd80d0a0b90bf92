"""What each phase refuses, in the words the people at the table read (the lifecycle's table)."""

import pytest
from matchplay import match

from scoreboard.core.lifecycle import Lifecycle
from scoreboard.core.matchlog import parse_line
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Choice, Choose
from scoreboard.rules.fouls import FoulKind
from scoreboard.rules.state import FoulRecord, MatchState

# A log that reaches each phase.
REACH = {
    "lag": "",
    "break": "break A",
    "play": "break A\nshot",
    "foul": "break A\nshot\nshot foul=push",
    "break-foul": "break A\nshot cushions=0",
    "frame-over": "race 2\nbreak A\nshot pots=8",
    "match-over": "break A\nshot pots=8",
}
# One event of each kind.
EVENT = {
    "configure": "race 3",
    "name_breaker": "break B",
    "shoot": "shot",
    "choose": "choose play",
    "lapse": "lapse",
    "next_frame": "next",
}
SETTINGS = "players, race, target and options are set before the first shot"
BREAKER = "the breaker is chosen before the frame's first shot"
NO_FOUL = "there is no foul to choose after"
NOT_OVER = "the frame is not over yet"
FRAME_OVER = "the frame is over: start the next one (next)"
NO_PENALTY = "there is no penalty point in this frame to take back"
MATCH_OVER = "the match is over: only undo is possible"
REFUSED = {
    ("lag", "shoot"): "nobody has broken yet: name the breaker first (break A|B)",
    ("lag", "choose"): NO_FOUL,
    ("lag", "lapse"): "there is no penalty point to take back",
    ("lag", "next_frame"): "the frame has not started",
    ("break", "choose"): NO_FOUL,
    ("break", "lapse"): NO_PENALTY,  # the rules core's refusal: the phase takes a lapse
    ("break", "next_frame"): NOT_OVER,
    ("play", "configure"): SETTINGS,
    ("play", "name_breaker"): BREAKER,
    ("play", "choose"): NO_FOUL,
    ("play", "lapse"): NO_PENALTY,
    ("play", "next_frame"): NOT_OVER,
    ("foul", "configure"): SETTINGS,
    ("foul", "name_breaker"): BREAKER,
    ("foul", "shoot"): "a foul is waiting for its choice (choose play|pass)",
    ("foul", "next_frame"): NOT_OVER,
    ("break-foul", "configure"): SETTINGS,
    ("break-foul", "name_breaker"): BREAKER,
    ("break-foul", "shoot"): (
        "a foul on the break is waiting for its choice "
        "(choose accept-play|accept-pass|rerack-break|rerack-pass)"
    ),
    ("break-foul", "next_frame"): NOT_OVER,
    ("frame-over", "configure"): SETTINGS,
    ("frame-over", "name_breaker"): BREAKER,
    ("frame-over", "shoot"): FRAME_OVER,
    ("frame-over", "choose"): FRAME_OVER,
    ("frame-over", "lapse"): "the frame is over; a lapse can no longer change it (undo instead)",
    **{("match-over", kind): MATCH_OVER for kind in EVENT},
}


def test_the_refusal_table_walks_every_phase_and_every_kind_of_event():
    # Lifecycle.refusal reads REFUSALS[(kind, phase)] straight: a phase or a kind of event
    # added without its words would be a KeyError in the loop, not a refusal. The walk
    # below covers every pair only while its lists are the machine's own.
    from scoreboard.core.lifecycle import KINDS, PHASES

    assert set(REACH) == set(PHASES)
    assert set(EVENT) == set(KINDS.values())


@pytest.mark.parametrize(("phase", "kind"), [(p, k) for p in REACH for k in EVENT])
def test_each_phase_refuses_what_it_cannot_take_and_says_why(phase, kind):
    m = match(REACH[phase])
    assert m.phase == phase
    before = m.snapshot()
    event = parse_line(
        EVENT[kind] if (phase, kind) != ("break-foul", "choose") else "choose accept-play"
    )
    if (phase, kind) not in REFUSED:
        m.apply_all([event])  # taken
        return
    with pytest.raises(RuleError) as refused:
        m.apply_all([event])
    assert str(refused.value) == REFUSED[(phase, kind)]
    assert m.phase == phase and m.snapshot() == before  # a refusal changes nothing


def test_an_outcome_the_phase_has_no_way_out_for_is_refused_and_changes_nothing():
    # A foul on the break recorded while the machine is in the ordinary foul phase: the
    # rules would re-rack, but the foul phase has no re-rack transition.
    rules = MatchState(
        breaker="A",
        due_breaker="A",
        decider="B",
        frame_shots=1,
        started=True,
        foul=FoulRecord("A", (FoulKind.OTHER,), "B", 0, on_break=True),
    )
    lifecycle = Lifecycle(rules, phase="foul")
    with pytest.raises(RuleError) as refused:
        lifecycle.apply(Choose(Choice.RERACK_BREAK))
    assert str(refused.value) == "choose cannot end in rerack in phase foul"
    assert lifecycle.phase == "foul" and lifecycle.rules is rules


def test_the_phase_moves_only_through_the_rules_outcomes():
    # No `to_<phase>` shortcuts on the lifecycle: nothing can jump to a phase past the rules.
    lifecycle = Lifecycle()
    assert not [name for name in dir(lifecycle) if name.startswith("to_")]
    assert set(lifecycle.machine.get_triggers("play")) == {
        "pot",
        "miss",
        "foul",
        "frame_won",
        "match_won",
        "lapse",
    }
