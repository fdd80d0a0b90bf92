"""The whole appliance on gpiozero's MockFactory pins and luma's dummy display, in simulated time."""

import dataclasses

import pytest
from gpiozero.pins.mock import MockFactory
from helpers import press, settle

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance, screen_specs


@pytest.fixture
def appliance(tmp_path):
    cfg = configuration.default()
    cfg = dataclasses.replace(cfg, sensors=dataclasses.replace(cfg.sensors, source="gpio"))
    clock = ManualClock(100.0)
    factory = MockFactory()
    screens = create_displays([{"driver": "dummy", "emulates": "ssd1306"}], lang="en")
    a = Appliance(
        cfg,
        state_dir=tmp_path,
        screens=screens,
        pin_factory=factory,
        clock=clock,
        log=lambda m: None,
    )
    a.app.start()
    a.clock, a.factory, a.screen = clock, factory, screens[0]
    yield a
    a.close()


def ball(a, pocket_pin, ms=40):
    a.factory.pin(pocket_pin).drive_low()  # the beam is broken while the ball passes
    settle(a, ms / 1000)
    a.factory.pin(pocket_pin).drive_high()
    settle(a, 0.05)


def test_buttons_and_gpio_pocket_sensors_play_a_frame(appliance):
    a, pins = appliance, appliance.config.pins
    press(a, pins.player_a)  # lag: A breaks
    ball(a, pins.pockets[0])
    ball(a, pins.pockets[2])
    s = a.app.shown.snapshot
    assert s["phase"] == "play" and s["score"] == {"A": 2, "B": 0}
    assert a.app.match.events[-1].pots == 2  # close together: one shot
    press(a, pins.foul)  # the same shot was a foul: both balls come back (GR-22.3)
    s = a.app.shown.snapshot
    assert s["phase"] == "break-foul" and s["score"] == {"A": 0, "B": 1}


def test_a_hold_is_a_ball_by_hand_and_chatter_is_one_press(appliance):
    a, pins = appliance, appliance.config.pins
    pin = a.factory.pin(pins.player_a)
    events = a.app.shown.snapshot["events"]  # the match's settings, however many lines
    for _ in range(5):  # a chattering contact settles into one press
        pin.drive_low()
        settle(a, 0.002)
        pin.drive_high()
        settle(a, 0.002)
    pin.drive_low()
    settle(a, 0.1)
    pin.drive_high()
    settle(a, 0.1)
    shown = a.app.shown.snapshot
    assert shown["phase"] == "break" and shown["breaker"] == "A"
    assert shown["events"] == events + 1  # one press: one event, "break A"
    press(a, pins.player_a, seconds=1.3)  # held: a ball entered by hand
    assert a.app.shown.snapshot["score"] == {"A": 1, "B": 0}


def test_the_loop_sleeps_when_no_input_moves(appliance):
    a = appliance
    press(a, a.config.pins.player_a)
    settle(a, 1.0)
    assert a._ticking is None  # nothing scheduled: the loop waits on its queue


def test_a_stuck_pocket_sensor_is_a_fault_not_a_stream_of_pots(appliance):
    a, pins = appliance, appliance.config.pins
    press(a, pins.player_a)
    a.factory.pin(pins.pockets[3]).drive_low()
    settle(a, 3.0)
    assert {"kind": "sensor-stuck", "pocket": 4} in a.app.shown.faults
    assert a.app.shown.snapshot["score"] == {"A": 0, "B": 0}
    a.factory.pin(pins.pockets[3]).drive_high()
    settle(a, 2.0)
    assert a.app.shown.faults == ()


def test_screen_specs_follow_the_config():
    cfg = configuration.loads(
        '[[display.screen]]\ndriver = "ssd1322"\ninterface = "spi"\nspi_device = 1\n'
        '[[display.screen]]\ndriver = "max7219"\ncascaded = 4\n'
    )
    oled, led = screen_specs(cfg)
    assert oled["driver"] == "ssd1322" and oled["device"] == 1 and oled["interface"] == "spi"
    assert (oled["gpio_dc"], oled["gpio_rst"], oled["contrast"]) == (24, 25, 0xCF)
    assert led["cascaded"] == 4 and led["contrast"] == 0x70
    assert (oled["spi_speed_hz"], led["spi_speed_hz"]) == (8_000_000, 1_000_000)


def test_the_spi_speed_reaches_the_options_luma_builds_the_bus_from():
    """config file -> screen spec -> the options luma's make_interface opens spidev with."""
    from luma.core import cmdline

    from scoreboard.display.devices import _luma_args, panel_for

    cfg = configuration.loads(
        '[[display.screen]]\ndriver = "max7219"\nspi_speed_hz = 500000\n'
        '[[display.screen]]\ndriver = "ssd1322"\nspi_device = 1\nspi_speed_hz = 16000000\n'
        '[[display.screen]]\ndriver = "ssd1306"\ninterface = "spi"\nport = 1\ngpio_dc = 12\ngpio_rst = 4\n'
        "[pins]\nundo = 26\n"
    )
    speeds = []
    for spec in screen_specs(cfg):
        args = _luma_args(spec, panel_for(spec))
        assert args.interface == "spi"
        speeds.append(cmdline.make_interface(args).opts.spi_bus_speed)
    assert speeds == [500_000, 16_000_000, 8_000_000]


def test_a_display_that_fails_at_start_is_reported_and_the_appliance_runs(tmp_path):
    cfg = configuration.loads(
        '[[display.screen]]\ndriver = "ssd1306"\nport = 42\n[sensors]\nsource = "none"\n'
    )
    said = []
    a = Appliance(cfg, state_dir=tmp_path, pin_factory=MockFactory(), log=said.append)
    a.app.start()
    assert any("ssd1306" in message for message in said)
    assert a.app.shown.snapshot["phase"] == "lag"
    a.close()


@pytest.mark.parametrize("speed", configuration.SPI_SPEEDS)
def test_every_spi_speed_the_config_takes_is_one_luma_sets_on_the_bus(speed):
    """luma's spi interface refuses clocks outside its own list (an assert): the config's
    list must be inside it. spidev ships no fake, so a stand-in takes its place."""
    from luma.core.interface.serial import noop, spi

    class SpiDev:
        def open(self, port, device):
            self.opened = (port, device)

    bus = SpiDev()
    spi(spi=bus, gpio=noop(), port=0, device=1, bus_speed_hz=speed)
    assert bus.opened == (0, 1) and bus.max_speed_hz == speed
