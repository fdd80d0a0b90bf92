"""The shot clock and the beeper (issue 11): off by default; a limit per shot in play with one
extension per player per frame, a bar on the play screen, beeps on gpiozero's TonalBuzzer
(MockFactory with PWM pins); advisory: it never changes the score. Simulated time only."""

import dataclasses
from functools import partial

import helpers
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.tones import Tone

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.display.render import panel, render
from scoreboard.inputs.events import ButtonPress, Pot
from scoreboard.store.journal import read_journal
from scoreboard.table.beeper import Beeper
from scoreboard.table.loop import ManualClock
from scoreboard.table.presenter import Shown
from scoreboard.table.wiring import Appliance

START = 1000.0  # make_app's ManualClock starts here; the tests' times count from it
CLOCK = "[shot_clock]\nseconds = 30.0\nwarning = 10.0\nextension = 20.0\n"
NAMES = '[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = 2\n'


# Inputs at their times (seconds from START), or time passing to `seconds` from START: the
# frame shown after, whole.
feed = partial(helpers.feed, start=START, last=helpers.last_frame)
at = partial(helpers.at, start=START, last=helpers.last_frame)


def in_play(app):
    """Олена breaks and pots a ball at 2 s: she is at the table, in play, her time running."""
    s, _, _ = feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))
    assert s["phase"] == "play" and s["striker"] == "A"
    return s


def test_the_shot_clock_is_off_by_default(make_app):
    app = make_app(NAMES)
    s = in_play(app)
    assert "shot_clock" not in s and at(app, 500.0)[0] == s


def test_a_shot_has_its_seconds_then_time_is_up_and_nothing_else_changes(make_app):
    app = make_app(NAMES + CLOCK)
    s = in_play(app)
    assert s["shot_clock"] == {"left": 30, "limit": 30, "extension": True}
    assert at(app, 21.5)[0]["shot_clock"]["left"] == 11  # whole seconds, rounded up
    before = list(read_journal(app.storage.state_dir).lines)
    s, _, hint = at(app, 32.0)
    assert s["shot_clock"]["left"] == 0 and hint == ("time-up", (("name", "Олена"),))
    # Advisory (docs/decisions.md): no foul, no point, nothing journaled, she may still shoot.
    assert s["phase"] == "play" and s["score"] == {"A": 1, "B": 0} and s["striker"] == "A"
    assert read_journal(app.storage.state_dir).lines == before
    s, _, _ = feed(app, Pot(2, 40.0))  # a pot after the time: it counts (FP-5.2)
    assert s["score"] == {"A": 2, "B": 0} and s["shot_clock"]["left"] == 30  # a new shot


def test_a_ball_that_joins_the_open_shot_starts_the_time_again(make_app):
    app = make_app(NAMES + CLOCK)
    in_play(app)
    s, _, _ = feed(app, Pot(3, 5.0))  # the same shot (one record: undo and the shot again)
    assert s["score"]["A"] == 2 and s["shot_clock"]["left"] == 30
    assert at(app, 34.0)[0]["shot_clock"]["left"] == 1


def test_every_step_starts_the_time_again_and_only_play_is_timed(make_app):
    app = make_app(NAMES + CLOCK)
    s, _, _ = feed(app, ButtonPress("A", 1.0))
    assert s["phase"] == "break" and "shot_clock" not in s  # the break follows racking
    in_play(app)
    at(app, 20.0)
    s, _, _ = feed(app, ButtonPress("B", 25.0))  # Олена missed: Тарас to the table
    assert s["striker"] == "B" and s["shot_clock"]["left"] == 30
    s, _, _ = feed(app, ButtonPress("foul", 40.0))  # his foul: Олена chooses, untimed
    assert s["phase"] == "foul" and "shot_clock" not in s
    s, _, _ = feed(app, ButtonPress("A", 45.0))
    assert s["phase"] == "play" and s["shot_clock"]["left"] == 30
    s, _, _ = feed(app, ButtonPress("undo", 50.0))  # an UNDO is a step too
    assert s["phase"] == "foul" and "shot_clock" not in s


def test_the_striker_extends_once_a_frame_with_his_own_button(make_app):
    app = make_app(NAMES + CLOCK)
    in_play(app)
    at(app, 25.0)  # 7 s left
    s, _, hint = feed(app, ButtonPress("A", 25.0))
    assert s["shot_clock"] == {"left": 27, "limit": 50, "extension": False}
    assert hint == ("extension", (("name", "Олена"),))
    s, _, hint = feed(app, ButtonPress("A", 26.0))  # no second one this frame
    assert s["shot_clock"]["left"] == 26 and hint == "hold-to-pot"
    assert (
        at(app, 51.9)[0]["shot_clock"]["left"] == 1 and at(app, 52.0)[0]["shot_clock"]["left"] == 0
    )
    s, _, _ = feed(app, ButtonPress("B", 60.0))  # Тарас's own extension is still his
    assert s["shot_clock"]["extension"] is True
    s, _, _ = feed(app, ButtonPress("B", 61.0))
    assert s["shot_clock"]["limit"] == 50 and s["score"] == {"A": 1, "B": 0}


def test_no_extension_when_the_config_gives_none(make_app):
    app = make_app(NAMES + CLOCK.replace("extension = 20.0", "extension = 0.0"))
    s = in_play(app)
    assert s["shot_clock"]["extension"] is False
    s, _, hint = feed(app, ButtonPress("A", 5.0))
    assert s["shot_clock"]["limit"] == 30 and hint == "hold-to-pot"


