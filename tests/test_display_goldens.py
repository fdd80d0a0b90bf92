"""Golden pictures of every phase on every display, drawn on luma's dummy device.

REGENERATE_GOLDENS=1 rewrites them; look at the diff of the PNGs before committing.
"""

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from scoreboard.commands.gallery import FAULTS, samples
from scoreboard.display import DISPLAYS, LANGUAGES, create_displays

GOLDENS = Path(__file__).parent / "goldens" / "display"
REGENERATE = os.environ.get("REGENERATE_GOLDENS") == "1"
SAMPLES = samples()
# The screens people read most are checked in every language; the rest in Ukrainian.
MAIN = ("play", "foul", "break-foul")


def cases():
    for display in DISPLAYS:
        for name in SAMPLES:
            for lang in LANGUAGES if name in MAIN else ("uk",):
                yield display, lang, name


def shown(display, lang, snap, **extra):
    """What luma's dummy device holds after one Screen.show()."""
    (screen,) = create_displays([{"driver": "dummy", "emulates": display}], lang=lang)
    screen.show(snap, **extra)
    return screen.image


def check(image: Image.Image, name: str):
    path = GOLDENS / f"{name}.png"
    if REGENERATE:
        GOLDENS.mkdir(parents=True, exist_ok=True)
        image.save(path)
        return
    assert path.exists(), f"no golden {path.name}; run with REGENERATE_GOLDENS=1"
    golden = Image.open(path)
    assert golden.mode == image.mode and golden.size == image.size
    assert ImageChops.difference(golden, image).getbbox() is None, f"{name} differs from golden"


@pytest.mark.parametrize(("display", "lang", "name"), list(cases()))
def test_screen_matches_golden(display, lang, name):
    check(shown(display, lang, SAMPLES[name]), f"{display}-{lang}-{name}")


@pytest.mark.parametrize("display", DISPLAYS)
def test_faults_over_play_keep_the_score(display):
    check(shown(display, "uk", SAMPLES["play"], faults=FAULTS), f"{display}-uk-play-faults")


@pytest.mark.parametrize("display", ["ssd1306", "ssd1322"])
def test_faults_leave_the_score_rows_alone(display):
    """The overlay takes the bottom row of the play screen and nothing above it."""
    plain = shown(display, "uk", SAMPLES["play"])
    faulted = shown(display, "uk", SAMPLES["play"], faults=FAULTS)
    changed = ImageChops.difference(plain.convert("L"), faulted.convert("L")).getbbox()
    assert changed is not None and changed[1] >= 52


def test_hint_is_translated_over_the_foul_screen():
    image = shown("ssd1306", "uk", SAMPLES["foul"], hint="penalty-ball")
    check(image, "ssd1306-uk-foul-hint")


def test_goldens_have_the_device_resolution():
    sizes = {"ssd1306": (128, 64), "sh1106": (128, 64), "ssd1322": (256, 64), "max7219": (32, 8)}
    for display, size in sizes.items():
        assert shown(display, "uk", SAMPLES["play"]).size == size
