"""The scoreboard's schematics, drawn from code with schemdraw (`make schematic`).

Two sheets, both from the pin map (``hardware/pinmap.toml``) and the bus pins the config
knows (``scoreboard/config.py``), so a pin changed there must be redrawn here:

- ``schematic-sensors.svg``: the sensor board (option B), six break-beam pairs on 3-4 m
  cables, each with ESD protection, a series resistor, an RC filter and a pull-up;
- ``schematic-pi.svg``: the Pi with the buttons, the I2C OLED, the SSD1322, and the MAX7219
  behind a 74AHCT125 level shifter on its own 5 V supply.

`tests/test_hardware_pinmap.py` checks that every pin the sheets name agrees with the pin
map and the config defaults, and that the committed SVGs are what this script draws.
Run: ``python hardware/schematic.py`` (writes both sheets next to this file).
"""

import sys
import tomllib
from pathlib import Path

import schemdraw
import schemdraw.elements as elm
from schemdraw.backends import svg

HERE = Path(__file__).resolve().parent
PINMAP = tomllib.loads((HERE / "pinmap.toml").read_text(encoding="utf-8"))

# BCM number -> physical pin of the 40-pin header (the same on every Pi since the B+).
HEADER = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
    13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
    1: 28, 12: 32, 16: 36, 20: 38, 21: 40,
}  # fmt: skip
# GP number -> physical pin of the Pico (GND pins between them).
PICO_PINS = {2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10}

# Part values, shared by the drawing, the README and the BOM.
PULL_UP = "4.7 kΩ"
SERIES = "1 kΩ"
FILTER_C = "10 nF"
TVS = "TVS 5 V"  # bidirectional, e.g. SMAJ5.0CA / PESD5V0S1BB
MAX7219_SUPPLY = "5 V 3 A"  # see README: 1.3 A per 4-in-1 module at full brightness


def bcm(pin: int) -> str:
    return f"BCM {pin} (pin {HEADER[pin]})"


def gp(pin: int) -> str:
    return f"GP{pin} (pin {PICO_PINS[pin]})"


def nets() -> dict[str, str]:
    """Each function's pin as the sheets label it: what the pin-map test compares."""
    from scoreboard.config import RESERVED_PINS, SPI_PINS

    pi = PINMAP["pi"]
    spi = {name.removeprefix("SPI0 "): pin for pin, name in SPI_PINS[0].items()}
    i2c = {
        name.split("(")[1].rstrip(")"): pin for pin, name in RESERVED_PINS.items() if "I2C" in name
    }
    labels = {f"button {name}": bcm(pin) for name, pin in pi["buttons"].items()}
    for n, pin in enumerate(PINMAP["pico"]["pockets"]["pins"], 1):
        labels[f"pocket {n} (board)"] = gp(pin)
    for n, pin in enumerate(pi["pockets"]["pins"], 1):
        labels[f"pocket {n} (Pi)"] = bcm(pin)
    labels |= {f"OLED {name}": bcm(pin) for name, pin in i2c.items()}
    labels |= {f"SPI {name}": bcm(spi[name]) for name in ("MOSI", "SCLK", "CE0", "CE1")}
    labels |= {"SSD1322 DC": bcm(pi["display"]["gpio_dc"])}
    labels |= {"SSD1322 RST": bcm(pi["display"]["gpio_rst"])}
    return labels


def _drawing() -> schemdraw.Drawing:
    svg.config.text = "text"  # real <text>: searchable, and what the test reads
    d = schemdraw.Drawing(canvas="svg", show=False)
    d.config(unit=2.5, fontsize=11, font="sans-serif", lw=1.2, bgcolor="white", margin=0.6)
    return d


