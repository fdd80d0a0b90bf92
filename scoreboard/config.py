"""Strict TOML configuration: every key read and checked at start, into frozen dataclasses.

Anything wrong (an unknown section or key, a wrong type, a value out of range, a key that the
chosen display driver does not use, a pin used twice or reserved) raises `ConfigError`, whose
message names the file, the line where it can be found, the key and the reason. Each key and
its default is documented in ``config.example.toml`` next to this module.
"""

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from scoreboard.core.settings import NAME_LETTERS
from scoreboard.display import drivers as display_drivers
from scoreboard.rules.setup import hidden_characters

DEFAULT_PATH = Path("/etc/scoreboard/scoreboard.toml")
EXAMPLE_PATH = Path(__file__).with_name("config.example.toml")


class ConfigError(Exception):
    """The config cannot be used; the message says where and why."""

    def __init__(self, reason: str, *, path=None, line: int | None = None, key: str | None = None):
        self.reason, self.path, self.line, self.key = reason, path, line, key
        where = ":".join(str(p) for p in (path, line) if p is not None)
        super().__init__(": ".join(p for p in (where, key, reason) if p))

    @classmethod
    def every(cls, errors: list["ConfigError"]) -> "ConfigError":
        """One error for all `errors`, in line order: the first's words, then the others,
        each on a line of its own (`config check` shows them all at once)."""
        errors = sorted(errors, key=lambda e: (e.line is None, e.line or 0))
        if len(errors) == 1:
            return errors[0]
        first = errors[0]
        combined = cls(first.reason, path=first.path, line=first.line, key=first.key)
        combined.args = ("\n".join(str(e) for e in errors),)
        return combined


def _opt(default, *, limits=None, choices=None, length=None, count=None, hex=False, name=False):
    """A config key with its default and what values it accepts."""
    meta = {"limits": limits, "choices": choices, "length": length, "count": count, "hex": hex}
    meta["name"] = name  # a player's name: shown on the displays and written in the match log
    return field(default=default, metadata=meta)


# The names a match starts with when the config gives none, in the display's language.
DEFAULT_NAMES = {
    "uk": ("Гравець 1", "Гравець 2"),
    "ru": ("Игрок 1", "Игрок 2"),
    "en": ("Player 1", "Player 2"),
}


@dataclass(frozen=True)
class MatchConfig:
    player_a: str = _opt("Гравець 1", length=(1, NAME_LETTERS), name=True)
    player_b: str = _opt("Гравець 2", length=(1, NAME_LETTERS), name=True)
    race: int = _opt(1, limits=(1, 99))
    target: int = _opt(8, limits=(1, 8))
    # The club's players, offered first by the setup screen (scoreboard/table/setup/).
    roster: tuple[str, ...] = _opt((), length=(1, NAME_LETTERS), name=True)


@dataclass(frozen=True)
class RulesConfig:
    jumped_ball: str = _opt("foul", choices=("foul", "spot"))  # D-4
    penalty: str = _opt("ball", choices=("ball", "american"))  # FP-6/FP-7, or CV-1


# Which wiring each display driver can use; an empty tuple means it needs none (emulators).
DRIVERS = {name: driver.wiring for name, driver in display_drivers.DRIVERS.items()}
# The SPI clocks luma's spi interface accepts (Hz). The MAX7219 starts at 1 MHz: its
# frame is 64 bytes, and a slow clock forgives the level shifter and a long ribbon cable.
SPI_SPEEDS = tuple(int(mhz * 1_000_000) for mhz in (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32))


@dataclass(frozen=True)
class ScreenConfig:
    driver: str = _opt("ssd1306", choices=tuple(DRIVERS))
    interface: str = _opt("i2c", choices=("i2c", "spi"))
    port: int = _opt(1, limits=(0, 99))
    address: int = _opt(0x3C, limits=(0x03, 0x77), hex=True)
    spi_device: int = _opt(0, limits=(0, 2))
    spi_speed_hz: int = _opt(8_000_000, choices=SPI_SPEEDS)
    gpio_dc: int = _opt(24, limits=(0, 27))
    gpio_rst: int = _opt(25, limits=(0, 27))
    rotate: int = _opt(0, limits=(0, 3))
    cascaded: int = _opt(1, limits=(1, 16))
    block_orientation: int = _opt(0, choices=(0, 90, -90, 180))
    contrast: int = _opt(0xCF, limits=(0, 255), hex=True)
    emulates: str = _opt("ssd1306", choices=display_drivers.PANELS)


