"""The button panel through gpiozero's MockFactory: pins, pull-ups, holds, per-button times."""

import pytest
from gpio_reading import reading
from gpiozero.pins.mock import MockFactory

from scoreboard.inputs.buttons import DEFAULT_PINS, Buttons
from scoreboard.inputs.events import ButtonHold, ButtonPress
from scoreboard.table.loop import ManualClock


@pytest.fixture
def panel():
    factory, clock, events, edges = MockFactory(), ManualClock(10.0), [], []
    buttons = Buttons(edges.append, clock=clock, pin_factory=factory)
    yield factory, clock, events, reading(buttons, edges, events)
    buttons.close()
    factory.close()


def press(factory, clock, pin, seconds):
    clock.now += 0.1
    factory.pin(pin).drive_low()  # buttons close to ground
    clock.now += seconds
    factory.pin(pin).drive_high()
    clock.now += 0.05


def test_short_press_of_each_button_is_one_press(panel):
    factory, clock, events, tick = panel
    for pin in DEFAULT_PINS.values():
        press(factory, clock, pin, 0.2)
        tick()
    assert [(type(e), e.button) for e in events] == [(ButtonPress, n) for n in DEFAULT_PINS]


def test_hold_of_player_button_reported_while_still_held(panel):
    factory, clock, events, tick = panel
    factory.pin(DEFAULT_PINS["B"]).drive_low()
    for _ in range(12):
        clock.now += 0.1
        tick()
    assert events == [ButtonHold("B", pytest.approx(11.0))]
    factory.pin(DEFAULT_PINS["B"]).drive_high()
    clock.now += 0.1
    tick()
    assert len(events) == 1


def test_undo_needs_three_seconds_to_be_a_hold(panel):
    factory, clock, events, tick = panel
    press(factory, clock, DEFAULT_PINS["undo"], 1.5)
    tick()
    press(factory, clock, DEFAULT_PINS["undo"], 3.2)
    tick()
    assert [type(e) for e in events] == [ButtonPress, ButtonHold]


def test_two_buttons_at_once_give_one_event_each(panel):
    factory, clock, events, tick = panel
    factory.pin(DEFAULT_PINS["A"]).drive_low()
    factory.pin(DEFAULT_PINS["B"]).drive_low()
    clock.now += 0.3
    factory.pin(DEFAULT_PINS["B"]).drive_high()
    factory.pin(DEFAULT_PINS["A"]).drive_high()
    clock.now += 0.1
    tick()
    assert sorted(e.button for e in events) == ["A", "B"]
    assert all(isinstance(e, ButtonPress) for e in events)


def test_pins_and_hold_times_are_configurable():
    factory, clock, events, edges = MockFactory(), ManualClock(10.0), [], []
    buttons = Buttons(
        edges.append,
        pins={"A": 20, "B": 21, "foul": 12, "undo": 4},
        hold_times={"A": 0.5},
        clock=clock,
        pin_factory=factory,
    )
    tick = reading(buttons, edges, events)
    try:
        press(factory, clock, 20, 0.6)
        tick()
        press(factory, clock, 5, 0.6)  # the old default pin: not wired any more
        tick()
        assert events == [ButtonHold("A", pytest.approx(10.6))]
    finally:
        buttons.close()
        factory.close()
