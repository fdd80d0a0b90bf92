"""The shipped Terminus pixel font at its bitmap strike sizes, loaded once per size."""

import io
from functools import cache
from importlib import resources

from PIL import ImageFont

# Terminus OTB holds bitmap strikes only; any other size falls back to a blurry scale.
SIZES = (12, 14, 16, 18, 20, 22, 24, 28, 32)


class FontError(Exception):
    """A font size the shipped font has no crisp strike for."""


@cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Terminus at `size` pixels (a strike size); every glyph is size/2 pixels wide."""
    if size not in SIZES:
        raise FontError(f"Terminus has no {size}px strike; use one of {SIZES}")
    name = "terminus-bold.otb" if bold else "terminus-normal.otb"
    # From bytes, so the font also loads when the package sits inside a zip.
    data = (resources.files(__package__) / "fonts" / name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)
