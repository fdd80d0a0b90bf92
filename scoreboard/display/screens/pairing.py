"""The pairing screen (issue 12): the code a phone types and a QR code of the table's page.

Shown on the OLEDs while a code is good (scoreboard/table/phone_control.py); the LED digits keep the score.
The QR code is dark modules on a lit square with a one-module quiet zone, two pixels a
module while the address fits a version-3 code (29 modules: 62 px of the 64), one pixel
beyond that; a longer address first drops the code it carries in its ``#code=`` part.
"""

import qrcode
from qrcode.constants import ERROR_CORRECT_L

from scoreboard.display.canvas import ROWS, Canvas

LARGEST_AT_TWO_PIXELS = 3  # QR version: 29 modules + quiet zone = 62 px


def qr_matrix(url: str) -> list[list[bool]]:
    """The modules of the smallest QR code of ``url`` (low error correction: the screen is
    clean and flat), without its quiet zone."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_L, border=0)
    code.add_data(url)
    code.make(fit=True)
    return code.get_matrix()


def fitted(url: str) -> list[list[bool]]:
    """The QR code to show: of ``url``, or of the page without the code when that is small
    enough for two pixels a module and ``url`` is not (the code is on the screen anyway)."""
    matrix = qr_matrix(url)
    if len(matrix) > 17 + 4 * LARGEST_AT_TWO_PIXELS and "#" in url:
        shorter = qr_matrix(url.split("#", 1)[0])
        if len(shorter) < len(matrix):
            return shorter
    return matrix


def draw_qr(c: Canvas, matrix: list[list[bool]], right: int) -> int:
    """The QR code with its right edge at ``right``, centred in height; returns its left x."""
    n = len(matrix) + 2  # a module of quiet zone each side
    scale = max(1, min(2, c.height // n))
    size = n * scale
    left, top = right - size, (c.height - size) // 2
    c.draw.rectangle((left, top, left + size - 1, top + size - 1), fill=c.fg)
    for row, modules in enumerate(matrix):
        for col, dark in enumerate(modules):
            if dark:
                x, y = left + (col + 1) * scale, top + (row + 1) * scale
                c.draw.rectangle((x, y, x + scale - 1, y + scale - 1), fill=c.bg)
    return left


def draw(c: Canvas, code: str, url: str, t) -> Canvas:
    """The code, large, left of the QR code; on a 256 px display the address under it."""
    left = draw_qr(c, fitted(url), c.width) if url else c.width
    room = left - 4
    c.fit(0, ROWS[0], room, "{s}", s=t.gettext("Pair a phone") if c.wide else t.gettext("Phone"))
    spaced = f"{code[:3]} {code[3:]}"
    size = next((z for z in (24, 16, 12) if c.fits(room, spaced, size=z, bold=True)), 12)
    c.fit(0, ROWS[1] + 2, room, spaced, size=size, bold=True)  # whole, or an overflow
    if url and c.wide:  # 128 px has no room for an address: the QR code holds it
        c.fit(0, ROWS[4], room, "{s}", fill=c.dim, s=url.split("#", 1)[0].removeprefix("http://"))
    return c
