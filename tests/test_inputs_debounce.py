"""Button debouncing and press/hold classification as a pure function of timed edges."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoreboard.inputs.debounce import ButtonDebouncer
from scoreboard.inputs.events import ButtonHold, ButtonPress


def run(edges, *, hold_time=1.0, bounce_time=0.02, ticks=(), end=100.0, button="A"):
    """Feed (t, pressed) edges and tick times in time order; return all events."""
    d = ButtonDebouncer(button, bounce_time=bounce_time, hold_time=hold_time)
    steps = sorted([(t, 0, p) for t, p in edges] + [(t, 1, None) for t in ticks])
    events = []
    for t, kind, pressed in steps:
        events += d.edge(pressed, t) if kind == 0 else d.tick(t)
    return events + d.tick(end)


def chatter(t, final, rng, *, n=6, span=0.008):
    """Edges of a contact that bounces for `span` s around `t` and settles at `final`."""
    times = sorted(t + rng.uniform(0, span) for _ in range(n))
    return [(x, i % 2 == 0) if final else (x, i % 2 == 1) for i, x in enumerate(times)] + [
        (t + span + 0.001, final)
    ]


def test_clean_press_is_one_press_on_release():
    assert run([(1.0, True), (1.2, False)]) == [ButtonPress("A", 1.2)]


def test_chattering_press_is_one_press():
    rng = random.Random(1)
    edges = chatter(1.0, True, rng) + chatter(1.3, False, rng)
    events = run(edges)
    assert len(events) == 1 and isinstance(events[0], ButtonPress)


def test_spike_shorter_than_bounce_time_is_nothing():
    assert run([(1.0, True), (1.005, False)]) == []


def test_hold_reported_by_tick_while_held_and_no_press_on_release():
    events = run([(1.0, True), (2.5, False)], ticks=[1.5, 2.01, 2.2])
    assert events == [ButtonHold("A", 2.0)]


def test_hold_without_ticks_is_still_one_hold_at_release():
    assert run([(1.0, True), (2.5, False)]) == [ButtonHold("A", 2.0)]


def test_undo_hold_time_is_per_button():
    # A 1.5 s press of UNDO (hold time 3 s) is a press, a 3.2 s one a hold.
    assert run([(1.0, True), (2.5, False)], hold_time=3.0, button="undo") == [
        ButtonPress("undo", 2.5)
    ]
    assert run([(1.0, True), (4.2, False)], hold_time=3.0, ticks=[3.0, 4.1], button="undo") == [
        ButtonHold("undo", 4.0)
    ]


def test_chatter_at_release_of_a_hold_gives_no_extra_press():
    rng = random.Random(2)
    edges = [(1.0, True)] + chatter(2.5, False, rng, n=9)
    assert run(edges, ticks=[2.1]) == [ButtonHold("A", 2.0)]


@settings(max_examples=200, deadline=None)
@given(
    presses=st.lists(st.tuples(st.floats(0.03, 3.5), st.floats(0.05, 2.0)), min_size=1, max_size=8),
    seed=st.integers(0, 10**6),
    tick_every=st.sampled_from([None, 0.01, 0.05]),
)
def test_each_press_gives_exactly_one_event_of_the_right_kind(presses, seed, tick_every):
    rng = random.Random(seed)
    t, edges, expected = 1.0, [], []
    for length, gap in presses:
        edges += chatter(t, True, rng)
        up = t + 0.009 + length
        edges += chatter(up, False, rng)
        # Settled press starts at the last press edge, release at the last release edge.
        held = (up + 0.009) - (t + 0.009) >= 1.0
        expected.append(ButtonHold if held else ButtonPress)
        t = up + 0.009 + max(gap, 0.05)
    ticks = [] if tick_every is None else [i * tick_every for i in range(int(t / tick_every) + 2)]
    events = run(edges, ticks=ticks, end=t + 5)
    assert [type(e) for e in events] == expected
    assert [e.t for e in events] == sorted(e.t for e in events)


def test_due_says_when_time_alone_next_decides_so_the_loop_need_not_poll():
    from scoreboard.inputs.debounce import ButtonDebouncer

    d = ButtonDebouncer("A", bounce_time=0.02, hold_time=1.0)
    assert d.due() is None  # nothing pending: the loop sleeps
    d.edge(True, 10.0)
    assert d.due() == pytest.approx(10.02)  # the press settles then
    d.tick(10.02)
    assert d.due() == pytest.approx(11.0)  # and becomes a hold then
    assert [type(e).__name__ for e in d.tick(11.0)] == ["ButtonHold"]
    assert d.due() is None
    d.edge(False, 12.0)
    assert d.due() == pytest.approx(12.02)
    assert d.tick(12.02) == [] and d.due() is None  # a hold's release says nothing


def test_a_press_released_at_exactly_the_hold_time_is_a_hold():
    assert run([(1.0, True), (2.0, False)]) == [ButtonHold("A", 2.0)]
    assert run([(1.0, True), (1.99, False)]) == [ButtonPress("A", 1.99)]


def test_a_release_still_settling_past_the_hold_time_does_not_make_a_hold():
    # Released at 1.99 s; a tick at 2.005 s, before the release settles, sees the contact
    # open since 1.99: the press lasted 0.99 s.
    assert run([(1.0, True), (1.99, False)], ticks=[2.005]) == [ButtonPress("A", 1.99)]


def test_after_a_hold_the_next_short_press_is_a_press():
    edges = [(1.0, True), (2.5, False), (3.0, True), (3.2, False)]
    assert run(edges, ticks=[2.1]) == [ButtonHold("A", 2.0), ButtonPress("A", 3.2)]
    assert run(edges) == [ButtonHold("A", 2.0), ButtonPress("A", 3.2)]


def test_the_defaults_are_a_20_ms_bounce_and_a_1_s_hold():
    d = ButtonDebouncer("A")
    events = d.edge(True, 1.0) + d.edge(False, 1.019) + d.tick(5.0)  # a 19 ms spike
    events += d.edge(True, 6.0) + d.edge(False, 6.99) + d.tick(7.0)  # 0.99 s: a press
    events += d.edge(True, 8.0) + d.edge(False, 9.0) + d.tick(9.5)  # 1 s: a hold
    assert events == [ButtonPress("A", 6.99), ButtonHold("A", 9.0)]
