"""Snapshot → picture for a panel of a given size; no device involved (used by goldens,
`render_png` and every Screen)."""

from dataclasses import dataclass

from PIL import Image

from scoreboard.display import led, screens
from scoreboard.display.canvas import Canvas
from scoreboard.display.drivers import DRIVERS
from scoreboard.display.drivers import PANELS as PANEL_NAMES
from scoreboard.display.screens import notice, pairing, saver
from scoreboard.texts.i18n import DEFAULT_LANGUAGE, translator
from scoreboard.texts.words import Words


@dataclass(frozen=True)
class Panel:
    """What a picture must be for one kind of display."""

    width: int
    height: int
    mode: str  # PIL mode the luma driver expects: "1" mono, "RGB" greyscale panels
    matrix: bool = False  # MAX7219: score and frames only


# The displays `render_png` and the gallery know by name, at their own resolution.
PANELS = {
    name: Panel(*DRIVERS[name].size, DRIVERS[name].mode, DRIVERS[name].matrix)
    for name in PANEL_NAMES
}


class RenderError(ValueError):
    """A display name or size there is no screen layout for."""


def panel(display: str) -> Panel:
    try:
        return PANELS[display]
    except KeyError:
        raise RenderError(f"no display {display!r}; choose one of {', '.join(PANELS)}") from None


def canvas(
    snapshot: dict, p: Panel, *, lang=DEFAULT_LANGUAGE, timings=None, faults=(), hint=None
) -> Canvas:
    """The drawn canvas, with `overflows` for the tests that every phrase fits."""
    if p.matrix:
        c = Canvas(p.width, p.height, p.mode)
        c.image = led.matrix(snapshot, p.width, p.height, hint).convert(p.mode)
        return c
    if p.height != 64 or p.width not in (128, 256):
        raise RenderError(f"no screen layout for {p.width}x{p.height}; OLEDs are 128 or 256 x 64")
    return screens.draw(
        Canvas(p.width, p.height, p.mode),
        snapshot,
        lang=lang,
        timings=timings,
        faults=faults,
        hint=hint,
    )


def render(
    snapshot: dict, p: Panel, *, lang=DEFAULT_LANGUAGE, timings=None, faults=(), hint=None
) -> Image.Image:
    return canvas(snapshot, p, lang=lang, timings=timings, faults=faults, hint=hint).image


def render_saver(snapshot: dict, p: Panel, step: int) -> Image.Image:
    """The screen saver's picture at `step` (scoreboard/table/screen_saver.py)."""
    return saver.draw(Canvas(p.width, p.height, p.mode), snapshot, step).image


def render_pairing(code: str, url: str, p: Panel, *, lang=DEFAULT_LANGUAGE) -> Image.Image:
    """The pairing screen: the code a phone types and a QR code of ``url`` (issue 12)."""
    c = Canvas(p.width, p.height, p.mode)
    return pairing.draw(c, code, url, Words(translator(lang), wide=c.wide)).image


def render_notice(title: str, text: str, p: Panel, *, page: int = 0) -> tuple[Image.Image, int]:
    """A notice in words (screens/notice.py), page `page`; and how many pages it has."""
    c, count = notice.draw(Canvas(p.width, p.height, p.mode), title, text, page)
    return c.image, count
