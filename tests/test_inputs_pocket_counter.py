"""The shared pocket counter: one ball per pass, chatter, back-to-back balls, stuck beams."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.inputs.portable.pocket_counter import (
    CLEARED,
    POT,
    RETRACT,
    STUCK,
    PocketCounter,
)


def count(edges, *, polls=(), end=None, **options):
    """Run (t_ms, blocked) edges and poll times through a counter; return its events."""
    counter = PocketCounter(**options)
    steps = sorted([(t, 0, b) for t, b in edges] + [(t, 1, None) for t in polls])
    events = []
    for t, kind, blocked in steps:
        events += counter.edge(blocked, t) if kind == 0 else counter.poll(t)
    if end is not None:
        events += counter.poll(end)
    return events


def ball(start, length, rng=None, flickers=0):
    """Edges of one ball: blocked for `length` ms with short flickers at both ends."""
    edges = [(start, True), (start + length, False)]
    rng = rng or random.Random(0)
    for _ in range(flickers):
        at = start + rng.uniform(0.2, 3)
        edges += [(at, False), (at + rng.uniform(0.1, 0.8), True)]
        at = start + length + rng.uniform(0.2, 2.5)
        edges += [(at, True), (at + rng.uniform(0.1, 0.8), False)]
    return edges


def kinds(events):
    return [k for k, _ in events]


def test_fast_and_slow_balls_count_once_at_their_start():
    assert count(ball(100, 15), end=200) == [(POT, 100)]
    assert count(ball(100, 150), end=400) == [(POT, 100)]


def test_ball_counts_only_after_beam_stayed_clear():
    assert count(ball(100, 40), polls=[141]) == []
    assert count(ball(100, 40), polls=[144]) == [(POT, 100)]


def test_chatter_within_a_ball_is_one_ball():
    rng = random.Random(3)
    assert kinds(count(ball(100, 30, rng, flickers=5), end=300)) == [POT]


def test_spike_is_not_a_ball():
    assert count([(100, True), (102, False)], end=200) == []


def test_two_balls_back_to_back_with_a_clear_gap_are_two():
    edges = ball(100, 40) + ball(146, 40)
    assert count(edges, end=400) == [(POT, 100), (POT, 146)]


def test_stuck_beam_reported_once_its_leading_edge_pot_retracted_then_cleared():
    polls = range(0, 6000, 10)
    events = count([(100, True), (4000, False)], polls=polls)
    # Counted on its leading edge, like any ball; stuck at 2 s, so taken back: no pot in all.
    assert events == [(POT, 100), (STUCK, 2100), (RETRACT, 100), (CLEARED, 5000)]


def test_stuck_pocket_ignores_flicker_until_clear_for_clear_time():
    edges = [(100, True), (3000, False), (3500, True), (3510, False)]
    events = count(edges, polls=range(0, 8000, 10))
    assert kinds(events) == [POT, STUCK, RETRACT, CLEARED]
    assert events[3][1] == 4510
    # and it counts again afterwards
    again = count(edges + ball(6000, 40), polls=range(0, 8000, 10))
    assert kinds(again) == [POT, STUCK, RETRACT, CLEARED, POT]


def test_long_block_seen_only_by_edges_is_still_stuck_not_a_pot():
    assert kinds(count([(100, True), (2500, False)], polls=[9000], end=9001)) == [STUCK, CLEARED]


def test_a_stuck_beam_seen_only_by_its_edges_ignores_the_pocket_until_clear_for_clear_ms():
    # As when a poll sees it stuck: a ball (or a flicker) within clear_ms of the beam
    # clearing is no pot and starts the wait again; after it, the next ball counts once.
    counter = PocketCounter()
    counter.edge(True, 100)
    counter.edge(False, 2500)
    assert counter.poll(2510) == [(STUCK, 2100)]
    assert not counter.idle() and counter.due() == 3500
    counter.edge(True, 2600)
    counter.edge(False, 2650)
    assert counter.poll(3649) == []
    assert counter.poll(3650) == [(CLEARED, 3650)]
    assert counter.idle() and counter.due() is None
    counter.edge(True, 5000)
    counter.edge(False, 5050)
    assert counter.poll(5060) == [(POT, 5000)]


@settings(max_examples=300, deadline=None)
@given(
    balls=st.lists(
        st.tuples(st.integers(15, 150), st.integers(6, 400), st.integers(0, 4)),
        min_size=1,
        max_size=12,
    ),
    seed=st.integers(0, 10**6),
    poll_every=st.sampled_from([None, 1, 7]),
)
def test_every_ball_counts_exactly_once(balls, seed, poll_every):
    rng = random.Random(seed)
    t, edges, starts = 100, [], []
    for length, gap, flickers in balls:
        edges += ball(t, length, rng, flickers)
        starts.append(t)
        # Flickers end within 3.3 ms of the ball; the next ball comes a clear gap later.
        t += length + 4 + gap
    polls = [] if poll_every is None else range(0, t + 50, poll_every)
    events = count(edges, polls=polls, end=t + 100)
    assert events == [(POT, s) for s in starts]


def test_due_is_when_the_ball_or_the_stuck_beam_is_decided():
    from scoreboard.inputs.portable.pocket_counter import PocketCounter

    c = PocketCounter(chatter_ms=4, stuck_ms=2000)
    assert c.due() is None
    c.edge(True, 100.0)
    assert c.due() == 105.0  # a ball, if still blocked then (its leading edge)
    assert c.poll(105.0) == [("pot", 100.0)]
    assert c.due() == 2100.0  # stuck if still blocked then
    c.edge(False, 140.0)
    assert c.due() == 144.0  # the span ends once the beam stays clear for the chatter time
    assert c.poll(144.0) == [] and c.due() is None  # counted once, on its leading edge
    c.edge(True, 200.0)
    c.edge(False, 240.0)  # no poll while it was blocked: counted when it has left
    assert c.due() == 244.0 and c.poll(244.0) == [("pot", 200.0)]


def test_a_beam_blocked_for_exactly_stuck_ms_is_stuck_and_a_millisecond_less_is_not():
    assert count([(100, True)], polls=[2099]) == [(POT, 100)]
    assert count([(100, True)], polls=[2099, 2100]) == [(POT, 100), (STUCK, 2100), (RETRACT, 100)]
    # A first look only once it is stuck: a fault, never a pot to take back.
    assert count([(100, True)], polls=[2100]) == [(STUCK, 2100)]
    # Seen only by its edges (no poll while blocked): the same boundary.
    assert count([(100, True), (2100, False)], polls=[9000], end=9001) == [
        (STUCK, 2100),
        (CLEARED, 3100),
    ]
    assert count([(100, True), (2099, False)], end=9000) == [(POT, 100)]


def test_a_ball_counts_on_its_leading_edge_once_blocked_for_min_ball_ms():
    assert count([(100, True)], polls=[104]) == []
    assert count([(100, True)], polls=[104, 105]) == [(POT, 100)]
    # The end of the same ball adds nothing.
    assert count([(100, True), (140, False)], polls=[105], end=200) == [(POT, 100)]


def test_a_ball_blocked_for_exactly_min_ball_ms_is_a_ball_and_shorter_is_a_spike():
    assert count([(100, True), (105, False)], end=200) == [(POT, 100)]
    assert count([(100, True), (104, False)], end=200) == []


def test_idle_only_with_the_beam_clear_and_no_ball_half_read():
    from scoreboard.inputs.portable.pocket_counter import PocketCounter

    c = PocketCounter(chatter_ms=4)
    assert c.idle() is True
    c.edge(True, 100)
    assert c.idle() is False  # a ball in the beam
    c.edge(False, 140)
    assert c.idle() is False  # it left, but is not counted until the chatter time passes
    assert c.poll(144) == [(POT, 100)]
    assert c.idle() is True


def test_a_stuck_beam_is_decided_by_nothing_until_it_clears():
    from scoreboard.inputs.portable.pocket_counter import PocketCounter

    c = PocketCounter(stuck_ms=2000, clear_ms=1000)
    c.edge(True, 100)
    assert c.poll(2100) == [(STUCK, 2100)]
    assert c.due() is None and c.poll(5000) == []  # reported once
    c.edge(False, 5000)
    assert c.due() == 6000  # clear for clear_ms before it counts again
    assert c.poll(5999) == [] and c.poll(6000) == [(CLEARED, 6000)]


def test_a_clear_gap_of_exactly_chatter_ms_parts_two_balls_and_a_shorter_one_joins_them():
    # No poll in between: the next block itself decides whether the first ball is over.
    assert count(ball(100, 40) + ball(144, 40), end=400) == [(POT, 100), (POT, 144)]
    assert count(ball(100, 40) + ball(143, 40), end=400) == [(POT, 100)]