def sensors_sheet() -> schemdraw.Drawing:
    """The sensor board: per pocket, the beam pair at the pocket, the cable, then at the
    board TVS -> series R -> RC filter with pull-up -> the Pico's input."""
    labels = nets()
    d = _drawing()
    d += (
        elm.Label()
        .at((0, 2.6))
        .label(
            "Sensor board (option B): one channel per pocket, all six the same",
            fontsize=14,
            halign="left",
        )
    )
    row = 5.4  # height of one channel
    for n in range(1, 7):
        _channel(d, n, -row * (n - 1), labels)
    d += _notes(
        (0, -row * 6 + 0.4),
        [
            "At the board end of each cable (J1-J6): D1 takes an ESD strike to GND at the connector;",
            "R2 pulls the receiver's open-collector output up on the cable side, so a low stays near",
            "0.2 V; R1 limits what a spike can push into the input and, with C1, filters it: 10 µs,",
            "far below the 4 ms of the shortest ball. The input's own pull-up stays on as well.",
            "One more TVS (D7) from 3V3 to GND where the cables leave the box.",
            "Power: the Pico's 3V3(OUT), pin 36, feeds the six pairs (about 70 mA); the Pico is",
            "powered and connected by USB from the Pi. GND: any Pico GND pin (3, 8, 13, 18, ...).",
            "Option A (no Pico): the same channel to the Pi pin under each channel, the Pi's 3V3.",
            "Never feed the sensors 5 V: neither the Pico's nor the Pi's inputs take it.",
        ],
    )
    _pico(d, -row * 6 - 4.0, labels)
    return d


def _pico(d, y: float, labels: dict) -> None:
    """The Pico: the six channels in, 3V3 out to the cables with D7 on it, USB to the Pi."""
    pins = [labels[f"pocket {n} (board)"] for n in range(1, 7)]
    power = ["3V3(OUT) (pin 36)", "GND (pin 38)"]
    pico = _module(d, 10.0, y, "Raspberry Pi Pico (the sensor board)", pins, width=6.4, right=power)
    for n, pin in enumerate(pins, 1):
        _net(d, 8.8, pico[pin][1], f"pocket {n}", to=pico[pin])
    out, ground = pico[power[0]], pico[power[1]]
    d += elm.Line().at(out).to((19.6, out[1]))
    d += elm.Dot().at((18.4, out[1]))
    d += elm.Vdd().at((19.6, out[1])).label("3V3", fontsize=9)
    _text(d, (16.7, out[1] + 0.3), "to the cables", valign="bottom")
    d += elm.DiodeTVS().at((18.4, out[1])).down().to((18.4, out[1] - 2.2))
    d += elm.Ground().at((18.4, out[1] - 2.2))
    _text(d, (18.85, out[1] - 0.95), "D7")
    _text(d, (18.85, out[1] - 1.45), TVS)
    d += elm.Line().at(ground).to((17.2, ground[1]))
    d += elm.Ground().at((17.2, ground[1]))
    _text(d, (10.0, y - 5.2), "micro-USB: to a USB port of the Pi (power and data)", size=10)


def _text(d, at, text, *, size=9, halign="left", valign="center"):
    """A label at a fixed place: every label is placed by hand so that none overlaps."""
    d += elm.Label().at(at).label(text, fontsize=size, halign=halign, valign=valign)


