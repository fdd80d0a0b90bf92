"""hardware/pinmap.toml and the schematics agree with the code's default pins; no pin is used twice."""

import ast
import importlib.util
import re
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from scoreboard import config as configuration
from scoreboard.config import RESERVED_PINS, SPI_PINS, PinsConfig, ScreenConfig

ROOT = Path(__file__).resolve().parent.parent
PINMAP = tomllib.loads((ROOT / "hardware" / "pinmap.toml").read_text())


def test_button_and_pocket_pins_match_the_code():
    """The pins the appliance reads: the config's defaults (the inputs' own are read off them)."""
    pins = PinsConfig()
    buttons = {"A": pins.player_a, "B": pins.player_b, "foul": pins.foul, "undo": pins.undo}
    assert PINMAP["pi"]["buttons"] == buttons
    assert tuple(PINMAP["pi"]["pockets"]["pins"]) == pins.pockets


def test_no_pi_pin_used_twice_nor_on_a_bus():
    used = [*PINMAP["pi"]["buttons"].values(), *PINMAP["pi"]["pockets"]["pins"]]
    used += PINMAP["pi"]["display"].values()
    used.append(PINMAP["pi"]["beeper"]["pin"])
    assert len(used) == len(set(used)), sorted(used)
    reserved = {pin for pins in PINMAP["pi"]["reserved"].values() for pin in pins}
    assert reserved >= {2, 3, 7, 8, 9, 10, 11, 14, 15}
    assert not reserved & set(used)
    assert all(0 <= pin <= 27 for pin in used)


def test_the_beeper_pin_is_free_on_every_bus_and_the_config_takes_it():
    pin = PINMAP["pi"]["beeper"]["pin"]
    assert PinsConfig().beeper == -1  # none unless one is fitted
    assert all(pin not in pins for pins in SPI_PINS.values()) and pin not in RESERVED_PINS
    config = configuration.loads(f"[pins]\nbeeper = {pin}\n")  # no pin of the defaults
    assert config.pins.beeper == pin


def test_pico_pins_match_the_firmware():
    tree = ast.parse((ROOT / "firmware" / "main.py").read_text())
    firmware = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id == "SENSOR_PINS"
    )
    assert list(firmware) == PINMAP["pico"]["pockets"]["pins"]
    assert len(set(firmware)) == 6


def _schematic():
    """hardware/schematic.py, the code that draws the schematics (a script, not a module)."""
    spec = importlib.util.spec_from_file_location("schematic", ROOT / "hardware" / "schematic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCHEMATIC = _schematic()


def test_the_schematics_name_each_function_on_its_configured_pin():
    """What the drawings label agrees with the config defaults and the firmware."""
    pins, screen = PinsConfig(), ScreenConfig()
    nets = SCHEMATIC.nets()
    bcm = {pin: f"BCM {pin} (pin {header})" for pin, header in HEADER.items()}
    buttons = {"A": pins.player_a, "B": pins.player_b, "foul": pins.foul, "undo": pins.undo}
    for name, pin in buttons.items():
        assert nets[f"button {name}"] == bcm[pin], name
    for n, pin in enumerate(pins.pockets, 1):
        assert nets[f"pocket {n} (Pi)"] == bcm[pin], n
    for n, gp in enumerate(_firmware_pins(), 1):
        assert nets[f"pocket {n} (board)"] == f"GP{gp} (pin {PICO[gp]})", n
    assert nets["SSD1322 DC"] == bcm[screen.gpio_dc]
    assert nets["SSD1322 RST"] == bcm[screen.gpio_rst]
    spi0 = {name: pin for pin, name in SPI_PINS[0].items()}
    for line in ("MOSI", "SCLK", "CE0", "CE1"):
        assert nets[f"SPI {line}"] == bcm[spi0[f"SPI0 {line}"]], line
    assert (nets["OLED SDA"], nets["OLED SCL"]) == (bcm[2], bcm[3])
    assert RESERVED_PINS[2] == "I2C (SDA)" and RESERVED_PINS[3] == "I2C (SCL)"


def test_every_pin_the_schematics_show_is_one_they_mean():
    """No pin label in a drawing that the net list does not hold (a stale hand-written
    pin in a note), and every net is drawn."""
    nets = set(SCHEMATIC.nets().values())
    for name in SCHEMATIC.SHEETS:
        texts = _texts(ROOT / "hardware" / name)
        shown = {m for t in texts for m in re.findall(r"(?:BCM \d+|GP\d+) \(pin \d+\)", t)}
        assert shown <= nets, (name, shown - nets)
    drawn = {
        m
        for name in SCHEMATIC.SHEETS
        for t in _texts(ROOT / "hardware" / name)
        for m in re.findall(r"(?:BCM \d+|GP\d+) \(pin \d+\)", t)
    }
    assert drawn == nets


@pytest.mark.parametrize("name", ["schematic-sensors.svg", "schematic-pi.svg"])
def test_the_committed_schematics_are_what_the_code_draws(name):
    committed = (ROOT / "hardware" / name).read_bytes()
    assert SCHEMATIC.render(name) == committed, f"hardware/{name} is stale: run `make schematic`"


def test_the_readme_tables_agree_with_the_pin_map():
    readme = (ROOT / "hardware" / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (player A|player B|FOUL|UNDO) \| (\d+) \| (\d+) \|$", readme, re.M)
    names = {"player A": "A", "player B": "B", "FOUL": "foul", "UNDO": "undo"}
    assert {names[n]: int(b) for n, b, _ in rows} == PINMAP["pi"]["buttons"]
    assert all(HEADER[int(b)] == int(h) for _, b, h in rows)
    pockets = ", ".join(str(p) for p in PINMAP["pi"]["pockets"]["pins"])
    assert f"pockets 1-6 on BCM {pockets}" in " ".join(readme.split())


def _firmware_pins() -> list[int]:
    tree = ast.parse((ROOT / "firmware" / "main.py").read_text())
    return next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id == "SENSOR_PINS"
    )


def _texts(path: Path) -> list[str]:
    return ["".join(t.itertext()) for t in ET.parse(path).iter("{http://www.w3.org/2000/svg}text")]


# The 40-pin header and the Pico's pins, from their pinouts (kept apart from the script).
HEADER = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31,
          13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24,
          7: 26, 12: 32, 16: 36, 20: 38, 21: 40}  # fmt: skip
PICO = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12}
