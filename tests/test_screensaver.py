"""OLED burn-in (issue 11): dim after an idle time, then a moving saver; any input wakes
it, and the press that wakes the saver does nothing else. Through the app's event path,
on luma's real SSD1306 driver over its noop bus and a MAX7219, in simulated time."""

import pytest

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock
from scoreboard.table.screen_saver import SAVER_STEP

TOML = """
[display]
dim_after = 10
saver_after = 30
dim_contrast = 0x05
[[display.screen]]
driver = "dummy"
"""


@pytest.fixture
def app(tmp_path):
    cfg = configuration.loads(TOML)
    oled, led = create_displays(
        [
            {"driver": "ssd1306", "interface": "noop", "contrast": 0xCF},
            {"driver": "max7219", "interface": "noop", "cascaded": 4},
        ]
    )
    clock = ManualClock(1000.0)
    a = App(cfg, state_dir=tmp_path, screens=[oled, led], clock=clock, log=lambda m: None)
    a.start()
    a.clock, a.oled, a.led = clock, oled, led
    yield a
    a.close()


def wait(a, seconds):
    a.clock.advance(seconds)
    a.loop.run_pending()


def put(a, event):
    a.loop.put(event)
    a.loop.run_pending()


def picture(screen):
    return screen.picture.tobytes()


def test_idle_dims_then_shows_a_saver_that_moves(app):
    a = app
    play, room = picture(a.oled), picture(a.led)
    sent = a.oled.counter.sent
    wait(a, 9.9)
    assert a.saver.state == "awake" and a.oled.level == 0xCF
    wait(a, 0.2)
    assert a.saver.state == "dim" and a.oled.level == 0x05
    assert a.oled.counter.sent == sent + 2  # luma's contrast(): 0x81 and the level
    assert picture(a.oled) == play  # dimmed, the same picture
    wait(a, 20)
    assert a.saver.state == "saver"
    first = picture(a.oled)
    assert first != play
    lit = sum(bin(b).count("1") for b in first)
    assert 0 < lit < sum(bin(b).count("1") for b in play) // 3  # a few pixels lit
    wait(a, SAVER_STEP)
    assert picture(a.oled) not in (first, play)  # it moved
    assert picture(a.led) == room  # the LED digits do not burn in: left alone


def test_the_press_that_wakes_the_saver_does_nothing_else(app):
    a = app
    play = picture(a.oled)
    wait(a, 31)
    assert a.saver.state == "saver"
    events = len(a.match.events)
    put(a, ButtonPress("A", a.clock()))  # at "Who breaks first?": A would break
    assert a.saver.state == "awake" and a.oled.level == 0xCF
    assert len(a.match.events) == events and a.match.phase == "lag"  # swallowed
    assert picture(a.oled) == play
    put(a, ButtonPress("A", a.clock() + 1))  # now it acts
    assert a.match.phase == "break"


def test_a_hold_that_wakes_the_saver_is_swallowed_too(app):
    a = app
    wait(a, 31)
    put(a, ButtonHold("undo", a.clock()))
    assert a.saver.state == "awake" and a.hint is None  # no "UNDO new, FOUL phone"


def test_while_only_dimmed_a_press_acts(app):
    a = app
    wait(a, 11)
    assert a.saver.state == "dim"
    put(a, ButtonPress("A", a.clock()))
    assert a.saver.state == "awake" and a.match.phase == "break"


def test_a_ball_wakes_the_saver_and_still_counts(app):
    a = app
    put(a, ButtonPress("A", a.clock()))  # A breaks
    wait(a, 31)
    assert a.saver.state == "saver"
    put(a, Pot(2, a.clock()))
    assert a.saver.state == "awake"
    assert a.match.snapshot()["score"] == {"A": 1, "B": 0}


def test_input_starts_the_idle_time_again(app):
    a = app
    wait(a, 9)
    put(a, ButtonPress("A", a.clock()))
    wait(a, 9)
    assert a.saver.state == "awake"  # 18 s since start, 9 since the press
    wait(a, 1.1)
    assert a.saver.state == "dim"


def test_zero_turns_it_off(tmp_path):
    cfg = configuration.loads("[display]\ndim_after = 0\nsaver_after = 0\n")
    (oled,) = create_displays([{"driver": "ssd1306", "interface": "noop"}])
    clock = ManualClock(0.0)
    a = App(cfg, state_dir=tmp_path, screens=[oled], clock=clock, log=lambda m: None)
    a.start()
    before = picture(oled)
    clock.advance(86400)
    a.loop.run_pending()
    assert a.saver.state == "awake" and picture(oled) == before
    a.close()


def test_the_defaults_are_documented():
    d = configuration.default().display
    assert (d.dim_after, d.saver_after, d.dim_contrast) == (300.0, 900.0, 0x10)
    text = configuration.EXAMPLE_PATH.read_text(encoding="utf-8")
    assert "dim_after = 300.0" in text and "saver_after = 900.0" in text
    assert "dim_contrast = 0x10" in text