def _channel(d, n: int, y: float, labels: dict) -> None:
    """One pocket: the beam pair at the pocket, the cable, then at the board
    TVS -> series R -> RC filter with pull-up -> the input pin."""
    top, sig, bottom = y, y - 1.6, y - 3.2
    series, pull_up, cap, tvs = f"R{2 * n - 1}", f"R{2 * n}", f"C{n}", f"D{n}"
    _text(d, (0, top + 0.75), f"pocket {n}", size=12)
    # At the pocket: the emitter (two wires) and the receiver module facing it (three).
    d += elm.LED().at((1.4, top)).down().to((1.4, bottom))
    _text(d, (0.9, sig + 0.55), "IR", halign="right")
    _text(d, (0.9, sig), "emitter", halign="right")
    d += elm.Dot().at((1.4, top))
    d += elm.Dot().at((1.4, bottom))
    _rect(d, (2.9, sig + 1.25), (4.5, sig - 1.25))
    _text(d, (3.7, sig + 0.3), "IR", halign="center")
    _text(d, (3.7, sig - 0.3), "receiver", halign="center")
    d += elm.Line().at((1.4, top)).to((9.0, top))
    d += elm.Line().at((1.4, bottom)).to((9.0, bottom))
    for name, level, pin_y in (("VCC", top, sig + 0.8), ("GND", bottom, sig - 0.8)):
        d += elm.Line().at((4.5, pin_y)).to((5.6, pin_y))
        d += elm.Line().at((5.6, pin_y)).to((5.6, level))
        d += elm.Dot().at((5.6, level))
        _text(d, (4.65, pin_y + 0.12), name, size=7, valign="bottom")
    d += elm.Line().at((4.5, sig)).to((9.0, sig))
    _text(d, (4.65, sig + 0.12), "OUT", size=7, valign="bottom")
    for level, wire in ((top, "3V3"), (sig, "SIG"), (bottom, "GND")):
        _text(d, (7.4, level + 0.12), wire, size=8, halign="center", valign="bottom")
    _text(d, (7.4, bottom - 0.45), "cable 3-4 m", halign="center", valign="top")
    # At the board: the connector, ESD, the pull-up, then the series resistor and the RC
    # filter at the pin (a pull-up after R1 would lift the low level to ~0.8 V).
    for level in (top, sig, bottom):
        d += elm.Dot(open=True).at((9.0, level))
    _text(d, (9.0, top + 0.3), f"J{n}", halign="center", valign="bottom")
    d += elm.Line().at((9.0, top)).to((15.6, top))
    d += elm.Line().at((9.0, bottom)).to((15.6, bottom))
    d += elm.Line().at((9.0, sig)).to((10.0, sig))
    d += elm.DiodeTVS().at((10.0, bottom)).up().to((10.0, sig))
    _text(d, (9.55, sig - 0.55), tvs, halign="right")
    _text(d, (9.55, sig - 1.05), TVS, halign="right")
    d += elm.Dot().at((10.0, sig))
    d += elm.Dot().at((10.0, bottom))
    d += elm.Resistor().at((11.4, sig)).up().to((11.4, top))
    _text(d, (10.95, sig + 1.05), pull_up, halign="right")
    _text(d, (10.95, sig + 0.55), PULL_UP, halign="right")
    d += elm.Dot().at((11.4, sig))
    d += elm.Dot().at((11.4, top))
    d += elm.Line().at((10.0, sig)).to((12.6, sig))
    d += elm.Resistor().at((12.6, sig)).to((15.0, sig))
    _text(d, (13.8, sig + 0.5), f"{series} {SERIES}", halign="center", valign="bottom")
    d += elm.Capacitor().at((15.0, sig)).down().to((15.0, bottom))
    _text(d, (15.45, sig - 0.55), cap)
    _text(d, (15.45, sig - 1.05), FILTER_C)
    d += elm.Dot().at((15.0, sig))
    d += elm.Dot().at((15.0, bottom))
    d += elm.Line().at((15.0, sig)).to((17.4, sig))
    d += elm.Vdd().at((15.6, top)).label("3V3", fontsize=9)
    d += elm.Ground().at((15.6, bottom))
    _text(d, (17.6, sig + 0.3), labels[f"pocket {n} (board)"], size=10)
    _text(d, (17.6, sig - 0.3), f"option A: {labels[f'pocket {n} (Pi)']}", size=9)


def _rect(d, corner, opposite) -> None:
    (x0, y0), (x1, y1) = corner, opposite
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        d += elm.Line().at(a).to(b)


def _notes(at, lines) -> elm.Label:
    return elm.Label().at(at).label("\n".join(lines), halign="left", valign="top", fontsize=10)


