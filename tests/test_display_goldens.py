"""Golden pictures of every screen, drawn on luma's dummy device from states the code
reaches: each sample is a match log (scoreboard/display/samples/*.log) replayed through
the real Match, as `scoreboard replay` does. The committed gallery is checked too.

REGENERATE_GOLDENS=1 rewrites the goldens; look at the PNGs before committing.
`make gallery` redraws docs/gallery.
"""

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from scoreboard.commands.gallery import (
    FAULTS,
    ending_sample,
    gallery_images,
    samples,
    setup_samples,
    with_shot_clock,
)
from scoreboard.display import LANGUAGES, create_displays
from scoreboard.display.render import panel, render_saver
from scoreboard.table.stats_pages import PAGES

GOLDENS = Path(__file__).parent / "goldens" / "display"
GALLERY = Path(__file__).parent.parent / "docs" / "gallery"
REGENERATE = os.environ.get("REGENERATE_GOLDENS") == "1"
SAMPLES = samples()
# The screens people read most are checked in every language; the rest in Ukrainian.
MAIN = ("play", "foul", "break-foul", "break-foul-pots", "frame-over", "match-over", "play-names")
# The SH1106 shows the SSD1306's picture (same panel, see test_sh1106_shows_...); the
# MAX7219 has no words, so one golden per screen serves every language.
WORDED = ("ssd1306", "ssd1322")
# Screens without a translated word (names, digits, a ball and its count): one golden.
WORDLESS = {("ssd1306", "play"), ("ssd1306", "play-names")}


def cases():
    for display in WORDED:
        for name in SAMPLES:
            wordy = name in MAIN and (display, name) not in WORDLESS
            for lang in LANGUAGES if wordy else ("uk",):
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


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.mode == b.mode and a.size == b.size and a.tobytes() == b.tobytes()


@pytest.mark.parametrize(("display", "lang", "name"), list(cases()))
def test_screen_matches_golden(display, lang, name):
    check(shown(display, lang, SAMPLES[name]), f"{display}-{lang}-{name}")


@pytest.mark.parametrize(
    "name", [n for n in SAMPLES if n not in ("break-rerack", "break-foul-pots", "play-names")]
)
def test_led_matrix_matches_golden_in_every_language(name):
    pictures = [shown("max7219", lang, SAMPLES[name]) for lang in LANGUAGES]
    assert all(same(p, pictures[0]) for p in pictures)
    check(pictures[0], f"max7219-{name}")


def test_led_matrix_shows_only_score_and_frames():
    """A re-rack after a break foul keeps the score and frames, and faults are for the
    OLED at the table: the LED picture stays."""
    rerack, foul = SAMPLES["break-rerack"], SAMPLES["break-foul"]
    assert (rerack["score"], rerack["frames"]) == (foul["score"], foul["frames"])
    assert same(shown("max7219", "uk", rerack), shown("max7219", "uk", foul))
    play = SAMPLES["play"]
    assert same(shown("max7219", "uk", play, faults=FAULTS), shown("max7219", "uk", play))


@pytest.mark.parametrize(("display", "name"), sorted(WORDLESS))
def test_wordless_screens_are_the_same_in_every_language(display, name):
    pictures = [shown(display, lang, SAMPLES[name]) for lang in LANGUAGES]
    assert all(same(p, pictures[0]) for p in pictures)


@pytest.mark.parametrize("name", list(SAMPLES))
def test_sh1106_shows_what_the_ssd1306_shows(name):
    assert same(shown("sh1106", "uk", SAMPLES[name]), shown("ssd1306", "uk", SAMPLES[name]))


@pytest.mark.parametrize("display", WORDED)
def test_faults_over_play_keep_the_score(display):
    check(shown(display, "uk", SAMPLES["play"], faults=FAULTS), f"{display}-uk-play-faults")


@pytest.mark.parametrize("display", WORDED)
def test_faults_leave_the_score_rows_alone(display):
    """The overlay takes the bottom row of the play screen and nothing above it."""
    plain = shown(display, "uk", SAMPLES["play"])
    faulted = shown(display, "uk", SAMPLES["play"], faults=FAULTS)
    changed = ImageChops.difference(plain.convert("L"), faulted.convert("L")).getbbox()
    assert changed is not None and changed[1] >= 52


@pytest.mark.parametrize("page", PAGES[1:])
@pytest.mark.parametrize("display", WORDED)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_statistics_pages_match_golden(display, lang, page):
    # stats_pages.py: the app adds the page to the snapshot of a state the code reached
    image = shown(display, lang, SAMPLES["match-over-timed"] | {"page": page})
    check(image, f"{display}-{lang}-match-over-{page}")


@pytest.mark.parametrize("display", WORDED)
def test_five_frames_without_time_marks_on_the_frames_page(display):
    # 128 px: the last three; 256 px: all five in two columns; no marks in the log: "–"
    check(
        shown(display, "uk", SAMPLES["match-over"] | {"page": "frames"}), f"{display}-uk-frames-5"
    )


@pytest.mark.parametrize("display", WORDED)
def test_the_shot_clock_bar_matches_golden(display):
    snap = with_shot_clock(SAMPLES["play"])  # 12 of 30 s left
    assert snap["shot_clock"] == {"left": 12, "limit": 30, "extension": True}
    check(shown(display, "uk", snap), f"{display}-uk-play-shot-clock")


def test_hint_is_translated_over_the_foul_screen():
    image = shown("ssd1306", "uk", SAMPLES["foul"], hint="penalty-ball")
    check(image, "ssd1306-uk-foul-hint")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("display", WORDED)