def test_the_play_screen_shows_the_time_left_as_a_bar(make_app):
    app = make_app(NAMES + CLOCK)
    full = in_play(app)
    half = at(app, 17.0)[0]
    empty = at(app, 40.0)[0]
    for display in ("ssd1306", "ssd1322"):
        pictures = [render(s, panel(display), lang="uk").convert("L") for s in (full, half, empty)]
        plain = render({k: v for k, v in full.items() if k != "shot_clock"}, panel(display))
        plain = plain.convert("L")
        row = 49  # the bar's middle row, between the score and the bottom row
        lit = [sum(1 for x in range(p.width) if p.getpixel((x, row))) for p in pictures]
        assert lit[0] > lit[1] > lit[2] > 0  # full, half, and the empty frame's two ends
        assert sum(1 for x in range(plain.width) if plain.getpixel((x, row))) == 0


def test_config_refuses_a_clock_too_short_or_a_warning_past_it():
    with pytest.raises(configuration.ConfigError, match="shot_clock.seconds: must be 0"):
        configuration.loads("[shot_clock]\nseconds = 3.0\n")
    with pytest.raises(configuration.ConfigError, match="shot_clock.warning: must be less"):
        configuration.loads("[shot_clock]\nseconds = 20.0\nwarning = 20.0\n")
    with pytest.raises(configuration.ConfigError, match="pins.beeper: GPIO 13 is already used"):
        configuration.loads("[pins]\nbeeper = 13\n")


# -- the beeper -----------------------------------------------------------------------------


@pytest.fixture
def table(tmp_path):
    cfg = configuration.loads(NAMES + CLOCK + '[pins]\nbeeper = 12\n[sensors]\nsource = "none"\n')
    clock = ManualClock(100.0)
    factory = MockFactory(pin_class=MockPWMPin)  # TonalBuzzer needs PWM
    screens = create_displays([{"driver": "dummy", "emulates": "ssd1306"}], lang="en")
    a = Appliance(cfg, state_dir=tmp_path, screens=screens, pin_factory=factory, clock=clock)
    a.app.start()
    a.clock, a.factory = clock, factory
    yield a
    a.close()


def put(a, event):
    a.loop.put(dataclasses.replace(event, t=a.clock()))
    a.loop.run_pending()


def test_the_beeper_sounds_the_shot_clock_on_its_tonal_buzzer(table):
    a, pin = table, table.factory.pin(12)
    put(a, ButtonPress("A", 0))
    put(a, Pot(1, 0))
    assert a.beeper.played == []
    a.clock.now += 20.0  # ten seconds left: the warning
    a.loop.run_pending()
    assert a.beeper.played == ["warning"] and pin.frequency == pytest.approx(Tone("A4").frequency)
    a.clock.now += 0.1  # the note ends
    a.loop.run_pending()
    assert pin.frequency is None
    a.clock.now += 10.0
    a.loop.run_pending()
    assert a.beeper.played == ["warning", "time-up"]
    assert pin.frequency == pytest.approx(Tone("A5").frequency)
    assert a.app.shown.snapshot["score"] == {"A": 1, "B": 0}


def test_the_beeper_plays_a_frame_s_end_and_a_new_fault():
    factory = MockFactory(pin_class=MockPWMPin)
    clock = ManualClock(0.0)
    from scoreboard.table.loop import EventLoop

    loop = EventLoop(lambda event: None, clock=clock)
    beeper = Beeper(12, call_later=loop.call_later, pin_factory=factory)
    play = {"phase": "play"}
    beeper.shown(Shown(play, (), None))
    beeper.shown(Shown({"phase": "frame-over"}, (), None))
    loop.run_pending()
    assert beeper.played == ["frame-over"] and factory.pin(12).frequency == pytest.approx(
        Tone("C5").frequency
    )
    beeper.shown(Shown({"phase": "frame-over"}, (), "refused"))  # the same state: no tune
    fault = ({"kind": "board-lost"},)
    beeper.shown(Shown(play, fault, None))
    beeper.shown(Shown(play, fault, None))  # still the same fault: once
    assert beeper.played == ["frame-over", "fault"]
    beeper.close()


def test_a_beeper_that_will_not_start_leaves_the_table_running(tmp_path):
    said = []
    cfg = configuration.loads('[pins]\nbeeper = 12\n[sensors]\nsource = "none"\n')
    a = Appliance(cfg, state_dir=tmp_path, pin_factory=MockFactory(), screens=[], log=said.append)
    try:  # plain mock pins have no PWM, as a pin without it would not
        assert a.beeper is None and any("beeper on GPIO 12 did not start" in m for m in said)
    finally:
        a.close()


def test_a_reloaded_config_sets_the_shot_clock_and_the_pages_at_once(make_app):
    app = make_app(NAMES)
    in_play(app)
    app.reconfigure(configuration.loads(NAMES + CLOCK + "[display]\npage_seconds = 3.0\n"))
    s, _, _ = feed(app, ButtonPress("B", 5.0))  # the next step is timed
    assert s["shot_clock"] == {"left": 30, "limit": 30, "extension": True}
    assert app.pages.every == 3.0
    app.reconfigure(configuration.loads(NAMES))  # and off again
    s, _, _ = feed(app, ButtonPress("A", 9.0))
    assert "shot_clock" not in s
