"""hardware/pinmap.toml agrees with the code's default pins, and no pin is used twice."""

import ast
import tomllib
from pathlib import Path

from scoreboard.inputs.buttons import DEFAULT_PINS as BUTTON_PINS
from scoreboard.inputs.gpio_pockets import DEFAULT_PINS as POCKET_PINS

ROOT = Path(__file__).resolve().parent.parent
PINMAP = tomllib.loads((ROOT / "hardware" / "pinmap.toml").read_text())


def test_button_and_pocket_pins_match_the_code():
    assert PINMAP["pi"]["buttons"] == BUTTON_PINS
    assert tuple(PINMAP["pi"]["pockets"]["pins"]) == POCKET_PINS


def test_no_pi_pin_used_twice_nor_on_a_bus():
    used = [*PINMAP["pi"]["buttons"].values(), *PINMAP["pi"]["pockets"]["pins"]]
    used += PINMAP["pi"]["display"].values()
    assert len(used) == len(set(used)), sorted(used)
    reserved = {pin for pins in PINMAP["pi"]["reserved"].values() for pin in pins}
    assert reserved >= {2, 3, 7, 8, 9, 10, 11, 14, 15}
    assert not reserved & set(used)
    assert all(0 <= pin <= 27 for pin in used)


def test_pico_pins_match_the_firmware():
    tree = ast.parse((ROOT / "firmware" / "main.py").read_text())
    firmware = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and node.targets[0].id == "SENSOR_PINS"
    )
    assert list(firmware) == PINMAP["pico"]["pockets"]["pins"]
    assert len(set(firmware)) == 6


def test_wiring_diagram_names_every_pin():
    svg = (ROOT / "hardware" / "wiring.svg").read_text()
    for pin in [*BUTTON_PINS.values(), *POCKET_PINS]:
        assert f"BCM {pin}" in svg, pin
    for gp in PINMAP["pico"]["pockets"]["pins"]:
        assert f"GP{gp}" in svg, gp
