"""Every key of config.example.toml changes what the appliance does (issue 10: no key that
is read and ignored). For each key a value other than its default is set, the real wiring
is built (Appliance on gpiozero's mock pins), and what it built must differ."""

import logging
import re

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from scoreboard import config as configuration
from scoreboard.commands.run import configure_logging
from scoreboard.display import create_displays
from scoreboard.net import address
from scoreboard.table.wiring import Appliance, screen_specs

# A value other than the default for each key, and the section and screen it needs.
CHANGES = {
    "match.player_a": '"Олена"',
    "match.player_b": '"Тарас"',
    "match.race": "3",
    "match.target": "7",
    "match.roster": '["Олена", "Тарас"]',
    "rules.jumped_ball": '"spot"',
    "rules.penalty": '"american"',
    "display.language": '"en"',
    "display.dim_after": "60.0",
    "display.saver_after": "120.0",
    "display.dim_contrast": "0x20",
    "display.page_seconds": "4.0",
    "display.screen.driver": '"sh1106"',
    "display.screen.interface": '"spi"',
    "display.screen.port": "0",
    "display.screen.address": "0x3D",
    "display.screen.spi_device": "1",
    "display.screen.spi_speed_hz": "4000000",
    "display.screen.gpio_dc": "12",
    "display.screen.gpio_rst": "20",
    "display.screen.rotate": "2",
    "display.screen.emulates": '"ssd1322"',
    "display.screen.cascaded": "2",
    "display.screen.block_orientation": "-90",
    "display.screen.contrast": "0x10",
    "pins.player_a": "20",
    "pins.player_b": "21",
    "pins.foul": "12",
    "pins.undo": "4",
    "pins.pockets": "[4, 27, 22, 23, 16, 26]",
    "pins.beeper": "12",
    "sensors.source": '"gpio"',
    "sensors.port": '"/dev/ttyACM7"',
    "sensors.usb_vid": "0x1234",
    "sensors.usb_pid": "0x5678",
    "sensors.heartbeat_timeout": "9.0",
    "timings.hold_time": "2.0",
    "timings.undo_hold_time": "5.0",
    "timings.shot_pause": "7.0",
    "timings.miss_ball_window": "1.5",
    "timings.foul_kind_window": "6.0",
    "timings.penalty_ball_window": "3.0",
    "timings.confirm_result": "60.0",
    "timings.button_debounce": "0.05",
    "timings.beam_min": "0.01",
    "timings.beam_stuck": "3.0",
    "shot_clock.seconds": "45.0",
    "shot_clock.warning": "5.0",
    "shot_clock.extension": "20.0",
    "service.state_dir": None,  # a path of the test's own
    "service.log_level": '"debug"',
    "web.enabled": "true",
    "web.port": "8081",
}
# The screen a display key needs to mean anything, and the sensors a pocket key needs.
SCREEN_FOR = {
    "emulates": 'driver = "dummy"\n',
    "cascaded": 'driver = "max7219"\n',
    "block_orientation": 'driver = "max7219"\n',
    "spi_device": 'interface = "spi"\n',
    "spi_speed_hz": 'interface = "spi"\n',
    "gpio_dc": 'interface = "spi"\n',
    "gpio_rst": 'interface = "spi"\n',
}
NEEDS_GPIO_SENSORS = {"pins.pockets", "timings.beam_min", "timings.beam_stuck"}


def example_keys():
    """Every key the documented example sets or shows (commented out), as section.key."""
    keys, section = [], ""
    for line in configuration.EXAMPLE_PATH.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^\[\[?([\w.]+)\]\]?", line):
            section = m.group(1)
        elif m := re.match(r"^#?\s?([a-z_]+) = ", line):
            keys.append(f"{section}.{m.group(1)}")
    return keys


# Sections whose keys act in another process, each tested key by key in its own file.
ELSEWHERE = {"mqtt": "tests/test_mqtt_config.py", "wifi": "tests/test_wifi.py"}


def test_the_table_covers_every_documented_key():
    here = [key for key in example_keys() if key.split(".")[0] not in ELSEWHERE]
    assert sorted(set(here)) == sorted(CHANGES)


def built(text: str, state_dir) -> dict:
    """What the real wiring made of a config: everything a key could change."""
    config = configuration.loads(text)
    configure_logging(config)
    specs = screen_specs(config)
    for spec in specs:  # no bus here: the real driver over luma's noop interface
        if spec["driver"] not in ("dummy",) and not spec["driver"].startswith("emulator"):
            spec["interface"] = "noop"
    screens = create_displays(specs, lang=config.display.language)
    factory = MockFactory(pin_class=MockPWMPin)  # PWM: the beeper's TonalBuzzer
    appliance = Appliance(
        config,
        state_dir=config.service.state_dir if "state_dir" in text else state_dir,
        screens=screens,
        pin_factory=factory,
    )
    try:
        app, panel, link = appliance.app, appliance.app.panel, appliance.link
        return {
            "specs": screen_specs(config),
            "language": [s.lang for s in screens],
            "saver": (app.saver.dim_after, app.saver.saver_after, app.saver.dim_contrast),
            "pages": app.pages.every,
            "shot_clock": (
                app.shot_clock.seconds,
                app.shot_clock.warning,
                app.shot_clock.extension,
            ),
            "beeper": appliance.beeper and appliance.beeper.buzzer.pwm_device.pin.info.number,
            "match": app.match.snapshot() | {"jumped": str(app.match.state.jumped_ball)},
            "panel": (
                panel.shot_pause,
                panel.miss_ball_window,
                panel.foul_kind_window,
                panel.penalty_window,
                app.confirm.seconds,
            ),
            "buttons": {
                b: (appliance.buttons.pins[b], d.bounce_time, d.hold_time)
                for b, d in appliance.buttons._debouncers.items()
            },
            "pockets": appliance.pockets
            and (
                appliance.pockets.pins,
                [(c.chatter_ms, c.min_ball_ms, c.stuck_ms) for c in appliance.pockets._counters],
            ),
            "link": link and (link.port, link.usb_id, link.lost_after),
            "state_dir": str(app.storage.state_dir),
            "roster": app.desk.roster(),  # the names the setup screen offers
            "log_level": logging.getLogger("scoreboard").level,
            "bridge": appliance.bridge is not None,  # the local socket for `scoreboard net`
            "net": address(config),
        }
    finally:
        appliance.close()
        factory.close()


@pytest.mark.parametrize("key", sorted(CHANGES))
def test_every_key_changes_what_the_appliance_does(key, tmp_path):
    section, name = key.rsplit(".", 1)
    value = CHANGES[key] if CHANGES[key] is not None else f'"{tmp_path / "elsewhere"}"'
    header = "[[display.screen]]" if section == "display.screen" else f"[{section}]"
    base = "[[display.screen]]\n" + SCREEN_FOR.get(name, "") if section == "display.screen" else ""
    if key in NEEDS_GPIO_SENSORS:
        base += '[sensors]\nsource = "gpio"\n'
    base = base or "[match]\n"
    before = built(base, tmp_path / "a")
    if section == "display.screen" or base.startswith(f"[{section}]"):
        changed = base + f"{name} = {value}\n"
    else:
        changed = base + f"{header}\n{name} = {value}\n"
    after = built(changed, tmp_path / "b")
    differ = [part for part in before if part != "state_dir" and before[part] != after[part]]
    if key == "service.state_dir":
        differ = [after["state_dir"]] if after["state_dir"].endswith("elsewhere") else []
    assert differ, f"{key} = {value} changed nothing"
