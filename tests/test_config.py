"""Strict config: defaults, the example file, and a named key, line and reason for every mistake."""

import dataclasses
import json
import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoreboard import config
from scoreboard.cli import main
from scoreboard.config import ConfigError, load, loads
from scoreboard.display.drivers import size

EXAMPLE = config.EXAMPLE_PATH.read_text(encoding="utf-8")
SECTION_CLASSES = [f.type for f in dataclasses.fields(config.Config)] + [config.ScreenConfig]


def test_the_example_parses_to_exactly_the_defaults():
    assert load(config.EXAMPLE_PATH) == config.default()


@pytest.mark.parametrize("cls", SECTION_CLASSES, ids=lambda c: c.__name__)
def test_the_example_documents_every_key(cls):
    for f in dataclasses.fields(cls):
        if f.name == "screens":  # written as [[display.screen]] blocks
            assert "[[display.screen]]" in EXAMPLE
            continue
        assert re.search(rf"^(# )?{f.name} = ", EXAMPLE, re.M), f.name
        assert f.metadata, f"{cls.__name__}.{f.name} has no limits to check"


def test_defaults_follow_the_issue():
    c = config.default()
    assert (c.match.player_a, c.match.player_b, c.match.race, c.match.target) == (
        "Гравець 1",
        "Гравець 2",
        1,
        8,
    )
    assert c.rules.jumped_ball == "foul"
    assert c.display.language == "uk"
    [screen] = c.display.screens
    assert (screen.driver, screen.interface, screen.port, screen.address) == (
        "ssd1306",
        "i2c",
        1,
        0x3C,
    )
    assert (c.pins.player_a, c.pins.player_b, c.pins.foul, c.pins.undo) == (5, 6, 13, 19)
    assert c.pins.pockets == (17, 27, 22, 23, 16, 26)
    assert (c.sensors.source, c.sensors.port, c.sensors.usb_vid, c.sensors.usb_pid) == (
        "board",
        "",
        0x2E8A,
        0x0005,
    )
    assert c.sensors.heartbeat_timeout == 5.0
    t = c.timings
    assert (t.hold_time, t.undo_hold_time, t.shot_pause, t.foul_kind_window) == (1, 3, 5, 4)
    assert (t.button_debounce, t.beam_min, t.beam_stuck) == (0.02, 0.005, 2.0)
    assert c.service.state_dir == "/var/lib/scoreboard"
    assert loads("") == c


def test_the_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.default().match.race = 3


def test_a_club_config_is_read_in_full():
    c = loads(
        """
[match]
player_a = "Олена"
player_b = "Тарас"
race = 3
target = 7
[rules]
jumped_ball = "spot"
[display]
language = "en"
[[display.screen]]
driver = "ssd1322"
gpio_dc = 24
gpio_rst = 25
rotate = 2
[[display.screen]]
driver = "max7219"
spi_device = 1
cascaded = 4
block_orientation = -90
[[display.screen]]
driver = "sh1106"
address = 0x3D
[[display.screen]]
driver = "emulator-terminal"
emulates = "ssd1322"
[sensors]
source = "gpio"
heartbeat_timeout = 2
[timings]
hold_time = 2
"""
    )
    assert (c.match.player_a, c.match.race, c.match.target) == ("Олена", 3, 7)
    assert c.rules.jumped_ball == "spot"
    oled, matrix, small, emulator = c.display.screens
    assert emulator.emulates == "ssd1322"
    assert size(emulator.driver, emulates=emulator.emulates) == (256, 64)
    assert (oled.interface, oled.port, size(oled.driver)) == ("spi", 0, (256, 64))
    assert (oled.gpio_dc, oled.gpio_rst, oled.rotate) == (24, 25, 2)
    assert size(matrix.driver, cascaded=matrix.cascaded) == (32, 8)
    assert (matrix.contrast, matrix.spi_device) == (0x70, 1)
    assert (small.interface, small.address, small.port) == ("i2c", 0x3D, 1)
    assert c.sensors.source == "gpio"
    assert c.sensors.heartbeat_timeout == 2.0 and isinstance(c.sensors.heartbeat_timeout, float)
    assert c.timings.hold_time == 2.0


