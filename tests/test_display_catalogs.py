"""The shipped .mo files are what the .po files compile to, and the font ships with them."""

import pytest
from PIL import Image, ImageDraw

from scoreboard.display.fonts import SIZES, FontError, font
from scoreboard.texts.catalogs import compiled, parse_po, po_files
from scoreboard.texts.i18n import LANGUAGES, LanguageError, translator


@pytest.mark.parametrize("po", po_files(), ids=lambda p: p.parts[-3])
def test_mo_is_current_with_po(po):
    mo = po.with_suffix(".mo")
    assert mo.read_bytes() == compiled(po), "run: python -m scoreboard.texts.catalogs"


def test_every_language_has_a_catalog():
    assert sorted(p.parts[-3] for p in po_files()) == sorted(LANGUAGES)


def test_slavic_catalogs_have_three_plural_forms():
    for lang in ("uk", "ru"):
        assert translator(lang).plural(5) == 2 and translator(lang).plural(3) == 1


def test_parse_po_reads_multiline_and_plural_entries():
    catalog = parse_po(
        'msgid ""\nmsgstr "x"\n\nmsgid "a"\n"b"\nmsgstr "c"\n"d"\n\n'
        'msgid "o"\nmsgid_plural "m"\nmsgstr[0] "1"\nmsgstr[1] "2"\n'
    )
    assert catalog == {"": "x", "ab": "cd", "o\0m": "1\0" + "2"}


def test_unknown_language_is_refused():
    with pytest.raises(LanguageError, match="uk, ru, en"):
        translator("de")


def picture(text, size):
    image = Image.new("1", (size * 2, size))
    ImageDraw.Draw(image).text((0, 0), text, font=font(size), fill=1)
    return image.tobytes()


@pytest.mark.parametrize("size", SIZES)
def test_terminus_draws_ukrainian_letters_at_every_strike(size):
    missing = picture("\ue000", size)  # a code point the font has no glyph for
    for letter in "ҐЄІЇґєії":
        assert picture(letter, size) != missing, letter
    assert font(size).getbbox("Ї")[3] == size  # a true strike: cell as tall as the size


def test_only_strike_sizes_are_offered():
    with pytest.raises(FontError):
        font(13)


def test_font_licence_ships_with_the_font():
    from importlib import resources

    folder = resources.files("scoreboard.display") / "fonts"
    assert "SIL Open Font License" in (folder / "OFL.txt").read_text(encoding="utf-8")
