"""The simulator's terminal: the emulated display scaled into the room the terminal has, with
the score in words and the key legend under it, all inside the terminal (80x24 and up).

luma's `asciiblock` emulator draws a picture as coloured half blocks, two pixels a cell, but
always as wide as the whole terminal (it lets the terminal wrap each row), which at 80 columns
makes a 128x64 display 20 rows tall and leaves no room for the keys. `FittedTerminal` is the
same device drawn into a box: `fit()` chooses the box from the terminal's size, the display's
size and the lines the text needs; a terminal too small for a legible picture gets text only.
"""

import sys
import textwrap
from dataclasses import dataclass

from luma.emulator.device import asciiblock
from PIL import Image

from scoreboard.core.summary import describe
from scoreboard.display.screens.setup import row_text
from scoreboard.texts.i18n import translator
from scoreboard.texts.messages import hint_text
from scoreboard.texts.words import Words

TEXT_ROWS = 4  # the score in words (three lines) and a hint or a fault, under the picture
MIN_PICTURE_ROWS = 6  # below this the picture says nothing: text only


@dataclass(frozen=True)
class Box:
    """Terminal cells, counted from 1: where the picture goes."""

    top: int
    left: int
    columns: int
    rows: int


@dataclass(frozen=True)
class Layout:
    columns: int
    lines: int
    picture: Box | None  # None: too small a terminal, text only
    text_top: int  # the first row of the text under the picture
    legend_rows: int

    @property
    def width(self) -> int:
        """Text is never written into the last column, so no line wraps."""
        return max(1, self.columns - 1)


def wrap_items(items, width: int) -> list[str]:
    """Items joined by two spaces, a new line where the next would not fit (never inside one)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item[:width])
    return lines


def fit(columns: int, lines: int, panel_width: int, panel_height: int, legend) -> Layout:
    """The largest picture (at most one cell a pixel, two pixel rows a cell) that leaves the
    text and the whole legend their rows; centred."""
    width = max(1, columns - 1)
    legend_rows = len(wrap_items(legend, width))
    room = lines - legend_rows - TEXT_ROWS
    picture_columns = min(columns, panel_width, room * 2 * panel_width // panel_height)
    rows = picture_columns * panel_height // panel_width // 2
    if rows < MIN_PICTURE_ROWS:
        return Layout(columns, lines, None, 1, legend_rows)
    picture_columns = rows * 2 * panel_width // panel_height
    box = Box(1, (columns - picture_columns) // 2 + 1, picture_columns, rows)
    return Layout(columns, lines, box, rows + 1, legend_rows)


class FittedTerminal(asciiblock):
    """luma's asciiblock emulator drawn into `box` (see the module's note); `box=None` draws
    nothing. Everything else (the picture's pipeline, the colours, the art) is luma's."""

    def __init__(self, box: Box | None, *, width: int, height: int) -> None:
        super().__init__(width=width, height=height, mode="RGB", transform="none", scale=1)
        self.box = box

    def display(self, image) -> None:
        assert image.size == self.size
        self._last_image = image
        if self.box is None:
            return
        surface = self.to_surface(self.preprocess(image), alpha=self._contrast)
        rawbytes = self._pygame.image.tostring(surface, "RGB", False)
        image = Image.frombytes("RGB", surface.get_size(), rawbytes)
        box = self.box
        art = list(self._generate_art(image, box.columns, box.rows * 2))
        for row in range(box.rows):
            cells = art[row * box.columns : (row + 1) * box.columns]
            line = "".join(f"\x1b[38;5;{fg};48;5;{bg}m▄" for fg, bg in cells)
            sys.stdout.write(f"\x1b[{box.top + row};{box.left}H{line}\x1b[0m")
        sys.stdout.flush()

    def redraw(self) -> None:
        if self._last_image is not None:
            self.display(self._last_image)


def setup_words(view: dict, t) -> str:
    """The setup screen's line as its picture shows it: "Next match 3/9: Race to 2", or the
    name being chosen or typed."""
    if view["mode"] == "pick":
        name = view["names"][view["choice"]]
        name = t.gettext("New name…") if name == "<new>" else name
        return f"{t.gettext('Player {side}').format(side=view['side'])}: {name}"
    if view["mode"] == "letters":
        title = t.gettext("New name: {side}").format(side=view["side"])
        return f"{title} {view['typed']}_"
    rows = view["rows"]
    template, fields = row_text(view, view["row"], t)
    at = rows.index(view["row"])
    return f"{t.gettext('Next match')} {at + 1}/{len(rows)}: {template.format(**fields)}"


class TextScreen:
    """The score in words under the picture, and the keys; a screen like the displays, so the
    app shows every state on it. `legend(lang)` gives the key legend's items."""

    def __init__(self, out, *, layout: Layout | None, legend, lang: str, timings=None) -> None:
        self.out = out
        self.layout = layout  # None: not a terminal, one block of text per state
        self.legend = legend
        self.lang = lang
        self.timings = timings
        self.pairing: tuple[str, str] | None = None  # (code, url) while the OLEDs show it
        self._last = None

    def show(self, snapshot, *, faults=(), hint=None) -> None:
        self._last = (snapshot, tuple(faults), hint)
        lines = describe(snapshot).splitlines()
        if snapshot.get("setup"):  # the picture is the setup screen: the words say so first
            lines.insert(0, setup_words(snapshot["setup"], translator(self.lang)))
        lines += [f"! {f['kind']} {f.get('pocket', '')}".rstrip() for f in faults]
        if hint:  # in words, as the displays say it ("Point taken back: Taras")
            lines.append("> " + hint_text(hint, Words(translator(self.lang), self.timings)))
        if self.pairing is not None:  # the picture's code is small at 80x24: say it too
            code, url = self.pairing
            title = translator(self.lang).gettext("Pair a phone")
            lines.append(
                f"{title}: {code[:3]} {code[3:]}" + (f"  {url.split('#', 1)[0]}" if url else "")
            )
        if self.layout is None:  # not a terminal: one block per state, for logs and tests
            lines.append(f"display language {self.lang}")
            self.out.write("\n".join(lines) + "\n--\n")
        else:
            self._draw(lines)
        self.out.flush()

    def redraw(self) -> None:
        if self._last is not None:
            snapshot, faults, hint = self._last
            self.show(snapshot, faults=faults, hint=hint)

    def _draw(self, lines: list[str]) -> None:
        """The text from under the picture down to the legend, the legend on the last rows."""
        layout = self.layout
        legend = wrap_items(self.legend(self.lang), layout.width)
        legend_top = max(1, layout.lines - len(legend) + 1)
        room = max(0, legend_top - layout.text_top)
        text = [
            part
            for line in lines
            for part in textwrap.wrap(line, layout.width, subsequent_indent="  ") or [""]
        ]
        self.out.write(f"\x1b[{layout.text_top};1H\x1b[J")
        for row, line in enumerate(text[:room], start=layout.text_top):
            self.out.write(f"\x1b[{row};1H{line}")
        for row, line in enumerate(legend, start=legend_top):
            self.out.write(f"\x1b[{row};1H{line}")
