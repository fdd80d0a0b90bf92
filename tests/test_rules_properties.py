"""Invariants over random legal matches (hypothesis): ball count, target, undo, determinism."""

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.core.match import UNDO, Match
from scoreboard.core.matchlog import format_event, replay
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Break, Choice, Choose, Lapse, NextFrame, Shot, Target
from scoreboard.rules.fouls import FoulKind

shots = st.builds(
    Shot,
    pots=st.integers(0, 4),
    fouls=st.lists(st.sampled_from(list(FoulKind)), max_size=2, unique=True).map(tuple),
    jumped=st.integers(0, 1),
    cushions=st.none() | st.integers(0, 5),
    crossed=st.none() | st.booleans(),
    by=st.none() | st.sampled_from(["A", "B"]),
)
events = st.one_of(
    shots,
    shots,
    shots,
    st.builds(Choose, st.sampled_from(list(Choice))),
    st.builds(Break, st.sampled_from(["A", "B"])),
    st.just(Lapse()),
    st.just(NextFrame()),
    st.builds(Target, st.integers(0, 9)),
)
steps = st.lists(events | st.just(UNDO), min_size=1, max_size=120)


def drive(match: Match, items) -> list:
    """Apply what the rules accept, skip what they refuse; return the accepted log."""
    log = []
    for item in items:
        try:
            if item == UNDO:
                match.undo()
            else:
                match.apply(item)
        except RuleError:
            continue
        log.append(item)
    return log


def check_invariants(match: Match) -> None:
    s = match.snapshot()
    assert 1 <= s["balls_on_table"] <= 16  # FP-6/FP-7: every point is a ball off the table
    # CV-1: a score below 0 is a ball owed (the "American" penalty only), not one on the table
    shelves = sum(max(points, 0) for points in s["score"].values())
    assert s["balls_on_table"] == 16 - shelves
    assert s["penalty"] == "american" or min(s["score"].values()) >= 0
    finished = s["frame"] - (0 if s["phase"] in ("frame-over", "match-over") else 1)
    assert sum(s["frames"].values()) == finished == len(s["frame_scores"])  # FP-1, D-5
    for a, b in s["frame_scores"]:  # FP-1, D-2: a frame ends when one player reaches the target
        assert max(a, b) >= s["target"] > min(a, b)
    if s["phase"] not in ("frame-over", "match-over"):
        assert max(s["score"].values()) < s["target"]  # nobody past the target mid-frame
    assert (s["striker"] is not None) == (s["phase"] in ("break", "play"))
    assert (s["decider"] is not None) == (s["phase"] in ("foul", "break-foul"))
    assert (s["winner"] is not None) == (s["phase"] == "match-over")


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["A", "B"]), st.integers(1, 3), st.sampled_from(["ball", "american"]), steps)
def test_invariants_hold_after_every_event(breaker, race, penalty, items):
    match = Match()
    replay([f"race {race}", f"option penalty={penalty}", f"break {breaker}"], match)
    for item in items:
        drive(match, [item])
        check_invariants(match)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["A", "B"]), st.sampled_from(["ball", "american"]), steps, events)
def test_undo_after_apply_is_identity(breaker, penalty, items, last):
    match = Match()
    replay(["race 2", f"option penalty={penalty}", f"break {breaker}"], match)
    drive(match, items)
    before = match.snapshot()
    try:
        match.apply(last)
    except RuleError:
        assert match.snapshot() == before  # a refused event changes nothing
        return
    match.undo()
    assert match.snapshot() == before


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["A", "B"]), steps)
def test_replay_of_the_written_log_is_deterministic(breaker, items):
    live = Match()
    replay(["race 2", f"break {breaker}"], live)
    log = ["race 2", f"break {breaker}"] + [format_event(e) for e in drive(live, items)]
    first, second = replay(log), replay(log)
    assert first.snapshot() == second.snapshot() == live.snapshot()