# Keys each kind of driver uses besides `driver` and `rotate`; any other key is a mistake.
_OLED_KEYS = {"interface", "port", "contrast"}
_WIRING_KEYS = {"i2c": {"address"}, "spi": {"spi_device", "spi_speed_hz", "gpio_dc", "gpio_rst"}}
_MATRIX_KEYS = {
    "interface",
    "port",
    "spi_device",
    "spi_speed_hz",
    "cascaded",
    "block_orientation",
    "contrast",
}
_EMULATOR_KEYS = {"emulates"}
_SCREEN_KEYS = {f.name for f in fields(ScreenConfig)}


@dataclass(frozen=True)
class DisplayConfig:
    language: str = _opt("uk", choices=("uk", "ru", "en"))
    # OLED burn-in (scoreboard/table/screen_saver.py): seconds without input before the OLEDs dim,
    # and before the moving screen saver; 0 = never.
    dim_after: float = _opt(300.0, limits=(0.0, 86400.0))
    saver_after: float = _opt(900.0, limits=(0.0, 86400.0))
    dim_contrast: int = _opt(0x10, limits=(0, 255), hex=True)
    # Between frames and at match end: seconds each page (result, frames, statistics, fouls)
    # stays before the next; 0 = only FOUL turns them (scoreboard/table/stats_pages.py).
    page_seconds: float = _opt(8.0, limits=(0.0, 600.0))
    screens: tuple[ScreenConfig, ...] = (ScreenConfig(),)  # [[display.screen]] in the file


@dataclass(frozen=True)
class PinsConfig:
    player_a: int = _opt(5, limits=(0, 27))
    player_b: int = _opt(6, limits=(0, 27))
    foul: int = _opt(13, limits=(0, 27))
    undo: int = _opt(19, limits=(0, 27))
    pockets: tuple[int, ...] = _opt((17, 27, 22, 23, 16, 26), limits=(0, 27), count=6)
    beeper: int = _opt(-1, limits=(-1, 27))  # a piezo where one is fitted (12); -1: none


@dataclass(frozen=True)
class SensorsConfig:
    source: str = _opt("board", choices=("board", "gpio", "none"))
    port: str = _opt("", length=(0, 200))
    usb_vid: int = _opt(0x2E8A, limits=(0, 0xFFFF), hex=True)
    usb_pid: int = _opt(0x0005, limits=(0, 0xFFFF), hex=True)
    heartbeat_timeout: float = _opt(5.0, limits=(0.5, 60.0))


@dataclass(frozen=True)
class TimingsConfig:
    hold_time: float = _opt(1.0, limits=(0.3, 10.0))
    undo_hold_time: float = _opt(3.0, limits=(0.3, 30.0))
    shot_pause: float = _opt(5.0, limits=(0.5, 60.0))
    miss_ball_window: float = _opt(3.0, limits=(0.0, 5.0))  # GR-15.1, docs/decisions.md
    foul_kind_window: float = _opt(4.0, limits=(0.5, 60.0))
    penalty_ball_window: float = _opt(8.0, limits=(0.0, 60.0))  # FP-7, docs/decisions.md
    confirm_result: float = _opt(180.0, limits=(10.0, 3600.0))  # issue 34: then not confirmed
    button_debounce: float = _opt(0.02, limits=(0.0, 0.25))
    beam_min: float = _opt(0.005, limits=(0.0005, 0.5))
    beam_stuck: float = _opt(2.0, limits=(0.1, 60.0))


