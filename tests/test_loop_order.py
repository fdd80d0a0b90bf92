"""The table's one loop (table/loop.py): events in the order they were put, and a timer never
before a player's input put before it was due (issue 21). Simulated time only."""

from scoreboard.table.loop import EventLoop, ManualClock


def loop_recording():
    seen = []
    clock = ManualClock(10.0)
    loop = EventLoop(seen.append, clock=clock)
    return loop, seen, clock


def test_events_are_taken_in_the_order_they_were_put_inputs_too():
    """An UNDO sent over the socket before a ball takes back the step before the ball."""
    loop, seen, _ = loop_recording()
    loop.put("undo from the socket")
    loop.put_input("ball in pocket 3")
    loop.put("setup from the club")
    loop.run_pending()
    assert seen == ["undo from the socket", "ball in pocket 3", "setup from the club"]


def test_a_due_timer_waits_for_the_inputs_put_before_it_and_what_was_queued_ahead():
    loop, seen, clock = loop_recording()
    loop.call_at(10.5, lambda: seen.append("hold's timer"))
    loop.put("a command")
    loop.put_input("release")
    clock.advance(1.0)  # the timer is due; the release was put first
    loop.run_pending()
    assert seen == ["a command", "release", "hold's timer"]


def test_a_timer_with_no_input_waiting_runs_before_the_commands_queued():
    loop, seen, clock = loop_recording()
    loop.call_at(10.5, lambda: seen.append("timer"))
    loop.put("a command")
    clock.advance(1.0)
    loop.run_pending()
    assert seen == ["timer", "a command"]


def test_inputs_that_keep_coming_never_starve_a_timer():
    """A chattering line: each input handled puts another; the timer runs after the inputs
    that were waiting when it came due, not after all that follow."""
    seen = []
    clock = ManualClock(10.0)
    loop = EventLoop(lambda e: (seen.append(e), e < 100 and loop.put_input(e + 1)), clock=clock)
    loop.call_at(10.5, lambda: seen.append("timer"))
    for n in (1, 2, 3):
        loop.put_input(n * 1000)  # not chattering: three edges
    loop.put_input(0)  # this one chatters
    clock.advance(1.0)
    loop.run_pending()
    assert seen.index("timer") == 4  # after the four waiting, before the chatter's next
    assert seen[-1] == 100