def _module(d, x, y, title, pins, *, width=4.0, right=()):
    """A module drawn as a box: pins on its left (and ``right``) side 0.8 apart from
    ``y`` down, the title above. Returns each pin's wire end."""
    rows = max(len(pins), len(right))
    bottom = y - 0.8 * (rows - 1) - 0.6
    _rect(d, (x, y + 0.6), (x + width, bottom))
    _text(d, (x, y + 0.85), title, size=10, valign="bottom")
    ends = {}
    for k, name in enumerate(pins):
        _text(d, (x + 0.2, y - 0.8 * k), name)
        ends[name] = (x, y - 0.8 * k)
    for k, name in enumerate(right):
        _text(d, (x + width - 0.2, y - 0.8 * k), name, halign="right")
        ends[name] = (x + width, y - 0.8 * k)
    return ends


def _net(d, x, y, net, *, to):
    """A net name (right-aligned at ``x``) and its wire to ``to``."""
    _text(d, (x - 0.2, y), net, size=10, halign="right")
    d += elm.Line().at((x, y)).to(to)


def pi_sheet() -> schemdraw.Drawing:
    """The Pi: buttons to GND, the I2C OLED, the SSD1322 straight on SPI0, and the MAX7219
    behind a 74AHCT125 on its own 5 V supply (its 3.3 V inputs read 5 V TTL levels)."""
    labels = nets()
    pi = PINMAP["pi"]
    d = _drawing()
    _text(d, (0, 2.6), "Raspberry Pi: buttons and displays (BCM number, header pin)", size=14)
    # Buttons: each from its pin to GND, the Pi's internal pull-up on.
    names = {"A": "player A", "B": "player B", "foul": "FOUL", "undo": "UNDO"}
    for k, name in enumerate(pi["buttons"]):
        y = -1.4 * k
        _net(d, 3.6, y, labels[f"button {name}"], to=(4.2, y))
        d += elm.Button().at((4.2, y)).right().to((6.0, y))
        _text(d, (5.1, y + 0.55), names[name], halign="center", valign="bottom")
        d += elm.Line().at((6.0, y)).to((7.0, y))
        d += elm.Dot().at((7.0, y))
    d += elm.Line().at((7.0, 0)).to((7.0, -4.8))
    d += elm.Ground().at((7.0, -4.8))
    d += _notes(
        (0, -6.6),
        [
            "Buttons: no resistors (the Pi's",
            "internal pull-ups), debounced in",
            "software. GND: header pin 6, 9, 14,",
            "20, 25, 30, 34 or 39.",
        ],
    )
    x = 17.0  # the modules' left edge; net names end at 12
    # I2C OLED, 3.3 V.
    oled = _module(d, x, 0.0, "OLED SSD1306 / SH1106, I2C, 3.3 V", ["VCC", "GND", "SDA", "SCL"])
    for net, pin in (("3V3 (pin 1)", "VCC"), ("GND", "GND"), (labels["OLED SDA"], "SDA")):
        _net(d, 12.0, oled[pin][1], net, to=oled[pin])
    _net(d, 12.0, oled["SCL"][1], labels["OLED SCL"], to=oled["SCL"])
    # SSD1322, 3.3 V, straight on SPI0 CE1.
    wires = [
        ("3V3 (pin 17)", "VCC"),
        ("GND", "GND"),
        (labels["SPI MOSI"], "DIN (D1)"),
        (labels["SPI SCLK"], "CLK (D0)"),
        (labels["SPI CE1"], "CS"),
        (labels["SSD1322 DC"], "DC"),
        (labels["SSD1322 RST"], "RES"),
    ]
    oled2 = _module(d, x, -4.6, "OLED SSD1322 256x64, 4-wire SPI, 3.3 V", [p for _, p in wires])
    for net, pin in wires:
        _net(d, 12.0, oled2[pin][1], net, to=oled2[pin])
    d += _notes(
        (x + 4.4, -6.0),
        [
            "Most SSD1322 boards ship set",
            "for the 80xx parallel bus:",
            "move the bus-select resistors",
            "to 4-wire SPI first (README,",
            "check your board's silkscreen).",
        ],
    )
    # MAX7219 behind the 74AHCT125, both on the separate 5 V supply.
    y1 = -12.8
    shifter = _module(
        d,
        x,
        y1,
        "U1 74AHCT125 (VCC +5V PSU)",
        ["1A", "2A", "3A"],
        width=3.6,
        right=["1Y", "2Y", "3Y"],
    )
    for net, pin in (
        (labels["SPI MOSI"], "1A"),
        (labels["SPI CE0"], "2A"),
        (labels["SPI SCLK"], "3A"),
    ):
        _net(d, 12.0, shifter[pin][1], net, to=shifter[pin])
    _text(d, (x + 1.8, y1 - 2.75), "1OE-4OE, 4A, GND: to GND", size=9, halign="center")
    matrix = _module(
        d, 25.0, y1 + 1.6, "MAX7219 4-in-1 (FC-16), 5 V", ["VCC", "GND", "DIN", "CS", "CLK"]
    )
    for out, pin in (("1Y", "DIN"), ("2Y", "CS"), ("3Y", "CLK")):
        d += elm.Line().at(shifter[out]).to(matrix[pin])
    _net(d, 24.2, matrix["VCC"][1], "+5V PSU", to=matrix["VCC"])
    _net(d, 24.2, matrix["GND"][1], "GND", to=matrix["GND"])
    # The separate supply: its 0 V joined to the Pi's GND, never its +5V to the Pi's 5 V.
    y2 = -17.6
    _text(d, (12.0, y2 + 1.2), f"PSU {MAX7219_SUPPLY} (e.g. Mean Well IRM-15-5)", size=10)
    d += elm.SourceV().at((13.0, y2 - 2.0)).up().to((13.0, y2))
    d += elm.Line().at((13.0, y2)).to((22.0, y2))
    d += elm.Line().at((13.0, y2 - 2.0)).to((22.0, y2 - 2.0))
    d += elm.Capacitor(polar=True).at((16.0, y2)).down().to((16.0, y2 - 2.0))
    _text(d, (16.5, y2 - 0.7), "C7 470 µF")
    _text(d, (16.5, y2 - 1.2), "at the modules")
    d += elm.Capacitor().at((20.0, y2)).down().to((20.0, y2 - 2.0))
    _text(d, (20.5, y2 - 0.7), "C8 100 nF")
    _text(d, (20.5, y2 - 1.2), "at U1 VCC")
    for node in ((16.0, y2), (20.0, y2), (16.0, y2 - 2.0), (20.0, y2 - 2.0)):
        d += elm.Dot().at(node)
    _text(d, (22.2, y2), "+5V PSU: U1 VCC, modules' VCC")
    _text(d, (22.2, y2 - 2.0), "GND: the Pi's GND (pin 6) too")
    d += _notes(
        (0, -12.4),
        [
            "A MAX7219 on 5 V reads a high",
            "only from 3.5 V: the Pi's 3.3 V",
            "is not enough. U1 (TTL inputs,",
            "5 V supply) lifts DIN, CS and",
            "CLK to 5 V. A 4-in-1 module",
            "draws up to 1.3 A (README): it",
            "gets its own 5 V supply, whose",
            "0 V joins the Pi's GND.",
            "The sensor board: on a USB port.",
        ],
    )
    return d


SHEETS = {"schematic-sensors.svg": sensors_sheet, "schematic-pi.svg": pi_sheet}


def render(name: str) -> bytes:
    """One sheet as SVG bytes."""
    return SHEETS[name]().get_imagedata("svg")


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE
    for name in SHEETS:
        (out / name).write_bytes(render(name))
        print(f"wrote {out / name}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))  # the scoreboard package, from a checkout
    sys.exit(main(sys.argv))
