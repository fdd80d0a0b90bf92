"""Display specs, failure at start, redraw only on change, bytes pushed, render_png."""

import copy
import logging
import sys

import pytest
from PIL import Image

from scoreboard.commands.gallery import SETUP_KEYS, samples, write_gallery
from scoreboard.display import DISPLAYS, DisplayError, create_displays, render_png
from scoreboard.display.screen import Screen

SAMPLES = samples()


def test_missing_display_is_reported_and_the_others_run(caplog):
    errors = []
    with caplog.at_level(logging.ERROR, logger="scoreboard.display"):
        screens = create_displays(
            [
                {"driver": "ssd1306", "interface": "i2c", "port": 99, "address": 0x3C},
                {"driver": "dummy", "emulates": "ssd1306"},
            ],
            on_error=lambda spec, message: errors.append(message),
        )
    assert [s.name for s in screens] == ["dummy"]
    assert "ssd1306 on i2c port 99 address 0x3c" in errors[0]
    assert "running without it" in caplog.text
    assert screens[0].show(SAMPLES["play"]) == 0 and screens[0].image is not None


@pytest.mark.parametrize(
    ("spec", "missing", "names"),
    [
        ({"driver": "max7219", "cascaded": 4}, "spidev", "install the package spidev"),
        ({"driver": "ssd1322"}, "RPi", "needs the RPi.GPIO module"),
        ({"driver": "ssd1322"}, "RPi", "install the package rpi-lgpio"),
        ({"driver": "ssd1306", "interface": "spi"}, "RPi", "install the package rpi-lgpio"),
    ],
)
def test_an_spi_display_without_its_bus_library_names_the_package(
    monkeypatch, spec, missing, names
):
    # As on a Pi where the [pi] extra is not installed: the import fails. (A None in
    # sys.modules makes `import` raise ModuleNotFoundError, as a missing package does.)
    for module in ("spidev", "RPi", "RPi.GPIO", "lgpio"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    monkeypatch.setitem(sys.modules, missing, None)
    errors = []
    assert create_displays([spec], on_error=lambda s, m: errors.append(m)) == []
    [message] = errors
    assert names in message and "Traceback" not in message
    assert "[pi] extra" in message


@pytest.mark.parametrize(
    "spec",
    [
        {"driver": "ssd1307"},
        {"driver": "ssd1306", "adress": 0x3C},
        {"interface": "i2c"},
        {"driver": "dummy", "emulates": "lcd"},
    ],
)
def test_bad_specs_are_reported(spec):
    errors = []
    assert create_displays([spec], on_error=lambda s, m: errors.append(m)) == []
    assert len(errors) == 1


def test_a_display_failing_while_running_stops_alone():
    class Broken:
        def display(self, image):
            raise OSError("remote I/O error")

    (good,) = create_displays([{"driver": "dummy", "emulates": "ssd1306"}])
    bad = Screen(Broken(), name="ssd1306 on i2c", panel=good.panel)
    for screen in (bad, good):
        screen.show(SAMPLES["play"])
    assert "remote I/O error" in bad.failed and good.failed is None and good.updates == 1
    assert bad.show(SAMPLES["foul"]) == 0


def test_both_oled_and_led_at_once_redraw_only_on_change():
    screens = create_displays(
        [
            {"driver": "ssd1306", "interface": "noop"},
            {"driver": "max7219", "interface": "noop", "cascaded": 4},
            {"driver": "max7219-7seg", "interface": "noop"},
            {"driver": "ssd1322", "interface": "noop"},
        ]
    )
    snap = copy.deepcopy(SAMPLES["play"])
    first = [s.show(snap) for s in screens]
    assert all(b > 0 for b in first)
    snap["events"] += 1  # nothing on screen changes
    assert [s.show(snap) for s in screens] == [0, 0, 0, 0]
    snap["score"]["A"] += 1
    snap["balls_on_table"] -= 1
    again = [s.show(snap) for s in screens]
    # SSD1306 and SSD1322 send only what changed; MAX7219 all its rows, 7-segment all digits.
    assert 0 < again[0] <= 128 and again[1] == 64 and again[2] == 16
    assert 0 < again[3] < first[3]


def test_sevensegment_shows_score_and_frames():
    (screen,) = create_displays([{"driver": "max7219-7seg", "interface": "noop"}])
    screen.show(SAMPLES["play"])
    assert str(screen.segments.text) == " 5-3  1.0"


def test_emulator_capture_writes_what_the_hardware_would_show(tmp_path):
    (screen,) = create_displays(
        [
            {
                "driver": "emulator-capture",
                "emulates": "ssd1306",
                "scale": 1,
                "path": str(tmp_path / "shot_{0:03}.png"),
            }
        ]
    )
    screen.show(SAMPLES["foul"])
    screen.show(SAMPLES["foul"])  # unchanged: no second file
    (shot,) = tmp_path.glob("shot_*.png")
    assert Image.open(shot).size == (128, 64)


@pytest.mark.parametrize("display", DISPLAYS)
def test_render_png_at_the_device_resolution(tmp_path, display):
    path = tmp_path / "s.png"
    render_png(SAMPLES["break-foul"], path, display=display, lang="ru")
    assert Image.open(path).size == {"ssd1322": (256, 64), "max7219": (32, 8)}.get(
        display, (128, 64)
    )


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"display": "lcd"}, "ssd1306"),
        ({"lang": "pl"}, "uk, ru, en"),
    ],
)
def test_render_png_refuses_what_it_does_not_know(tmp_path, kw, match):
    with pytest.raises(DisplayError, match=match):
        render_png(SAMPLES["play"], tmp_path / "x.png", **kw)


def test_render_png_refuses_an_unknown_phase(tmp_path):
    with pytest.raises(DisplayError, match="phase"):
        render_png(dict(SAMPLES["play"], phase="warmup"), tmp_path / "x.png")


def test_gallery_covers_every_phase_display_and_language(tmp_path):
    written = write_gallery(tmp_path, scale=1)
    # + play-faults, saver, the shot clock, a waiting FOUL step that ends the frame, and the
    # three statistics pages (stats_pages.py); the setup screen on the OLEDs (the LED digits
    # show the score under it)
    oleds = [d for d in DISPLAYS if d != "max7219"]
    setup = len(oleds) * 3 * len(SETUP_KEYS)
    assert len(written) == len(DISPLAYS) * 3 * (len(SAMPLES) + 4 + 3) + setup
    assert Image.open(tmp_path / "ssd1322" / "en" / "foul.png").size == (256, 64)


def test_gallery_command(tmp_path, capsys):
    from scoreboard.cli import main
    from scoreboard.commands.gallery import gallery_images

    assert main(["gallery", "--out", str(tmp_path), "--scale", "2"]) == 0
    assert Image.open(tmp_path / "ssd1306" / "uk" / "play.png").size == (256, 128)
    # every picture the goldens test compares, written where the README finds it
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*.png")}
    assert written == {name for name, _ in gallery_images(scale=2)}
    assert main(["gallery", "--out", str(tmp_path), "--scale", "0"]) == 2
