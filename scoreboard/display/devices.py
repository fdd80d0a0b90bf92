"""Display specs (plain dicts from the config) → luma devices, through luma's own factory.

Every real or emulated device is built by `luma.core.cmdline.create_device`, the same
code path luma's examples use, so the simulator shows exactly what the hardware shows.
A spec is a dict; the keys each driver reads:

    {"driver": "ssd1306" | "sh1106", "interface": "i2c", "port": 1, "address": 0x3C}
    {"driver": "ssd1322", "interface": "spi", "port": 0, "device": 0, "gpio_dc": 24, "gpio_rst": 25,
     "spi_speed_hz": 8_000_000}
    {"driver": "max7219", "cascaded": 4, "block_orientation": -90, "reverse": False}
        (or "width": 32, "height": 16 for two rows of modules)
    {"driver": "max7219-7seg"}                  eight seven-segment digits on one MAX7219
    {"driver": "emulator-terminal" | "emulator-pygame", "emulates": "ssd1306"}
    {"driver": "emulator-capture", "emulates": "ssd1322", "path": "shots/{0:06}.png"}
    {"driver": "emulator-gif", "path": "match.gif"}
    {"driver": "dummy", "emulates": "ssd1306"}   luma's dummy: keeps the last picture

"interface": "noop" on a hardware driver runs the real driver over no bus (tests and the
benchmark count the bytes it would send). "rotate" (0-3) applies to every driver;
"contrast" (0-255) to the OLEDs and the MAX7219.
"""

from luma.core import cmdline
from luma.core.device import dummy
from luma.core.interface.serial import noop

from scoreboard.display import drivers, oled
from scoreboard.display.drivers import EMULATORS
from scoreboard.display.render import PANELS, Panel

# OLEDs luma would send whole on every update: ours send only what changed (oled.py).
CHANGED_ONLY = {"ssd1306": oled.ssd1306, "sh1106": oled.sh1106}
DRIVERS = tuple(drivers.DRIVERS)
KEYS = {
    "driver",
    "interface",
    "port",
    "address",
    "device",
    "width",
    "height",
    "cascaded",
    "block_orientation",
    "reverse",
    "rotate",
    "emulates",
    "path",
    "scale",
    "name",
    "gpio_dc",
    "gpio_rst",
    "contrast",
    "spi_speed_hz",
}


class DisplayError(Exception):
    """A display spec that is wrong, or a display that could not be started."""


class CountingInterface:
    """Stands between a luma device and its bus, counting the bytes it pushes."""

    def __init__(self, interface):
        self._interface = interface
        self.sent = 0

    def command(self, *cmd):
        self.sent += len(cmd)
        self._interface.command(*cmd)

    def data(self, data):
        self.sent += len(data)
        self._interface.data(data)

    def __getattr__(self, attr):
        return getattr(self._interface, attr)


def panel_for(spec: dict) -> Panel:
    """The picture a spec's device needs: its size, mode, and whether it is a matrix."""
    driver = spec["driver"]
    if driver == "max7219-7seg":
        return Panel(8 * spec.get("cascaded", 1), 8, "1", matrix=True)
    if driver == "max7219":
        width = 8 * spec["cascaded"] if "cascaded" in spec else spec.get("width", 32)
        return Panel(width, 8 if "cascaded" in spec else spec.get("height", 8), "1", matrix=True)
    if driver in PANELS:
        return PANELS[driver]
    emulates = spec.get("emulates", "ssd1306")
    if emulates not in PANELS:
        raise DisplayError(f"'emulates' must be one of {', '.join(PANELS)}, not {emulates!r}")
    p = PANELS[emulates]
    # Emulators take RGB pictures; a mono panel is emulated in RGB with the same pixels.
    mode = p.mode if driver == "dummy" else "RGB"
    return Panel(spec.get("width", p.width), spec.get("height", p.height), mode, p.matrix)


def check(spec: dict) -> None:
    """Strict spec: unknown keys or drivers stop with the key and the reason."""
    if not isinstance(spec, dict) or "driver" not in spec:
        raise DisplayError(f"a display spec needs a 'driver' (one of {', '.join(DRIVERS)})")
    if spec["driver"] not in DRIVERS:
        raise DisplayError(
            f"unknown display driver {spec['driver']!r}; one of {', '.join(DRIVERS)}"
        )
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise DisplayError(f"unknown display key(s) {', '.join(unknown)} in {spec!r}")


def describe(spec: dict) -> str:
    """How a person finds the display: 'ssd1306 on i2c port 1 address 0x3C'."""
    if "name" in spec:
        return str(spec["name"])
    driver = spec["driver"]
    interface = spec.get("interface", _default_interface(driver))
    where = ""
    if interface == "i2c":
        where = f" on i2c port {spec.get('port', 1)} address {_hex(spec.get('address', 0x3C))}"
    elif interface == "spi":
        where = f" on spi port {spec.get('port', 0)} device {spec.get('device', 0)}"
    return driver + where


