"""A drawing surface for one screen: pixel-font text that shortens instead of clipping."""

from functools import lru_cache

from PIL import Image, ImageDraw

from scoreboard.display.fonts import SIZES, SMALL, font

ELLIPSIS = "…"
# Text rows of the 12 px font on a 64 px tall display, with a pixel between rows.
ROW_HEIGHT = 12
ROWS = (0, 13, 26, 39, 52)
# Letters of a name a screen shows whole (docs/decisions.md): 12 on a 128 px display (a
# player's name is never longer: core/settings.py NAME_LETTERS), 20 on a 256 px one; a longer
# text in a name's place (a club's label) ends in an ellipsis.
NAME_LETTERS = {128: 12, 256: 20}


class Canvas:
    """One frame being drawn; `overflows` lists every text that could not be made to fit."""

    def __init__(self, width: int, height: int, mode: str = "1"):
        self.image = Image.new(mode, (width, height))
        self.draw = ImageDraw.Draw(self.image)
        self.width, self.height, self.mode = width, height, mode
        # A 256 px display has room for the full sentences that 128 px screens leave out.
        self.wide = width >= 256
        grey = mode != "1"
        self.fg = (255, 255, 255) if grey else 255
        self.bg = (0, 0, 0) if grey else 0
        # Secondary text is dimmer where the panel has greyscale, plain where it has not.
        self.dim = (150, 150, 150) if grey else 255
        self.overflows: list[str] = []
        self.name_letters = NAME_LETTERS.get(width, 12)
        self.names: list[str] = []  # each name as drawn, for the tests that it is whole
        self.texts: list[str] = []  # every text as drawn, for the tests of what a screen says

    def text(self, x: int, y: int, s: str, *, size=12, bold=False, fill=None) -> int:
        """Draws `s` with its cell's top-left at (x, y); returns its width."""
        f = font(size, bold=bold)
        self.draw.text((x, y), s, font=f, fill=self.fg if fill is None else fill)
        self.texts.append(s)
        return _width(s, size, bold)

    def width_of(self, s: str, *, size=12, bold=False) -> int:
        return _width(s, size, bold)

    def fits(self, width, s, *, size=12, bold=False) -> bool:
        return self.width_of(s, size=size, bold=bold) <= width

    def fit(self, x, y, width, template, *, size=12, bold=False, align="left", fill=None, **fields):
        """Draws `template.format(**fields)` within `width`, shortening the fields (names,
        foul kinds) with an ellipsis first; whole glyphs only, never a clipped one. A
        `name` field is never cut to fit: the text steps down to smaller fonts first."""
        if "name" in fields:
            fields["name"] = self.capped(str(fields["name"]))
            smaller = self.name_size(width, template, size=size, bold=bold, **fields)
            y += (size - smaller) // 2  # centred in the row the size was for
            size = smaller
        s = self.shorten(width, template, size=size, bold=bold, **fields)
        if "name" in fields:
            self.names.append(self.drawn_name(s, template, fields["name"]))
        used = self.width_of(s, size=size, bold=bold)
        if align == "center":
            x += (width - used) // 2
        elif align == "right":
            x += width - used
        self.text(x, y, s, size=size, bold=bold, fill=fill)
        return used

    def capped(self, name: str) -> str:
        """A name of more letters than the display shows whole, cut to them with "…"."""
        if len(name) <= self.name_letters:
            return name
        return name[: self.name_letters - 1].rstrip() + ELLIPSIS

    def name_size(self, width, template, *, size=12, bold=False, **fields) -> int:
        """The largest font, from `size` down through the smaller Terminus strikes to the
        5x8, in which the text holds the name whole. If none does, `size` itself: a name
        that must be cut anyway reads better in the larger font."""
        s = template.format(**fields)
        for smaller in [z for z in SIZES if 12 <= z <= size][::-1] + [SMALL]:
            if self.width_of(s, size=smaller, bold=bold) <= width:
                return smaller
        return size

    @staticmethod
    def drawn_name(s: str, template: str, name: str) -> str:
        """The name as it ended up in the drawn text `s` (shortened or whole)."""
        head, _, tail = template.partition("{name}")
        if "{" in head or "{" in tail:
            return name if name in s else s  # other fields too: whole, or the text as drawn
        return s.removeprefix(head).removesuffix(tail) if s.startswith(head) else s

    def shorten(self, width, template, *, size=12, bold=False, **fields) -> str:
        """The longest form of the text that fits; records an overflow if even the
        shortest fields (one letter and an ellipsis) do not."""
        fields = {k: str(v) for k, v in fields.items()}
        s = template.format(**fields)
        for key in fields:
            while self.width_of(s, size=size, bold=bold) > width and len(fields[key]) > 2:
                fields[key] = fields[key].rstrip(ELLIPSIS)[:-1].rstrip() + ELLIPSIS
                s = template.format(**fields)
        if self.width_of(s, size=size, bold=bold) > width:
            self.overflows.append(s)
            while len(s) > 1 and self.width_of(s + ELLIPSIS, size=size, bold=bold) > width:
                s = s[:-1]
            s += ELLIPSIS
        return s

    def lines(self, text, width, *, size=12) -> list[str]:
        """`text` word-wrapped into rows of at most `width` pixels (a word longer than a row
        stays whole: `fit` shortens it)."""
        lines, line = [], ""
        for word in text.split():
            trial = f"{line} {word}" if line else word
            if line and self.width_of(trial, size=size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
        return lines

    def wrap(self, x, y, width, rows, text, *, size=12, fill=None) -> int:
        """Word-wraps `text` into at most `rows` rows from y; returns the rows used."""
        lines = self.lines(text, width, size=size)
        if len(lines) > rows:
            self.overflows.append(text)
            lines = lines[:rows]
        step = size + 1
        for i, s in enumerate(lines):
            self.fit(x, y + i * step, width, "{s}", size=size, fill=fill, s=s)
        return len(lines)

    def bar(self, y, template, *, height=ROW_HEIGHT, right="", **fields):
        """An inverted full-width row (a title), with optional text at its right end."""
        self.draw.rectangle((0, y, self.width - 1, y + height - 1), fill=self.fg)
        room = self.width - 4
        if right:
            used = self.width_of(right)
            self.text(self.width - 2 - used, y, right, fill=self.bg)
            room -= used + 6
        self.fit(2, y, room, template, fill=self.bg, **fields)

    def big(self, x, y, width, s, *, size=24, scale=2):
        """Large digits for the room: the bold strike scaled up by whole pixels, so they stay
        crisp; centred in `width` from x, the cell's top at y."""
        f = font(size, bold=True)
        w = int(f.getlength(s))
        small = Image.new("L", (w, size))
        ImageDraw.Draw(small).text((0, 0), s, font=f, fill=255)
        large = small.resize((w * scale, size * scale), Image.Resampling.NEAREST)
        left = x + (width - w * scale) // 2
        self.image.paste(self.fg, (left, y), large.convert("1"))


@lru_cache(maxsize=2048)
def _width(s: str, size: int, bold: bool) -> int:
    """A text's width in pixels: the screens measure the same few texts on every frame."""
    return int(font(size, bold=bold).getlength(s))
