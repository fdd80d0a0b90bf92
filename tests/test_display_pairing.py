"""The pairing screen (issue 12): the code whole and a QR code a phone's camera reads, on
every OLED in every language, for the longest address a table can have."""

import pytest
import zxingcpp

from scoreboard.display.render import panel, render_pairing
from scoreboard.display.screens.pairing import fitted
from scoreboard.texts.i18n import LANGUAGES

OLEDS = ("ssd1306", "sh1106", "ssd1322")
LONGEST_IP = "http://255.255.255.255:65535/pair#code=123456"
LONG_NAME = "http://a-very-long-club-hostname-for-table-seven.example.org:8080/pair#code=123456"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("display", OLEDS)
@pytest.mark.parametrize("url", [LONGEST_IP, LONG_NAME])
def test_the_qr_code_reads_back_as_the_tables_page(display, lang, url):
    image = render_pairing("123456", url, panel(display), lang=lang)
    (read,) = zxingcpp.read_barcodes(image.convert("L"))
    assert read.text in (url, url.split("#")[0])


def test_an_ip_address_keeps_the_code_in_the_qr_code_at_two_pixels_a_module():
    assert len(fitted(LONGEST_IP)) == 29  # version 3: 62 px with its quiet zone


def test_a_long_name_drops_the_code_from_the_qr_code_to_stay_readable():
    assert len(fitted(LONG_NAME)) < 37


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("display", OLEDS)
def test_every_text_of_the_pairing_screen_fits(display, lang):
    from scoreboard.display.canvas import Canvas
    from scoreboard.display.screens import pairing
    from scoreboard.texts.i18n import translator
    from scoreboard.texts.words import Words

    p = panel(display)
    c = Canvas(p.width, p.height, p.mode)
    pairing.draw(c, "123456", LONGEST_IP, Words(translator(lang), wide=c.wide))
    assert c.overflows == []
