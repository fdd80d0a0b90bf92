"""The score displays: every screen drawn from a Match snapshot onto luma devices.

Public API (everything else in this package is internal):

    create_displays(specs, *, lang="uk", timings=None, on_error=None) -> list[Screen]
        One Screen per spec dict (see scoreboard/display/devices.py for the keys), e.g.
        {"driver": "ssd1306", "interface": "i2c", "port": 1, "address": 0x3C},
        {"driver": "max7219", "cascaded": 4}, {"driver": "emulator-terminal"},
        {"driver": "dummy", "emulates": "ssd1322"}. A display that is missing or fails at
        start is logged and reported to on_error(spec, message); the others still run. `timings`
        (texts/words.py Timings, from the config's [timings]) are the holds the screens name.

    Screen.show(snapshot, *, faults=(), hint=None) -> int
        Draws the snapshot's phase; pushes to the device only if the picture changed.
        Returns the bytes sent on the bus (0 if unchanged; 0 for dummy and emulators).
        Also: .name, .failed (None or why it stopped), .last_bytes, .last_seconds,
        .bytes_total, .updates, .image (the last picture, for dummy and emulators).

    render_png(snapshot, path, *, display="ssd1306", lang="uk", faults=(), hint=None)
        Writes the screen as a PNG at the display's own resolution; display is one of
        ssd1306, sh1106, ssd1322, max7219 (4 modules, 32x8). For `scoreboard replay --png`.

    LANGUAGES = ("uk", "ru", "en"); DISPLAYS = ("ssd1306", "sh1106", "ssd1322", "max7219")
    DisplayError: a bad spec, or an unknown display/language/phase for render_png.

`snapshot` is Match.snapshot() (docs/ARCHITECTURE.md); a fault is {"kind": "board-lost"},
{"kind": "sensor-stuck", "pocket": 3} or {"kind": "sensor-silent", "pocket": 5}; a hint
is a short text (one from screens/faults.py HINTS is translated).
"""

import importlib

from scoreboard.display.drivers import PANELS
from scoreboard.texts.i18n import LANGUAGES

DISPLAYS = PANELS

__all__ = ["DISPLAYS", "LANGUAGES", "DisplayError", "Screen", "create_displays", "render_png"]

# Loaded on first use, so that what needs only the names (the config, the command line)
# starts without luma and Pillow.
_LAZY = {
    "DisplayError": "scoreboard.display.devices",
    "Screen": "scoreboard.display.screen",
    "create_displays": "scoreboard.display.screen",
}


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def render_png(
    snapshot: dict, path, *, display="ssd1306", lang="uk", timings=None, faults=(), hint=None
):
    """The screen for `snapshot` as a PNG file at the display's own resolution."""
    from scoreboard.display.devices import DisplayError
    from scoreboard.display.render import RenderError, panel, render
    from scoreboard.display.screens import PhaseError
    from scoreboard.texts.i18n import LanguageError

    try:
        image = render(
            snapshot, panel(display), lang=lang, timings=timings, faults=faults, hint=hint
        )
    except (RenderError, LanguageError, PhaseError) as exc:
        raise DisplayError(str(exc)) from exc
    image.save(path, format="PNG")