@dataclass(frozen=True)
class ShotClockConfig:
    # An advisory shot clock (scoreboard/table/shot_clock.py, docs/decisions.md); 0 = off.
    seconds: float = _opt(0.0, limits=(0.0, 600.0))
    warning: float = _opt(10.0, limits=(0.0, 600.0))  # seconds left when it beeps
    extension: float = _opt(30.0, limits=(0.0, 600.0))  # once a frame per player; 0 = none


@dataclass(frozen=True)
class ServiceConfig:
    state_dir: str = _opt("/var/lib/scoreboard", length=(1, 200))
    log_level: str = _opt("info", choices=("debug", "info", "warning", "error"))


@dataclass(frozen=True)
class WebConfig:
    # The table's web face (issue 12): `scoreboard net`, its own process, serves it on `port`;
    # the table then serves its local socket (scoreboard/bridge/) for it.
    enabled: bool = _opt(False)
    port: int = _opt(8080, limits=(1, 65535))


@dataclass(frozen=True)
class MqttConfig:
    # The tables together (issue 12): `scoreboard net` publishes this table under
    # fp/v1/<table>/ on the club's broker (scoreboard/mqtt/, docs/API.md "MQTT").
    enabled: bool = _opt(False)
    host: str = _opt("localhost", length=(1, 253))
    port: int = _opt(1883, limits=(1, 65535))
    table: str = _opt("table1", length=(1, 32))
    name: str = _opt("", length=(0, 40))
    keepalive: int = _opt(30, limits=(1, 3600))
    username: str = _opt("", length=(0, 100))
    password: str = _opt("", length=(0, 200))
    tls_ca: str = _opt("", length=(0, 200))
    tls_cert: str = _opt("", length=(0, 200))
    tls_key: str = _opt("", length=(0, 200))


@dataclass(frozen=True)
class WifiConfig:
    # The table's Wi-Fi on a card image (issue 23): scoreboard-wifi.service writes it for
    # wpa_supplicant at boot (scoreboard/wifi.py). An empty ssid: no Wi-Fi (a wire, or none).
    ssid: str = _opt("", length=(0, 32))
    password: str = _opt("", length=(0, 63))  # empty: an open network; else 8 to 63
    country: str = _opt("UA", length=(2, 2))  # the radio rules of the country (ISO 3166)


@dataclass(frozen=True)
class Config:
    match: MatchConfig = MatchConfig()
    rules: RulesConfig = RulesConfig()
    display: DisplayConfig = DisplayConfig()
    pins: PinsConfig = PinsConfig()
    sensors: SensorsConfig = SensorsConfig()
    timings: TimingsConfig = TimingsConfig()
    shot_clock: ShotClockConfig = ShotClockConfig()
    service: ServiceConfig = ServiceConfig()
    web: WebConfig = WebConfig()
    mqtt: MqttConfig = MqttConfig()
    wifi: WifiConfig = WifiConfig()


SECTIONS = {f.name: f.type for f in fields(Config)}

# Pins the header gives to buses; a button or sensor there would fight the bus.
RESERVED_PINS = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I2C (SDA)",
    3: "I2C (SCL)",
    14: "the UART (TXD)",
    15: "the UART (RXD)",
}
SPI_PINS = {
    0: {7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"},
    1: {
        16: "SPI1 CE2",
        17: "SPI1 CE1",
        18: "SPI1 CE0",
        19: "SPI1 MISO",
        20: "SPI1 MOSI",
        21: "SPI1 SCLK",
    },
}


def default() -> Config:
    """The configuration used when the file sets nothing."""
    return Config()


def load(path: str | Path = DEFAULT_PATH) -> Config:
    """Read and check the config file at ``path``."""
    try:
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind):  # a FIFO would block the reader until someone writes
            what = _FILE_KINDS.get(stat.S_IFMT(kind), "not a regular file")
            raise ConfigError(f"{what}, not a config file", path=path)
        text = Path(path).read_bytes().decode("utf-8-sig")  # a BOM some editors write is fine
    except OSError as exc:
        raise ConfigError(f"cannot read the config: {exc.strerror}", path=path) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text ({exc.reason})", path=path) from None
    if not text.strip():
        reason = "the file is empty (to run on the defaults, copy config.example.toml there)"
        raise ConfigError(reason, path=path)
    return loads(text, path=path)


