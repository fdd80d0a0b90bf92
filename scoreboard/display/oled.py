"""SSD1306 and SH1106 drivers that send only what changed since the last frame.

luma.oled pushes the whole 1,030-byte frame on every update (23 ms on 400 kHz I2C, 93 ms
on 100 kHz); a point scored changes a digit and a count, about a tenth of that. These
subclasses keep a copy of what the panel's memory (GDDRAM) holds, in the controller's own
layout (pages of 8 rows, one byte per column, bit 0 the top row), and send only rectangles
of pages x columns that differ. The first frame (luma's constructor clears the panel) and
the frame after `forget()` are full; an update that fails half-way leaves the copy unknown,
so the next one is full too.
"""

import itertools

from luma.oled import device as luma
from PIL import Image

# A window costs its address commands: SSD1306 sets a column and a page range once per
# rectangle (0x21 c0 c1 0x22 p0 p1); SH1106 has only page addressing, so every page of a
# rectangle costs a page and two column-nibble commands.
SSD1306_WINDOW = 6
SH1106_PAGE = 3
SH1106_COLUMNS = 132  # its RAM is 132 columns wide; the 128 visible start at an offset


def pages(image: Image.Image) -> list[bytes]:
    """A mode "1" picture as the controller's pages: per page, one byte per column."""
    n = image.height // 8
    # Transposed, each column becomes a row of bits packed MSB first; flipped upside down
    # before that, each byte holds its page's bottom row in bit 7 and top row in bit 0.
    flipped = image.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    raw = flipped.transpose(Image.Transpose.TRANSPOSE).tobytes()
    return [raw[n - 1 - p :: n] for p in range(n)]


def changed_runs(held: list[bytes] | None, new: list[bytes], gap: int):
    """(page, first column, last column) of each run of changed columns; runs fewer than
    `gap` unchanged columns apart are one run (re-sending those is cheaper than a window)."""
    for p, row in enumerate(new):
        if held is None:
            yield p, 0, len(row) - 1
            continue
        old = held[p]
        if old == row:
            continue
        run = None
        for c, (a, b) in enumerate(zip(old, row, strict=True)):
            if a == b:
                continue
            if run is not None and c - run[1] > gap:
                yield p, *run
                run = None
            run = (c, c) if run is None else (run[0], c)
        yield p, *run


def plan(held: list[bytes] | None, new: list[bytes], cost, gap: int) -> list[tuple]:
    """Rectangles (first page, last page, first column, last column) covering every changed
    byte, the cheapest by `cost(rect)` in bytes of three plans: each run alone; each page's
    changed span, consecutive pages joined where that is cheaper; and (unless there are
    very many runs) runs merged pairwise, the best saving first, while one costs less than
    two. A rectangle may cover unchanged bytes: sending them again is harmless."""
    runs = [(p, p, c0, c1) for p, c0, c1 in changed_runs(held, new, gap)]
    plans = [runs, _joined_pages(runs, cost)]
    if len(runs) <= FEW_RUNS:
        plans.append(_merged(runs, cost))
    return min(plans, key=lambda rects: sum(map(cost, rects)))


FEW_RUNS = 48  # pairwise merging grows with the square of the runs; a new screen has ~30


def _joined_pages(runs, cost) -> list[tuple]:
    spans = {}
    for p, _, c0, c1 in runs:
        a, b = spans.get(p, (c0, c1))
        spans[p] = (min(a, c0), max(b, c1))
    order = sorted(spans)
    # best[i]: the cheapest rectangles for the first i changed pages (join j..i-1 last).
    best = [(0, [])]
    for i in range(1, len(order) + 1):
        options = []
        for j in range(i):
            c0 = min(spans[p][0] for p in order[j:i])
            c1 = max(spans[p][1] for p in order[j:i])
            rect = (order[j], order[i - 1], c0, c1)
            options.append((best[j][0] + cost(rect), [*best[j][1], rect]))
        best.append(min(options, key=lambda o: o[0]))
    return best[-1][1]


def _merged(rects, cost) -> list[tuple]:
    rects = dict(enumerate(rects))
    ids = itertools.count(len(rects))
    savings = {}

    def weigh(i, j):
        saving = cost(rects[i]) + cost(rects[j]) - cost(_union(rects[i], rects[j]))
        if saving > 0:
            savings[i, j] = saving

    for i in rects:
        for j in rects:
            if i < j:
                weigh(i, j)
    while savings:
        i, j = max(savings, key=savings.get)
        union = _union(rects.pop(i), rects.pop(j))
        savings = {pair: s for pair, s in savings.items() if not {i, j} & set(pair)}
        new = next(ids)
        rects[new] = union
        for k in rects:
            if k != new:
                weigh(k, new)
    return list(rects.values())


def _union(a, b) -> tuple:
    """The smallest rectangle holding both."""
    return (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))


def _area(rect) -> int:
    p0, p1, c0, c1 = rect
    return (p1 - p0 + 1) * (c1 - c0 + 1)


class _ChangedOnly:
    """What both controllers share: the copy of the panel, and when it is unknown."""

    def __init__(self, serial_interface=None, **kwargs):
        # Before luma's constructor, whose start-up clear is our first (whole) frame.
        self._held: list[bytes] | None = None  # None: the panel's contents are unknown
        super().__init__(serial_interface, **kwargs)

    def forget(self) -> None:
        """The panel's contents are unknown (re-initialised, power-cycled): the next
        frame is sent whole."""
        self._held = None

    def display(self, image: Image.Image) -> None:
        assert image.mode == self.mode
        assert image.size == self.size
        new = pages(self.preprocess(image))
        held, self._held = self._held, None  # unknown until every byte is sent
        for rect in plan(held, new, self._cost, self._gap):
            self._send(rect, new)
        self._held = new


class ssd1306(_ChangedOnly, luma.ssd1306):
    """luma's SSD1306, sending a column/page window (horizontal addressing, set by luma's
    initialisation) per changed rectangle; the data fills the window page by page."""

    _gap = SSD1306_WINDOW

    @staticmethod
    def _cost(rect) -> int:
        return SSD1306_WINDOW + _area(rect)

    def _send(self, rect, new):
        p0, p1, c0, c1 = rect
        const, start = self._const, self._colstart
        self.command(const.COLUMNADDR, start + c0, start + c1, const.PAGEADDR, p0, p1)
        self.data(list(b"".join(new[p][c0 : c1 + 1] for p in range(p0, p1 + 1))))


class sh1106(_ChangedOnly, luma.sh1106):
    """luma's SH1106 (page addressing only), sending per changed page its page address,
    the first column (with the panel's column offset) as two nibbles, and the bytes."""

    _gap = SH1106_PAGE

    @staticmethod
    def _cost(rect) -> int:
        p0, p1, c0, c1 = rect
        return (p1 - p0 + 1) * (SH1106_PAGE + c1 - c0 + 1)

    def _send(self, rect, new):
        p0, p1, c0, c1 = rect
        column = self._page_address_offset + c0
        assert column + c1 - c0 < SH1106_COLUMNS
        for p in range(p0, p1 + 1):
            self.command(0xB0 | p, column & 0x0F, 0x10 | column >> 4)
            self.data(list(new[p][c0 : c1 + 1]))
