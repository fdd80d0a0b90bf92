"""Names (issue 11): up to 12 letters whole on the 128x64 OLEDs, up to 20 (the config's
longest) on the 256x64 SSD1322; a longer name ends in an ellipsis (docs/decisions.md)."""

import copy

import pytest
from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.commands.gallery import samples
from scoreboard.display import LANGUAGES
from scoreboard.display.fonts import SMALL, font
from scoreboard.display.render import canvas, panel
from scoreboard.inputs.events import ButtonPress
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance

SAMPLES = samples()
TWELVE = {"A": "Олександрина", "B": "Maximilianus"}  # 12 letters each
TWENTY = {"A": "Олександра Щербатюк", "B": "Ґрейс-Маргарита Їжак"}  # 18 and 20
# Where a name stands on its own or after one word: it is shown whole.
WHOLE_ON = ("play", "frame-over", "match-over")


def drawn(name, display, players, lang="uk"):
    snap = copy.deepcopy(SAMPLES[name])
    snap["players"] = dict(players)
    return canvas(snap, panel(display), lang=lang)


def whole_names(name):
    """The sides whose names a screen shows whole: both while playing, the winner after."""
    snap = SAMPLES[name]
    return {"play": ("A", "B"), "frame-over": (snap["frame_winner"],)}.get(name, (snap["winner"],))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", WHOLE_ON)
def test_twelve_letters_are_whole_on_the_128px_oled(name, lang):
    c = drawn(name, "ssd1306", TWELVE, lang)
    for side in whole_names(name):
        assert TWELVE[side] in c.names, (TWELVE[side], c.names)
    assert c.overflows == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", WHOLE_ON)
def test_twenty_letters_are_whole_on_the_256px_oled(name, lang):
    for players in (TWENTY, {"A": TWENTY["B"], "B": TWENTY["A"]}):
        c = drawn(name, "ssd1322", players, lang)
        for side in whole_names(name):
            assert players[side] in c.names, (players[side], c.names)
        assert c.overflows == []


def test_a_name_of_up_to_ten_letters_keeps_the_12px_font():
    """The 5x8 font is only for names the 12 px row cannot hold whole."""
    short = drawn("play", "ssd1306", {"A": "Олександра", "B": "Тарас"})
    assert short.names == ["Олександра", "Тарас"]
    big = font(12).getbbox("Олександра")[3] - font(12).getbbox("Олександра")[1]
    rows = short.image.crop((0, 0, 64, 12)).getbbox()
    assert rows[3] - rows[1] >= big - 1  # drawn at 12 px, not in the 8 px font
    small = drawn("play", "ssd1306", TWELVE)
    ink = small.image.crop((0, 0, 64, 12))
    assert ImageHeight(ink) <= SMALL  # the 12-letter name is in the 5x8


def ImageHeight(image):  # noqa: N802 - the height of the ink in an inverted name row
    from PIL import ImageOps

    box = ImageOps.invert(image.convert("L")).getbbox()
    return box[3] - box[1]


@pytest.mark.parametrize(("display", "limit"), [("ssd1306", 12), ("ssd1322", 20)])
@pytest.mark.parametrize("letters", [13, 16, 20])
def test_a_longer_name_ends_in_an_ellipsis_after_the_limit(display, limit, letters):
    long_name = "Олександринаїґєщюяжшхзь"[:letters]
    c = drawn("play", display, {"A": long_name, "B": "Тарас"})
    expected = long_name if letters <= limit else long_name[: limit - 1] + "…"
    assert c.names[0] == expected
    assert c.overflows == []


@pytest.fixture
def appliance(tmp_path):
    cfg = configuration.loads(
        '[match]\nplayer_a = "Олександрина"\nplayer_b = "Maximilianus"\n'
        '[[display.screen]]\ndriver = "dummy"\nemulates = "ssd1306"\n'
        '[[display.screen]]\ndriver = "dummy"\nemulates = "ssd1322"\n'
        '[sensors]\nsource = "gpio"\n'
    )
    a = Appliance(
        cfg,
        state_dir=tmp_path,
        pin_factory=MockFactory(),
        clock=ManualClock(100.0),
        log=lambda m: None,
    )
    a.app.start()
    yield a
    a.close()


def test_names_from_the_config_are_shown_whole_through_the_app(appliance):
    a = appliance
    a.loop.put(ButtonPress("A", 1.0))  # A breaks: the play screen's names
    a.loop.run_pending()
    snap = a.app.shown.snapshot
    assert snap["phase"] == "break"
    a.loop.put(ButtonPress("B", 2.0))  # the break ended without a pot: play
    a.loop.run_pending()
    snap = a.app.shown.snapshot
    assert snap["phase"] == "play"
    small, wide = a.app.screens
    on_128 = canvas(snap, panel("ssd1306"), lang="uk")
    on_256 = canvas(snap, panel("ssd1322"), lang="uk")
    assert small.image.convert("1").tobytes() == on_128.image.tobytes()
    assert wide.image.tobytes() == on_256.image.tobytes()
    assert on_128.names == ["Олександрина", "Maximilianus"]  # 12 letters: whole
    assert on_256.names == ["Олександрина", "Maximilianus"]