def create(spec: dict):
    """(device, counting interface or None, panel) for a spec; raises whatever the
    hardware raises when it is missing (the caller reports it)."""
    check(spec)
    driver = spec["driver"]
    p = panel_for(spec)
    if driver == "dummy":
        return (
            dummy(width=p.width, height=p.height, mode=p.mode, rotate=spec.get("rotate", 0)),
            None,
            p,
        )
    args = _luma_args(spec, p)
    try:
        if driver in CHANGED_ONLY:
            # What luma's create_device does for an OLED, with our class: the same options,
            # the bus made by luma's own make_interface.
            serial = getattr(cmdline.make_interface(args), args.interface)()
            device = CHANGED_ONLY[driver](serial, **vars(args))
        else:
            device = cmdline.create_device(args)
    except ImportError as exc:
        raise DisplayError(_missing_backend(exc, spec)) from exc
    if device is None:
        raise DisplayError(f"luma has no device {args.display!r} (is luma.emulator installed?)")
    if "contrast" in spec and hasattr(device, "contrast"):
        device.contrast(int(spec["contrast"]))
    counter = None
    if hasattr(device, "_serial_interface") and not driver.startswith("emulator"):
        counter = CountingInterface(device._serial_interface)
        device._serial_interface = counter
    return device, counter, p


def _luma_args(spec: dict, p: Panel):
    driver = spec["driver"]
    display = EMULATORS.get(driver, "max7219" if driver.startswith("max7219") else driver)
    interface = spec.get("interface", _default_interface(driver))
    argv = [
        "--display",
        display,
        "--interface",
        interface,
        "--width",
        str(p.width),
        "--height",
        str(p.height),
        "--rotate",
        str(spec.get("rotate", 0)),
    ]
    if interface == "i2c":
        argv += [
            "--i2c-port",
            str(spec.get("port", 1)),
            "--i2c-address",
            _hex(spec.get("address", 0x3C)),
        ]
    elif interface == "spi":
        argv += ["--spi-port", str(spec.get("port", 0)), "--spi-device", str(spec.get("device", 0))]
        if "spi_speed_hz" in spec:  # luma's default is 8 MHz
            argv += ["--spi-bus-speed", str(spec["spi_speed_hz"])]
        # An SPI OLED's data/command and reset lines (luma's defaults are BCM 24 and 25).
        if "gpio_dc" in spec:
            argv += ["--gpio-data-command", str(spec["gpio_dc"])]
        if "gpio_rst" in spec:
            argv += ["--gpio-reset", str(spec["gpio_rst"])]
    if driver.startswith("max7219"):
        argv += ["--block-orientation", str(spec.get("block_orientation", 0))]
    if driver == "ssd1322":
        argv += ["--mode", "RGB"]
    if driver in EMULATORS:
        argv += ["--mode", p.mode, "--transform", "none", "--scale", str(spec.get("scale", 4))]
    args = cmdline.create_parser(description="scoreboard display", autocomplete=False).parse_args(
        argv
    )
    # Keys luma's parser has no option for, passed through to the device's constructor.
    if driver == "max7219-7seg":
        args.cascaded = spec.get("cascaded", 1)
    if driver == "max7219":
        args.blocks_arranged_in_reverse_order = bool(spec.get("reverse", False))
    if driver == "emulator-capture":
        args.file_template = spec.get("path", "scoreboard_{0:06}.png")
    if driver == "emulator-gif":
        args.filename = spec.get("path", "scoreboard.gif")
    return args


# What luma imports for an SPI display, and the package a Pi needs for it (the `pi` extra,
# which systemd/install.sh installs): spidev for the bus; for an SPI OLED's data/command and
# reset lines, luma's RPi.GPIO interface, which rpi-lgpio provides over lgpio on Bookworm.
BACKENDS = {
    "spidev": ("spidev", "spidev"),
    "RPi": ("RPi.GPIO", "rpi-lgpio"),
    "lgpio": ("lgpio", "lgpio (on Raspberry Pi OS: sudo apt install python3-lgpio)"),
}


def _missing_backend(exc: ImportError, spec: dict) -> str:
    """Which package to install, for a display whose bus library is not there."""
    backend = BACKENDS.get((exc.name or "").partition(".")[0])
    if backend is None:
        return f"{describe(spec)} needs a Python module that is not installed ({exc})"
    module, package = backend
    return (
        f"{describe(spec)} needs the {module} module, which is not installed: install the "
        f"package {package}; sudo systemd/install.sh installs it with the scoreboard's "
        "[pi] extra"
    )


def _default_interface(driver: str) -> str:
    if driver in ("ssd1306", "sh1106"):
        return "i2c"
    if driver in ("ssd1322", "max7219", "max7219-7seg"):
        return "spi"
    return "noop"


def _hex(address) -> str:
    return hex(int(str(address), 0)) if isinstance(address, str) else hex(address)


def noop_interface():
    """luma's do-nothing bus, for a real driver run without hardware."""
    return noop()
