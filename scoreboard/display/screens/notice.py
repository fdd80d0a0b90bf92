"""A notice in words: a title bar and text wrapped to the panel, a page at a time.

For what the table must say when it cannot play: a mistake in its settings
(scoreboard/table/settings_mistake.py). The text is wrapped at spaces and, for a word
longer than a row (a path), inside the word; each page holds the rows under the title,
and the title bar names the page ("2/3") when there are more.
"""

from scoreboard.display.canvas import ROW_HEIGHT, ROWS, Canvas

SIZE = 12


def rows(c: Canvas, text: str) -> list[str]:
    """`text` wrapped to the canvas's width; a line break in it starts a new row, and a word
    longer than a row (a path) is broken inside."""
    width = c.width - 4
    out = []
    for paragraph in text.splitlines() or [""]:
        for line in c.lines(paragraph, width, size=SIZE):
            while c.width_of(line, size=SIZE) > width:
                cut = len(line)
                while cut > 1 and c.width_of(line[:cut], size=SIZE) > width:
                    cut -= 1
                out.append(line[:cut])
                line = line[cut:]
            out.append(line)
    return out


def pages(c: Canvas, text: str) -> list[list[str]]:
    per_page = len(ROWS) - 1  # the first row is the title
    every = rows(c, text)
    return [every[i : i + per_page] for i in range(0, len(every), per_page)] or [[]]


def draw(c: Canvas, title: str, text: str, page: int = 0) -> tuple[Canvas, int]:
    """Draws page `page` (modulo their count); returns the canvas and the count of pages."""
    every = pages(c, text)
    count = len(every)
    c.bar(0, "{title}", title=title, right=f"{page % count + 1}/{count}" if count > 1 else "")
    for y, line in zip(ROWS[1:], every[page % count], strict=False):
        c.text(2, y + (ROW_HEIGHT - SIZE), line, size=SIZE)
    return c, count
