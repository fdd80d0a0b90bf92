"""Pocket beam sensors on the Pi's GPIO through gpiozero's MockFactory."""

import pytest
from gpio_reading import reading
from gpiozero.pins.mock import MockFactory

from scoreboard.inputs.events import Pot, SensorCleared, SensorStuck
from scoreboard.inputs.gpio_pockets import DEFAULT_PINS, GpioPockets
from scoreboard.table.loop import ManualClock


@pytest.fixture
def table():
    factory, clock, events, edges = MockFactory(), ManualClock(50.0), [], []
    pockets = GpioPockets(edges.append, clock=clock, pin_factory=factory)
    yield factory, clock, events, reading(pockets, edges, events)
    pockets.close()
    factory.close()


def advance(clock, tick, seconds, step=0.01):
    for _ in range(round(seconds / step)):
        clock.now += step
        tick()


def test_a_ball_in_each_pocket_is_one_pot_each(table):
    factory, clock, events, tick = table
    for pin in DEFAULT_PINS:
        factory.pin(pin).drive_low()  # beam blocked
        clock.now += 0.04
        factory.pin(pin).drive_high()
        advance(clock, tick, 0.1)
    assert [e.pocket for e in events] == [1, 2, 3, 4, 5, 6]
    assert all(isinstance(e, Pot) and e.source == "gpio" for e in events)


def test_chatter_on_the_line_is_one_ball(table):
    factory, clock, events, tick = table
    pin = factory.pin(DEFAULT_PINS[2])
    start = clock.now
    for dt, blocked in [(0, 1), (0.001, 0), (0.0015, 1), (0.003, 0), (0.0032, 1), (0.05, 0)]:
        clock.now = start + dt
        (pin.drive_low if blocked else pin.drive_high)()
    advance(clock, tick, 0.1)
    assert events == [Pot(3, pytest.approx(start))]


def test_stuck_beam_is_one_fault_and_clears(table):
    factory, clock, events, tick = table
    factory.pin(DEFAULT_PINS[4]).drive_low()
    advance(clock, tick, 5)
    # Counted on its leading edge, then stuck: the fault, and that pot taken back.
    assert [(type(e), getattr(e, "retract", None)) for e in events] == [
        (Pot, False),
        (SensorStuck, None),
        (Pot, True),
    ]
    factory.pin(DEFAULT_PINS[4]).drive_high()
    advance(clock, tick, 1.5)
    assert [type(e) for e in events][-1] is SensorCleared
    assert {e.pocket for e in events} == {5}


def test_active_high_sensor_option():
    factory, clock, events, edges = MockFactory(), ManualClock(50.0), [], []
    pockets = GpioPockets(
        edges.append,
        pins=(4, 12, 20, 21, 16, 26),
        blocked_when_low=False,
        clock=clock,
        pin_factory=factory,
    )
    try:
        factory.pin(4).drive_high()
        clock.now += 0.03
        factory.pin(4).drive_low()
        advance(clock, reading(pockets, edges, events), 0.05)
        assert [e.pocket for e in events] == [1]
    finally:
        pockets.close()
        factory.close()
