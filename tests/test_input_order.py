"""A button's meaning never depends on queueing delay (issue 21): every input is judged by its
own time. A release that waited 2 s in the table's queue behind slow work from the network is
still a press, never a hold; a ball put behind it still counts, once. Simulated time only."""

from dataclasses import dataclass

from bridge_helpers import table
from helpers import press, settle


@dataclass(frozen=True)
class SlowCommand:
    """Work from the network that takes `seconds` of the table's time to handle."""

    seconds: float


def test_a_release_that_waited_2_s_behind_the_network_is_still_a_press(tmp_path):
    a = table(tmp_path)
    try:
        handled = []
        a.app.on(SlowCommand, lambda event: (a.clock.advance(event.seconds), handled.append(1)))
        press(a, a.config.pins.player_a)  # the lag: A breaks (GR-8.4)
        settle(a, 1.0)  # not "one button at a time"
        pin = a.factory.pin(a.config.pins.player_a)
        pin.drive_low()  # the striker's button: a press says how to enter a ball, a hold enters one
        settle(a, 0.2)
        for _ in range(200):  # 2 s of the network's work, queued before the release
            a.loop.put(SlowCommand(0.01))
        pin.drive_high()  # released 0.2 s after the press: a press, whatever waits before it
        a.loop.run_pending()
        settle(a, 0.1)
        assert len(handled) == 200  # the network's work was done too, after the press
        snapshot = a.app.match.snapshot()
        assert snapshot["score"] == {"A": 0, "B": 0}  # never a ball entered by a hold
        assert a.app.hint == "hold-to-pot"  # it was taken as the press it was
    finally:
        a.close()


def test_a_timer_never_decides_before_an_input_already_put(tmp_path):
    """The hold's timer is due 1 s after the press; the release, put at 0.3 s, goes first."""
    a = table(tmp_path)
    try:
        press(a, a.config.pins.player_b)  # the lag: B breaks
        settle(a, 1.0)
        pin = a.factory.pin(a.config.pins.player_b)
        pin.drive_low()
        settle(a, 0.3)
        pin.drive_high()  # put now, at 0.3 s; nothing runs it yet
        a.clock.advance(1.5)  # the loop was busy: the hold's moment has passed
        a.loop.run_pending()
        snapshot = a.app.match.snapshot()
        assert snapshot["score"] == {"A": 0, "B": 0}
        assert a.app.hint == "hold-to-pot"
    finally:
        a.close()
