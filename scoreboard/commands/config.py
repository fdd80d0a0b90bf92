"""`scoreboard config check [PATH]`: check a config file without starting, and summarise it."""

from scoreboard.commands import UsageError
from scoreboard.config import DEFAULT_PATH, Config, ConfigError, load
from scoreboard.display.drivers import size


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "config", help="check the config file", description="Work with the config file."
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser(
        "check",
        help="check a config file and print a summary",
        description="Check a config file as `scoreboard run` would, without starting. "
        "Prints OK and a summary, or the problem (exit status 2).",
    )
    check.add_argument(
        "path", nargs="?", default=str(DEFAULT_PATH), metavar="PATH", help=f"default {DEFAULT_PATH}"
    )
    check.set_defaults(run=run_check)


def run_check(args) -> int:
    try:
        config = load(args.path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    print("OK")
    for line in summary(config):
        print(f"  {line}")
    return 0


def summary(config: Config) -> list[str]:
    """A few lines a person can compare with what the appliance shows."""
    m, p, s = config.match, config.pins, config.sensors
    sensors = {
        "board": f"sensor board on {s.port or f'USB {s.usb_vid:04x}:{s.usb_pid:04x}'}",
        "gpio": "pocket sensors on GPIO " + ", ".join(str(pin) for pin in p.pockets),
        "none": "no pocket sensors (pots entered by hand)",
    }[s.source]
    return [
        f"match: {m.player_a} v {m.player_b}, race to {m.race}, {m.target} points a frame",
        f"jumped balls: {config.rules.jumped_ball}, penalty: {config.rules.penalty}",
        f"screens ({config.display.language}): "
        + "; ".join(_screen(screen) for screen in config.display.screens),
        f"buttons: A GPIO {p.player_a}, B GPIO {p.player_b}, FOUL GPIO {p.foul}, "
        f"UNDO GPIO {p.undo}" + (f"; beeper GPIO {p.beeper}" if p.beeper >= 0 else "; no beeper"),
        _shot_clock(config.shot_clock),
        sensors,
        f"state: {config.service.state_dir}",
    ]


def _screen(screen) -> str:
    if screen.driver.startswith("emulator") or screen.driver == "dummy":
        width, height = size(screen.driver, emulates=screen.emulates)
        return f"{screen.driver} of a {screen.emulates}, {width}x{height}"
    if screen.interface == "i2c":
        return f"{screen.driver} on I2C {screen.port} at 0x{screen.address:02X}"
    return f"{screen.driver} on SPI{screen.port}.{screen.spi_device}"


def _shot_clock(s) -> str:
    if not s.seconds:
        return "shot clock: off"
    extension = f"extension {s.extension:g} s" if s.extension else "no extension"
    return f"shot clock: {s.seconds:g} s a shot, warning at {s.warning:g} s, {extension}"
