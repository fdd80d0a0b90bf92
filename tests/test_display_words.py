"""Every screen names the configured timings (issue 11, "always know what to press"):
from the config's [timings] through the appliance's displays to the picture."""

import dataclasses

import pytest
from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.display.render import panel, render
from scoreboard.inputs.events import ButtonPress, Pot
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance
from scoreboard.texts.i18n import translator
from scoreboard.texts.words import Timings, Words, shown_seconds


@pytest.mark.parametrize(
    ("lang", "wide", "seconds", "text"),
    [
        ("en", False, 1.0, "1 s"),
        ("uk", False, 1.5, "1,5 с"),
        ("ru", False, 0.25, "0,3 с"),  # rounded up: holding that long always works
        ("en", True, 1.0, "1 second"),
        ("en", True, 2.0, "2 seconds"),
        ("en", True, 1.5, "1.5 seconds"),
        ("uk", True, 1.0, "1 секунду"),
        ("uk", True, 3.0, "3 секунди"),
        ("uk", True, 5.0, "5 секунд"),
        ("uk", True, 21.0, "21 секунду"),
        ("uk", True, 1.5, "1,5 секунди"),
        ("ru", True, 2.0, "2 секунды"),
        ("ru", True, 11.0, "11 секунд"),
        ("ru", True, 29.75, "30 секунд"),
    ],
)
def test_timings_are_written_as_the_language_writes_them(lang, wide, seconds, text):
    assert Words(translator(lang), wide=wide).seconds(seconds) == text


def test_shown_seconds_round_up():
    assert [shown_seconds(v) for v in (0.3, 1.0, 1.04, 9.75, 10.0, 10.2)] == [
        0.3,
        1.0,
        1.1,
        9.8,
        10.0,
        11.0,
    ]


def test_timed_messages_fill_in_the_configured_hold():
    t = Words(translator("en"), Timings(hold=2.5, undo_hold=6))
    assert t.timed("hold {hold}: re-rack") == "hold 2.5 s: re-rack"
    assert t.timed("UNDO {undo_hold}: new match") == "UNDO 6 s: new match"


TOML = """
[display]
language = "en"
[[display.screen]]
driver = "dummy"
emulates = "ssd1306"
[timings]
hold_time = 2.5
undo_hold_time = 6
[sensors]
source = "gpio"
"""


@pytest.fixture
def appliance(tmp_path):
    cfg = configuration.loads(TOML)
    clock = ManualClock(100.0)
    a = Appliance(
        cfg, state_dir=tmp_path, pin_factory=MockFactory(), clock=clock, log=lambda m: None
    )
    a.app.start()
    yield a
    a.close()


def drawn(a):
    (screen,) = a.app.screens
    return screen.image.convert("1").tobytes()


def picture(snap, timings, **extra):
    return render(snap, panel("ssd1306"), lang="en", timings=timings, **extra).tobytes()


def test_the_break_foul_screen_names_the_configured_hold(appliance):
    a = appliance
    for event in (ButtonPress("A", 1.0), Pot(3, 2.0), Pot(4, 2.5), ButtonPress("foul", 3.0)):
        a.loop.put(event)
    a.loop.run_pending()
    snap = a.app.shown.snapshot
    assert snap["phase"] == "break-foul"
    configured = Timings(hold=2.5, undo_hold=6)
    assert drawn(a) == picture(snap, configured)
    assert drawn(a) != picture(snap, Timings())  # the default "1 s" is not what it shows


def test_the_hint_names_the_configured_hold(appliance):
    a = appliance
    for event in (ButtonPress("A", 1.0), ButtonPress("A", 2.0)):  # the striker presses
        a.loop.put(event)
    a.loop.run_pending()
    assert a.app.hint == "hold-to-pot"
    snap = a.app.shown.snapshot
    assert drawn(a) == picture(snap, Timings(2.5, 6), hint="hold-to-pot")
    assert drawn(a) != picture(snap, Timings(), hint="hold-to-pot")


def test_timings_from_config():
    cfg = configuration.loads(TOML)
    assert Timings.from_config(cfg.timings) == Timings(hold=2.5, undo_hold=6.0)
    assert dataclasses.asdict(Timings.from_config(configuration.default().timings)) == {
        "hold": 1.0,
        "undo_hold": 3.0,
    }