# (config text, the key named, the line named, a piece of the reason)
MISTAKES = [
    ("[match]\nrace = 0\n", "match.race", 2, "must be 1 to 99, got 0"),
    ("[match]\nrace = 100\n", "match.race", 2, "must be 1 to 99"),
    ("[match]\ntarget = 9\n", "match.target", 2, "must be 1 to 8"),
    ("[match]\nrace = true\n", "match.race", 2, "must be a whole number"),
    ("[match]\nrace = 1.5\n", "match.race", 2, "must be a whole number"),
    ("[match]\nplayer_a = 7\n", "match.player_a", 2, "must be a string"),
    ("[match]\nplayer_b = ''\n", "match.player_b", 2, "1 to 12 characters"),
    ('[match]\nplayer_b = "a\\tb"\n', "match.player_b", 2, "control or format characters"),
    ('[match]\nplayer_b = "a\\u202eb"\n', "match.player_b", 2, "control or format characters"),
    ("[match]\nrase = 2\n", "match.rase", 2, "unknown key"),
    ("[rules]\njumped_ball = 'maybe'\n", "rules.jumped_ball", 2, "'foul', 'spot'"),
    ("[display]\nlanguage = 'de'\n", "display.language", 2, "must be one of"),
    ("[dispaly]\nlanguage = 'uk'\n", "dispaly", 1, "unknown section"),
    ("match = 3\n", "match", 1, "must be a table"),
    ("\n[timings]\nhold_time = '1'\n", "timings.hold_time", 3, "must be a number"),
    ("[timings]\nbeam_min = 3.0\n", "timings.beam_min", 2, "0.0005 to 0.5"),
    ("[timings]\nbeam_stuck = 0.2\nbeam_min = 0.3\n", "timings.beam_min", 3, "shorter"),
    ("[sensors]\nsource = 'usb'\n", "sensors.source", 2, "'board', 'gpio', 'none'"),
    ("[sensors]\nusb_vid = 0x10000\n", "sensors.usb_vid", 2, "0x00 to 0xFFFF, got 0x10000"),
    ("[sensors]\nheartbeat_timeout = 0\n", "sensors.heartbeat_timeout", 2, "0.5 to 60"),
    ("[service]\nstate_dir = ''\n", "service.state_dir", 2, "1 to 200 characters"),
    ("[service]\nlog_level = 'loud'\n", "service.log_level", 2, "must be one of"),
    ("[pins]\npockets = [17, 27]\n", "pins.pockets", 2, "must list 6, got 2"),
    ("[pins]\npockets = 17\n", "pins.pockets", 2, "list of whole numbers"),
    ("[pins]\npockets = [17, 27, 22, 23, 24, 40]\n", "pins.pockets", 2, "0 to 27, got 40"),
    ("[pins]\nfoul = 5\n", "pins.foul", 2, "GPIO 5 is already used by pins.player_a"),
    ("[pins]\nundo = 2\n", "pins.undo", 2, "GPIO 2 is I2C (SDA)"),
    ("[pins]\nundo = 3\n", "pins.undo", 2, "I2C (SCL)"),
    ("[pins]\nfoul = 14\n", "pins.foul", 2, "UART (TXD)"),
    ("[pins]\nfoul = 15\n", "pins.foul", 2, "UART (RXD)"),
    ("[pins]\nfoul = 0\n", "pins.foul", 2, "HAT ID EEPROM"),
    (
        "[pins]\nplayer_a = 17\n[sensors]\nsource = 'gpio'\n",
        "pins.pockets",
        1,  # pockets is not written: the [pins] header
        "GPIO 17 is already",
    ),
    (
        "[sensors]\nsource = 'gpio'\n[pins]\npockets = [17, 17, 22, 23, 24, 25]\n",
        "pins.pockets",
        4,
        "GPIO 17 is already used by pins.pockets",
    ),
    (
        "[[display.screen]]\ndriver = 'max7219'\n[pins]\nundo = 10\n",
        "pins.undo",
        4,
        "GPIO 10 is SPI0 MOSI, used by display.screen[1]",
    ),
    (
        "[[display.screen]]\ndriver = 'ssd1306'\ninterface = 'spi'\n[sensors]\nsource = 'gpio'\n"
        "[pins]\npockets = [17, 27, 22, 23, 24, 25]\n",
        "display.screen[1].gpio_dc",
        1,
        "GPIO 24 is already used by pins.pockets",
    ),
    (
        "[[display.screen]]\ndriver = 'ssd1322'\ngpio_dc = 5\n",
        "display.screen[1].gpio_dc",
        3,
        "already used by pins.player_a",
    ),
    (
        "[[display.screen]]\ndriver = 'ssd1322'\ngpio_dc = 16\ngpio_rst = 16\n",
        "display.screen[1].gpio_rst",
        4,
        "already used by display.screen[1].gpio_dc",
    ),
    (
        "[[display.screen]]\ndriver = 'ssd1322'\nport = 1\n",
        "pins.undo",
        None,
        "GPIO 19 is SPI1 MISO",
    ),
    ("[[display.screen]]\ndriver = 'oled'\n", "display.screen[1].driver", 2, "must be one of"),
    ("[[display.screen]]\ndriver = 'max7219'\ninterface = 'i2c'\n", None, 3, "connects by spi"),
    ("[[display.screen]]\ninterface = 'usb'\n", "display.screen[1].interface", 2, "'i2c', 'spi'"),
    ("[[display.screen]]\ndriver = 'dummy'\naddress = 0x3C\n", None, 3, "not used by a dummy"),
    (
        "[[display.screen]]\ncascaded = 4\n",
        "display.screen[1].cascaded",
        2,
        "ssd1306 display on i2c",
    ),
    ("[[display.screen]]\ngpio_dc = 16\n", "display.screen[1].gpio_dc", 2, "on i2c"),
    ("[[display.screen]]\ndriver = 'max7219'\nwidth = 32\n", None, 3, "unknown key"),
    ("[[display.screen]]\nemulates = 'sh1106'\n", None, 2, "not used by a ssd1306 display"),
    (
        "[[display.screen]]\ndriver = 'dummy'\nemulates = ['x']\n",
        "display.screen[1].emulates",
        3,
        "must be a string",
    ),
    ("[[display.screen]]\nbrightness = 3\n", "display.screen[1].brightness", 2, "unknown key"),
    (
        "[[display.screen]]\naddress = 0x78\n",
        "display.screen[1].address",
        2,
        "0x03 to 0x77, got 0x78",
    ),
    ("[[display.screen]]\nrotate = 4\n", "display.screen[1].rotate", 2, "0 to 3"),
    ("[[display.screen]]\ncontrast = 256\n", "display.screen[1].contrast", 2, "0x00 to 0xFF"),
    (
        "[[display.screen]]\ndriver = 'max7219'\nblock_orientation = 45\n",
        "display.screen[1].block_orientation",
        3,
        "0, 90, -90, 180",
    ),
    ("[[display.screen]]\ndriver = 'ssd1322'\nport = 2\n", "display.screen[1].port", 3, "SPI1"),
    (
        "[[display.screen]]\ndriver = 'ssd1322'\nspi_device = 2\n",
        "display.screen[1].spi_device",
        3,
        "SPI0 has chip selects 0 to 1",
    ),
    (
        "[[display.screen]]\n\n[[display.screen]]\ndriver = 'sh1106'\naddress = 0x3C\n",
        "display.screen[2].address",
        5,
        "I2C port 1 address 0x3C is already used by display.screen[1]",
    ),
    (
        "[[display.screen]]\ndriver = 'max7219'\n[[display.screen]]\ndriver = 'max7219'\n",
        "display.screen[2].spi_device",
        3,
        "SPI0 chip select 0 is already used by display.screen[1]",
    ),
    ("[display]\nscreen = []\n", "display.screen", 2, "one or more"),
    ("[display]\nscreen = [{driver = 'oled'}]\n", "display.screen[1].driver", 2, "must be one of"),
    ("[match]\nrace = \n", None, 2, "not valid TOML"),
    ("[match\n", None, 1, "not valid TOML"),
]


