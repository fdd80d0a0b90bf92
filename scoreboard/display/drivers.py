"""Every display driver the scoreboard knows, and its facts, in one table.

The config (which keys a driver takes, its defaults), the device factory (which luma device
to build), the renderer (what size and mode of picture) and the wiring all read this table.
It imports neither luma nor Pillow, so the config and the command line stay quick to load.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Driver:
    """One kind of display."""

    wiring: tuple[str, ...] = ()  # the buses it connects by, the default first; () for none
    size: tuple[int, int] | None = None  # its pixels; None: set by `emulates` or `cascaded`
    mode: str = "1"  # the picture luma takes: "1" mono, "RGB" for greyscale panels
    matrix: bool = False  # LED modules: score and frames only
    contrast: int | None = None  # luma's starting brightness, if it has one
    spi_speed_hz: int = 8_000_000  # luma's SPI clock unless the config says otherwise
    emulator: str | None = None  # the luma.emulator device it is, for the emulators


OLED = Driver(wiring=("i2c", "spi"), size=(128, 64), contrast=0xCF)
LED = {"wiring": ("spi",), "matrix": True, "contrast": 0x70, "spi_speed_hz": 1_000_000}

DRIVERS = {
    "ssd1306": OLED,
    "sh1106": OLED,
    "ssd1322": Driver(wiring=("spi",), size=(256, 64), mode="RGB", contrast=0xCF),
    "max7219": Driver(size=(32, 8), **LED),  # four 8x8 modules unless `cascaded` says
    "max7219-7seg": Driver(size=(8, 8), **LED),  # eight seven-segment digits
    "emulator-terminal": Driver(emulator="asciiblock"),
    "emulator-pygame": Driver(emulator="pygame"),
    "emulator-capture": Driver(emulator="capture"),
    "emulator-gif": Driver(emulator="gifanim"),
    "dummy": Driver(),  # luma's dummy: draws nowhere, keeps the last picture (tests)
}

# The displays with a screen layout of their own, at their own size: what an emulator or a
# dummy can show, what `replay --png` and the gallery draw.
PANELS = ("ssd1306", "sh1106", "ssd1322", "max7219")
EMULATORS = {name: d.emulator for name, d in DRIVERS.items() if d.emulator}


def size(driver: str, *, emulates: str = "ssd1306", cascaded: int | None = None) -> tuple[int, int]:
    """A display's pixels: its own, a chain of `cascaded` LED modules', or the emulated one's."""
    if driver.startswith("max7219") and cascaded is not None:
        return 8 * cascaded, 8
    own = DRIVERS[driver].size
    return own if own is not None else DRIVERS[emulates].size