def test_a_waiting_foul_step_that_ends_the_frame_matches_golden(display, lang):
    """Issue 34: out of turn at 7:3 waits, said with its own consequence (foul_pending.py)."""
    snap, hint = ending_sample()
    assert hint[0] == "foul-ends-frame" and dict(hint[1])["score"] == "8:3"
    check(shown(display, lang, snap, hint=hint), f"{display}-{lang}-foul-ends-frame")


def test_a_led_chain_with_room_shows_the_score_a_waiting_step_ends_on():
    """64 px: ">8:3" after the score and frames; the 32 px chain has no room: as it was."""
    snap, hint = ending_sample()
    (wide,) = create_displays([{"driver": "dummy", "emulates": "max7219", "width": 64}])
    wide.show(snap, hint=hint)
    check(wide.image, "max7219-64-foul-ends-frame")
    wide.show(snap)
    assert not same(wide.image, Image.open(GOLDENS / "max7219-64-foul-ends-frame.png"))
    assert same(shown("max7219", "uk", snap, hint=hint), shown("max7219", "uk", snap))


def test_no_two_goldens_are_the_same_picture():
    pictures = {}
    for path in sorted(GOLDENS.glob("*.png")):
        image = Image.open(path)
        key = (image.mode, image.size, image.tobytes())
        assert key not in pictures, f"{path.name} is the same picture as {pictures[key]}"
        pictures[key] = path.name


def test_goldens_have_the_device_resolution():
    sizes = {"ssd1306": (128, 64), "sh1106": (128, 64), "ssd1322": (256, 64), "max7219": (32, 8)}
    for display, size in sizes.items():
        assert shown(display, "uk", SAMPLES["play"]).size == size


def test_the_samples_are_the_states_their_logs_reach():
    """Spot checks that each log ends where its name says (the pictures show these)."""
    phases = {name: snap["phase"] for name, snap in SAMPLES.items()}
    assert phases == {
        "break": "break",
        "break-foul": "break-foul",
        "break-foul-pots": "break-foul",
        "break-rerack": "break",
        "foul": "foul",
        "foul-american": "foul",
        "frame-over": "frame-over",
        "lag": "lag",
        "match-over": "match-over",
        "match-over-timed": "match-over",
        "play": "play",
        "play-american": "play",
        "play-names": "play",
    }
    balls = {name: sum(map(sum, SAMPLES[name]["rack"])) for name in ("break", "break-rerack")}
    assert balls == {"break": 15, "break-rerack": 14}  # GR-13.2: the penalty ball is off
    assert SAMPLES["play"]["score"] == {"A": 5, "B": 3} and SAMPLES["play"]["striker"] == "A"
    assert SAMPLES["match-over"]["winner"] == "B"
    assert SAMPLES["match-over-timed"]["frame_times"] == [425, 330, 765]  # 7:05, 5:30, 12:45
    assert SAMPLES["break-foul-pots"]["foul"]["to_spot"] == 2  # GR-22.3: shown as "+2"
    # CV-1: the offender's point is taken; one owed where he had none
    assert SAMPLES["foul-american"]["score"] == {"A": 2, "B": 2}
    assert SAMPLES["play-american"]["score"] == {"A": 2, "B": -1}


def test_the_committed_gallery_is_what_make_gallery_draws_now():
    # The pictures `make gallery` writes, compared before PNG encoding (the slow part).
    drawn = dict(gallery_images())  # the defaults `make gallery` uses
    committed = {p.relative_to(GALLERY) for p in GALLERY.rglob("*.png")}
    # docs/gallery/web/ holds the web pages' screenshots (tests/test_net_browser.py).
    committed = {p for p in committed if p.parts[0] != "web"}
    assert committed == set(drawn), "docs/gallery is stale: run `make gallery`"
    for name in sorted(drawn):
        old = Image.open(GALLERY / name)
        assert same(drawn[name], old), f"docs/gallery/{name} is stale: run `make gallery`"


SETUP = setup_samples()


@pytest.mark.parametrize("display", WORDED)
@pytest.mark.parametrize("name", list(SETUP))
def test_setup_screen_matches_golden(display, name):
    """The setup screen in the states its buttons reach (gallery.SETUP_KEYS); the menu as it
    opens in every language."""
    for lang in LANGUAGES if name == "setup" else ("uk",):
        check(shown(display, lang, SETUP[name]), f"{display}-{lang}-{name}")


def test_the_setup_samples_are_the_states_their_keys_reach():
    views = {name: snap["setup"] for name, snap in SETUP.items()}
    assert views["setup"]["mode"] == "menu" and views["setup"]["row"] == "start"
    assert views["setup-race"]["mode"] == "value" and views["setup-race"]["settings"]["race"] == 5
    assert views["setup-pick"]["mode"] == "pick" and views["setup-pick"]["choice"] == 1
    assert views["setup-letters"]["mode"] == "letters" and views["setup-letters"]["typed"] == "Бєг"
    assert views["setup-options"]["row"] == "option:jumped-ball"


@pytest.mark.parametrize("display", WORDED)
def test_screen_saver_matches_golden(display):
    """The saver (scoreboard/table/screen_saver.py) over the play sample, at two steps: small, dim
    where the panel has greys, and somewhere else each step."""
    first = render_saver(SAMPLES["play"], panel(display), 0)
    second = render_saver(SAMPLES["play"], panel(display), 1)
    assert not same(first, second)
    check(second, f"{display}-saver")