@pytest.mark.parametrize(("text", "key", "line", "reason"), MISTAKES)
def test_every_mistake_names_its_key_line_and_reason(text, key, line, reason):
    with pytest.raises(ConfigError) as caught:
        loads(text, path="club.toml")
    error = caught.value
    assert reason in error.reason
    if key:
        assert error.key == key
    if line:
        assert error.line == line
        assert str(error).startswith(f"club.toml:{line}: ")
    assert (key or "") in str(error) and reason in str(error)


def test_pocket_pins_only_count_when_the_pockets_are_wired_to_gpio():
    text = "[pins]\nplayer_a = 17\n"
    assert loads(text).pins.player_a == 17
    with pytest.raises(ConfigError, match="GPIO 17 is already used by pins.player_a"):
        loads(text + "[sensors]\nsource = 'gpio'\n")


def test_spi0_pins_are_free_while_no_spi_display_is_configured():
    assert loads("[pins]\nfoul = 10\n").pins.foul == 10
    assert loads("[[display.screen]]\ndriver = 'emulator-terminal'\n[pins]\nfoul = 10\n")


def test_a_file_that_cannot_be_read_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read the config: No such file"):
        load(tmp_path / "missing.toml")
    (tmp_path / "latin1.toml").write_bytes("[match]\nplayer_a = 'Ol\xe9na'\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load(tmp_path / "latin1.toml")


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return repr(value)


KEYS = [(cls.__name__, f.name) for cls in SECTION_CLASSES for f in dataclasses.fields(cls)]
SECTION = {c.__name__: n for n, c in ((f.name, f.type) for f in dataclasses.fields(config.Config))}
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=7),
    max_leaves=8,
).filter(lambda v: v is not None)