def display_of(path: str | Path) -> "DisplayConfig":
    """The [display] part of a config that `load` refuses, so that the table can still show
    the mistake on its displays: the file's own if that part is right (and its screens share
    no bus), else the default's (a mistake in the TOML itself, in [display], or no file)."""
    try:
        text = Path(path).read_bytes().decode("utf-8-sig")
        table = tomllib.loads(text).get("display", {})
        if not isinstance(table, dict):
            return DisplayConfig()
        reader = _Reader(text, path)
        table = dict(table)
        screens = reader.screens(table.pop("screen", None))
        reader.check_buses(screens)
        display = reader.section(DisplayConfig, table, "display", gather=True)
        return DisplayConfig() if reader.mistakes else replace(display, screens=screens)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError, ConfigError):
        return DisplayConfig()


_FILE_KINDS = {
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFDIR: "a directory",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
}


def loads(text: str, *, path: str | Path = "<config>") -> Config:
    """Check config text; ``path`` only names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"at line (\d+)", str(exc))
        raise ConfigError(
            f"not valid TOML: {exc}", path=path, line=int(line.group(1)) if line else None
        ) from None
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise ConfigError("not valid TOML: arrays or tables nested too deeply", path=path) from None
    return _Reader(text, path).config(data)


_WRONG = object()  # a key's value that is a mistake


class _Reader:
    """Turns parsed TOML into a `Config`, pointing every complaint at its line."""

    def __init__(self, text: str, path):
        self.lines = text.splitlines()
        self.path = path
        self.mistakes: list[ConfigError] = []  # each key's, gathered: all said at once

    def fail(self, reason: str, table: str, key: str | None = None, index: int | None = None):
        raise self.error(reason, table, key, index)

    def error(self, reason: str, table: str, key: str | None = None, index: int | None = None):
        name = table + (f"[{index + 1}]" if index is not None else "")
        name = ".".join(p for p in (name, key) if p)
        line = self.line_of(table, index, key)
        return ConfigError(reason, path=self.path, line=line, key=name)

    def gathered(self, read, otherwise):
        """`read()`, or `otherwise` with its mistake kept for the end."""
        try:
            return read()
        except ConfigError as exc:
            self.mistakes.append(exc)
            return otherwise

    def config(self, data: dict) -> Config:
        for name, value in data.items():
            if name not in SECTIONS:
                self.mistakes.append(
                    self.error(f"unknown section (known: {', '.join(SECTIONS)})", name)
                )
            elif not isinstance(value, dict):
                self.mistakes.append(self.error("must be a table, like [" + name + "]", name))
        sections = {}
        for name, cls in SECTIONS.items():
            table = data.get(name, {})
            table = dict(table) if isinstance(table, dict) else {}
            if name == "display":
                raw = table.pop("screen", None)
                screens = self.gathered(lambda raw=raw: self.screens(raw), DisplayConfig().screens)
                sections[name] = replace(
                    self.section(cls, table, name, gather=True), screens=screens
                )
            else:
                sections[name] = self.section(cls, table, name, gather=True)
        if self.mistakes:  # every key's mistake, in the file's order; the checks across keys
            raise ConfigError.every(self.mistakes)  # need every key right first
        given = data.get("match", {})
        default_a, default_b = DEFAULT_NAMES[sections["display"].language]
        sections["match"] = replace(
            sections["match"],
            player_a=given.get("player_a", default_a),
            player_b=given.get("player_b", default_b),
        )
        config = Config(**sections)
        if config.match.player_a.strip().casefold() == config.match.player_b.strip().casefold():
            self.fail("must differ from match.player_a", "match", "player_b")
        self.check_buses(config.display.screens)
        self.check_timings(config.timings)
        self.check_shot_clock(config.shot_clock)
        self.check_pins(config)
        self.check_mqtt(config.mqtt)
        self.check_wifi(config.wifi)
        return config

    def section(self, cls, table: dict, name: str, index=None, skip=(), *, gather=False):
        """The section's values; with `gather`, a key's mistake is kept for the end and its
        default taken meanwhile, else raised at once."""
        known = {f.name: f for f in fields(cls) if f.metadata and f.name not in skip}
        for key in table:
            if key not in known:
                mistake = self.error(f"unknown key (known: {', '.join(known)})", name, key, index)
                if not gather:
                    raise mistake
                self.mistakes.append(mistake)
        values = {}
        for key in (key for key in known if key in table):
            if not gather:
                values[key] = self.value(known[key], table[key], name, key, index)
                continue
            value = self.gathered(
                lambda key=key: self.value(known[key], table[key], name, key, index), _WRONG
            )
            if value is not _WRONG:  # else its default, until the mistakes are said
                values[key] = value
        return cls(**values)

    def value(self, f, value, table: str, key: str, index: int | None):
        meta = f.metadata
        if f.type == tuple[str, ...]:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                self.fail(f"must be a list of strings, got {value!r}", table, key, index)
            seen = set()
            for v in value:
                self.check_value(meta, v, table, key, index)
                if " ".join(v.split()).casefold() in seen:  # the table could not tell who is who
                    self.fail(f"{v!r} is listed twice", table, key, index)
                seen.add(" ".join(v.split()).casefold())
            return tuple(value)
        if f.type == tuple[int, ...]:
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                self.fail(f"must be a list of whole numbers, got {value!r}", table, key, index)
            if meta["count"] and len(value) != meta["count"]:
                self.fail(f"must list {meta['count']}, got {len(value)}", table, key, index)
            for v in value:
                self.check_value(meta, v, table, key, index)
            return tuple(value)
        if f.type is float and (_is_int(value) or isinstance(value, float)):
            value = float(value)
        elif (f.type is int and not _is_int(value)) or not isinstance(value, f.type):
            wanted = {
                int: "a whole number",
                float: "a number",
                str: "a string",
                bool: "true or false",
            }
            wanted = wanted[f.type]
            self.fail(f"must be {wanted}, got {value!r}", table, key, index)
        self.check_value(meta, value, table, key, index)
        return value

    def check_value(self, meta, value, table, key, index) -> None:
        show = (lambda v: f"0x{v:02X}") if meta["hex"] else repr
        if meta["choices"] and value not in meta["choices"]:
            allowed = ", ".join(repr(c) for c in meta["choices"])
            self.fail(f"must be one of {allowed}; got {value!r}", table, key, index)
        if meta["limits"]:
            low, high = meta["limits"]
            if not low <= value <= high:
                reason = f"must be {show(low)} to {show(high)}, got {show(value)}"
                self.fail(reason, table, key, index)
        if meta["length"]:
            low, high = meta["length"]
            if not low <= len(value) <= high:
                self.fail(f"must be {low} to {high} characters long", table, key, index)
            # DEL and the C1 codes too (the journal refuses them, a terminal obeys them), and
            # format characters: a right-to-left override would show the text reversed.
            if hidden_characters(value):
                self.fail("must not hold control or format characters", table, key, index)
        if meta.get("name") and (not value.strip() or "#" in value or "=" in value):
            # The match log starts a comment at '#'; '=' would read as a shot's field.
            self.fail("must have a letter or digit, and no '#' or '='", table, key, index)

    def screens(self, raw) -> tuple[ScreenConfig, ...]:
        if raw is None:
            return DisplayConfig().screens
        if not isinstance(raw, list) or not raw or not all(isinstance(s, dict) for s in raw):
            self.fail("must be one or more [[display.screen]] tables", "display", "screen")
        return tuple(self.screen(table, i) for i, table in enumerate(raw))

    def screen(self, table: dict, index: int) -> ScreenConfig:
        name = "display.screen"
        driver = table.get("driver", ScreenConfig.driver)
        driver = self.section(ScreenConfig, {"driver": driver}, name, index).driver
        wirings = DRIVERS[driver]
        interface = "i2c"
        if wirings:
            wiring = {"interface": table.get("interface", wirings[0])}
            interface = self.section(ScreenConfig, wiring, name, index).interface
            if interface not in wirings:
                reason = f"a {driver} display connects by {' or '.join(wirings)}"
                self.fail(reason, name, "interface", index)
        allowed = {"driver", "rotate"} | _driver_keys(driver, interface)
        for key in table:
            if key in _SCREEN_KEYS and key not in allowed:
                on = f" on {interface}" if wirings else ""
                self.fail(f"not used by a {driver} display{on}", name, key, index)
        facts = display_drivers.DRIVERS[driver]
        defaults = {
            "interface": interface,
            "port": 1 if interface == "i2c" else 0,
            "contrast": facts.contrast if facts.contrast is not None else 0xCF,
            "spi_speed_hz": facts.spi_speed_hz,
        }
        screen = self.section(ScreenConfig, {**defaults, **table}, name, index)
        if wirings and interface == "spi":
            if screen.port not in SPI_PINS:
                self.fail("must be 0 (SPI0) or 1 (SPI1) for an SPI display", name, "port", index)
            selects = len(_chip_selects(screen.port))
            if screen.spi_device >= selects:
                reason = f"SPI{screen.port} has chip selects 0 to {selects - 1}"
                self.fail(reason, name, "spi_device", index)
        return screen

    def check_buses(self, screens: tuple[ScreenConfig, ...]) -> None:
        """Refuse two screens on the same I2C address or the same SPI chip select."""
        seen = {}
        for index, s in enumerate(screens):
            if not DRIVERS[s.driver]:
                continue
            if s.interface == "i2c":
                spot, key = (s.interface, s.port, s.address), "address"
                what = f"I2C port {s.port} address 0x{s.address:02X}"
            else:
                spot, key = (s.interface, s.port, s.spi_device), "spi_device"
                what = f"SPI{s.port} chip select {s.spi_device}"
            if spot in seen:
                reason = f"{what} is already used by display.screen[{seen[spot] + 1}]"
                self.fail(reason, "display.screen", key, index)
            seen[spot] = index

    def check_shot_clock(self, s: ShotClockConfig) -> None:
        if 0 < s.seconds < 5:
            self.fail("must be 0 (no shot clock) or 5 seconds or more", "shot_clock", "seconds")
        if s.seconds and s.warning >= s.seconds:
            self.fail("must be less than shot_clock.seconds", "shot_clock", "warning")

    def check_timings(self, t: TimingsConfig) -> None:
        if t.beam_min >= t.beam_stuck:
            self.fail("must be shorter than timings.beam_stuck", "timings", "beam_min")
        if t.beam_stuck >= t.shot_pause:
            # A stuck beam takes back its ball from the shot, which must still be open.
            self.fail("must be shorter than timings.shot_pause", "timings", "beam_stuck")

    def check_mqtt(self, m: MqttConfig) -> None:
        if not _TOPIC_LEVEL.match(m.table):
            self.fail("must be letters, digits, '-' or '_' (it is a topic level)", "mqtt", "table")
        if m.table in RESERVED_TABLE_IDS:
            self.fail(
                f"{m.table!r} is the broker user of the club or Home Assistant, never a "
                "table's (docs/mosquitto/scoreboard.acl)",
                "mqtt",
                "table",
            )
        if m.password and not m.username:
            self.fail("needs mqtt.username", "mqtt", "password")
        if bool(m.tls_cert) != bool(m.tls_key):
            key = "tls_key" if m.tls_cert else "tls_cert"
            self.fail("a client certificate needs both tls_cert and tls_key", "mqtt", key)
        if m.tls_cert and not m.tls_ca:
            self.fail(
                "a client certificate needs mqtt.tls_ca (TLS to the broker)", "mqtt", "tls_cert"
            )
        for key in ("tls_ca", "tls_cert", "tls_key"):
            path = getattr(m, key)
            if path and not os.path.isfile(path):
                self.fail(f"no such file: {path}", "mqtt", key)

    def check_wifi(self, w: WifiConfig) -> None:
        if w.password and not 8 <= len(w.password) <= 63:
            self.fail(
                "must be 8 to 63 characters (WPA2), or empty for an open network",
                "wifi",
                "password",
            )
        if w.password and not w.password.isprintable():
            self.fail("must be printable characters", "wifi", "password")
        if not (w.country.isascii() and w.country.isalpha() and w.country.isupper()):
            self.fail(
                'must be two capital letters, the country\'s code (like "UA")', "wifi", "country"
            )
        if w.password and not w.ssid:
            self.fail("a password needs wifi.ssid, the network's name", "wifi", "password")

    def check_pins(self, config: Config) -> None:
        """Refuse a pin that two things claim, or one that belongs to a bus."""
        owners = {pin: (what, None) for pin, what in RESERVED_PINS.items()}
        claims = []  # (pin, table, key, index) in the order a person reads the file
        for i, s in enumerate(config.display.screens):
            if DRIVERS[s.driver] and s.interface == "spi":
                for pin, what in SPI_PINS[s.port].items():
                    owners.setdefault(pin, (what, f"display.screen[{i + 1}]"))
        for key in ("player_a", "player_b", "foul", "undo"):
            claims.append((getattr(config.pins, key), "pins", key, None))
        if config.pins.beeper >= 0:
            claims.append((config.pins.beeper, "pins", "beeper", None))
        if config.sensors.source == "gpio":  # otherwise the pocket pins are not wired
            claims += [(pin, "pins", "pockets", None) for pin in config.pins.pockets]
        for i, s in enumerate(config.display.screens):
            if s.interface == "spi" and not s.driver.startswith("max7219") and DRIVERS[s.driver]:
                claims += [(s.gpio_dc, "display.screen", "gpio_dc", i)]
                claims += [(s.gpio_rst, "display.screen", "gpio_rst", i)]
        for pin, table, key, index in claims:
            name = table + (f"[{index + 1}]" if index is not None else "") + "." + key
            if pin in owners:
                what, by = owners[pin]
                reason = f"GPIO {pin} is {what}" + (f", used by {by}" if by else "")
                self.fail(reason, table, key, index)
            owners[pin] = (f"already used by {name}", None)

    def line_of(self, table: str, index: int | None, key: str | None) -> int | None:
        """Best effort: the line of ``key`` inside ``[table]`` (the index-th ``[[table]]``)."""
        current, count, header = "", {}, None
        for number, text in enumerate(self.lines, 1):
            text = text.strip()
            if match := _HEADER.match(text):
                array, current = match.group(1), re.sub(r"[\s\"']", "", match.group(2))
                count[current] = count.get(current, -1) + 1 if array else 0
                inside = current == table and (index is None or count[current] == index)
                if inside and header is None:
                    header = number
                    if key is None:
                        return number
                continue
            inside = current == table and (index is None or count.get(current) == index)
            if inside and key and (match := _KEY.match(text)) and match.group(2) == key:
                return number
        if header is None and table:  # written inline in the parent table, or at the top
            parent, _, child = table.rpartition(".")
            return self.line_of(parent, None, child)
        return header


# Broker users that are not tables: the sample ACL denies them a table's topics.
RESERVED_TABLE_IDS = ("club", "homeassistant")
_TOPIC_LEVEL = re.compile(r"^[A-Za-z0-9_-]+$")
_HEADER = re.compile(r"^\[(\[?)\s*([^\[\]]+?)\s*\]\]?")
_KEY = re.compile(r"""^(["']?)([A-Za-z0-9_-]+)\1\s*=""")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _driver_keys(driver: str, interface: str) -> set[str]:
    if driver.startswith("max7219"):
        return _MATRIX_KEYS
    if DRIVERS[driver]:
        return _OLED_KEYS | _WIRING_KEYS[interface]
    return _EMULATOR_KEYS


def _chip_selects(port: int) -> list[int]:
    return [pin for pin, what in SPI_PINS[port].items() if " CE" in what]
