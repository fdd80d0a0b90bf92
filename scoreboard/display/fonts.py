"""The shipped Terminus pixel font at its bitmap strike sizes, loaded once per size."""

import io
from functools import cache
from importlib import resources

from PIL import ImageFont

# Terminus OTB holds bitmap strikes only; any other size falls back to a blurry scale.
SIZES = (12, 14, 16, 18, 20, 22, 24, 28, 32)
# Below Terminus's smallest strike: the X11 misc-fixed 5x8 (public domain, Cyrillic with
# Ґ Є І Ї), for names that do not fit a 12 px row whole (canvas.py, docs/decisions.md).
SMALL = 8


class FontError(Exception):
    """A font size the shipped font has no crisp strike for."""


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Terminus at `size` pixels (a strike size); every glyph is size/2 pixels wide.
    `SMALL` (8) is the misc-fixed 5x8 instead: 5 pixels a glyph, no bold."""
    if size == SMALL:
        return _load("misc-fixed-5x8.pcf", SMALL)
    if size not in SIZES:
        raise FontError(f"Terminus has no {size}px strike; use one of {SIZES} or {SMALL}")
    return _load("terminus-bold.otb" if bold else "terminus-normal.otb", size)


def _load(name: str, size: int) -> ImageFont.FreeTypeFont:
    # From bytes, so the font also loads when the package sits inside a zip.
    data = (resources.files(__package__) / "fonts" / name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)