@given(st.lists(st.tuples(st.sampled_from(KEYS), VALUES), max_size=6, unique_by=lambda x: x[0]))
def test_any_values_either_load_or_give_a_config_error(assignments):
    lines = []
    for (cls_name, key), value in assignments:
        header = "[[display.screen]]" if cls_name == "ScreenConfig" else f"[{SECTION[cls_name]}]"
        if key == "screens":
            continue
        lines += [header, f"{key} = {_toml(value)}"]
    try:
        loaded = loads("\n".join(lines), path="fuzz.toml")
    except ConfigError as exc:
        assert exc.key or "TOML" in exc.reason
        assert str(exc).startswith("fuzz.toml")
    else:
        assert isinstance(loaded, config.Config)


def test_config_check_prints_ok_and_a_summary(capsys):
    assert main(["config", "check", str(config.EXAMPLE_PATH)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "OK"
    assert "Гравець 1 v Гравець 2, race to 1, 8 points a frame" in out[1]
    assert any("ssd1306 on I2C 1 at 0x3C" in line for line in out)
    assert any("USB 2e8a:0005" in line for line in out)
    assert "  shot clock: off" in out and any(line.endswith("; no beeper") for line in out)


def test_config_check_names_the_shot_clock_and_the_beeper(tmp_path, capsys):
    path = tmp_path / "scoreboard.toml"
    path.write_text("[shot_clock]\nseconds = 40\n[pins]\nbeeper = 12\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  shot clock: 40 s a shot, warning at 10 s, extension 30 s" in out
    assert any(line.endswith("; beeper GPIO 12") for line in out)


def test_config_check_reports_the_mistake_with_status_2(tmp_path, capsys):
    path = tmp_path / "scoreboard.toml"
    path.write_text("[match]\nplayer_a = 'Olena'\n\n[pins]\nfoul = 6\n", encoding="utf-8")
    assert main(["config", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip() == (
        f"scoreboard config: {path}:5: pins.foul: GPIO 6 is already used by pins.player_b"
    )


def test_config_check_reads_the_installed_path_by_default(capsys):
    if config.DEFAULT_PATH.exists():
        pytest.skip(f"{config.DEFAULT_PATH} exists on this machine")
    assert main(["config", "check"]) == 2
    assert str(config.DEFAULT_PATH) in capsys.readouterr().err


def test_config_check_never_prints_a_traceback(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_bytes(b"[display]\n[[display.screen]]\ndriver = 'ssd1306'\ninterface = 'spi'\n\xff")
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "config", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "not UTF-8" in done.stderr


@pytest.mark.parametrize("name", ["Ann #1", "   ", "x=y"])
def test_a_player_name_the_match_log_cannot_hold_is_refused(name):
    with pytest.raises(ConfigError) as caught:
        loads(f'[match]\nplayer_a = "{name}"\n')
    assert caught.value.key == "match.player_a" and "no '#'" in caught.value.reason


def test_spi_speed_is_one_luma_accepts_and_only_for_spi_displays():
    with pytest.raises(ConfigError) as caught:
        loads('[[display.screen]]\ndriver = "max7219"\nspi_speed_hz = 3000000\n')
    assert caught.value.key == "display.screen[1].spi_speed_hz" and "1000000" in caught.value.reason
    with pytest.raises(ConfigError, match="not used by a ssd1306 display on i2c"):
        loads("[[display.screen]]\nspi_speed_hz = 1000000\n")


def test_the_roster_is_a_list_of_names_none_twice():
    cfg = loads('[match]\nroster = ["Олена", "Тарас Шевчук"]\n')
    assert cfg.match.roster == ("Олена", "Тарас Шевчук")
    with pytest.raises(ConfigError, match="'олена' is listed twice"):
        loads('[match]\nroster = ["Олена", "олена"]\n')
    with pytest.raises(ConfigError, match="no '#'"):
        loads('[match]\nroster = ["Ол#ена"]\n')
    with pytest.raises(ConfigError, match="list of strings"):
        loads("[match]\nroster = [1, 2]\n")
