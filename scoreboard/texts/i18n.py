"""The display's languages: gettext catalogs for uk (default), ru and en."""

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "scoreboard"
LANGUAGES = ("uk", "ru", "en")
DEFAULT_LANGUAGE = "uk"


class LanguageError(ValueError):
    """A language the display has no catalog for."""


@cache
def translator(lang: str = DEFAULT_LANGUAGE) -> gettext.GNUTranslations:
    """The catalog for `lang`; `.gettext(msg)` and `.ngettext(one, many, n)` translate."""
    if lang not in LANGUAGES:
        raise LanguageError(f"no display language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang])
