"""The wiring of a whole appliance from its config: pins, pocket sensors or the board, displays.

`scoreboard run` builds it on real pins; `scoreboard sim` on gpiozero's MockFactory pins
with a simulated sensor board behind a pseudo-terminal and emulated displays. Either
way the same App, loop, panel and journal run.
"""

import time
from dataclasses import dataclass

from scoreboard import bridge
from scoreboard import config as configuration
from scoreboard.bridge.table import BridgeCommand, BridgeError, TableBridge
from scoreboard.config import Config
from scoreboard.display import create_displays
from scoreboard.inputs.buttons import Buttons
from scoreboard.inputs.events import Button
from scoreboard.inputs.gpio_lines import LineEdge
from scoreboard.inputs.gpio_pockets import GpioPockets
from scoreboard.inputs.sensorboard import SensorBoardLink
from scoreboard.signing.table_key import TableKeyError
from scoreboard.signing.table_key import ensure as ensure_table_key
from scoreboard.store.storage import Storage
from scoreboard.table.app import LOGGER, App
from scoreboard.table.beeper import Beeper
from scoreboard.table.commands import CommandTable, add_table_commands
from scoreboard.table.phone_commands import add_phone_commands
from scoreboard.texts.words import Timings


@dataclass(frozen=True)
class Reload:
    """Read the config again (SIGHUP, `systemctl reload scoreboard`)."""

    path: str


def command_table() -> CommandTable:
    """What the local socket takes: the table's own commands and the phones'; each that
    changes the match in play waits, sent by a phone, for an OK press at the table."""
    table = CommandTable()
    add_table_commands(table)
    add_phone_commands(table)
    return table


def screen_specs(config: Config) -> list[dict]:
    """The config's [[display.screen]] tables as the display package's spec dicts."""
    specs = []
    for screen in config.display.screens:
        spec = {"driver": screen.driver, "rotate": screen.rotate}
        if screen.driver in ("ssd1306", "sh1106", "ssd1322"):
            spec.update(interface=screen.interface, port=screen.port, contrast=screen.contrast)
            if screen.interface == "i2c":
                spec["address"] = screen.address
            else:
                spec.update(
                    device=screen.spi_device,
                    spi_speed_hz=screen.spi_speed_hz,
                    gpio_dc=screen.gpio_dc,
                    gpio_rst=screen.gpio_rst,
                )
        elif screen.driver.startswith("max7219"):
            spec.update(port=screen.port, device=screen.spi_device, contrast=screen.contrast)
            spec["spi_speed_hz"] = screen.spi_speed_hz
            if screen.driver == "max7219":
                spec.update(cascaded=screen.cascaded, block_orientation=screen.block_orientation)
        else:
            spec["emulates"] = screen.emulates
        specs.append(spec)
    return specs


def panel_buttons(config: Config) -> dict[Button, tuple[int, float]]:
    """Each panel button's BCM pin and hold time, from the config."""
    pins, timings = config.pins, config.timings
    return {
        Button.A: (pins.player_a, timings.hold_time),
        Button.B: (pins.player_b, timings.hold_time),
        Button.FOUL: (pins.foul, timings.hold_time),
        Button.UNDO: (pins.undo, timings.undo_hold_time),
    }


class Appliance:
    """App plus its inputs; :meth:`run` blocks on the event loop until :meth:`stop`."""

    def __init__(
        self,
        config: Config,
        *,
        state_dir: str,
        screens: list | None = None,
        pin_factory=None,
        board_port: str | None = None,
        clock=time.monotonic,
        notifier=None,
        log=None,
    ) -> None:
        self.config = config
        # The state folder's lock first: a second `scoreboard run` stops here (JournalError)
        # before it touches the displays the first one drives.
        storage = Storage(state_dir, log=log or LOGGER.info, warn=log or LOGGER.warning)
        failed = []
        if screens is None:
            screens = create_displays(
                screen_specs(config),
                lang=config.display.language,
                timings=Timings.from_config(config.timings),
                on_error=lambda spec, why: failed.append(why),
            )
        self.app = App(
            config,
            state_dir=state_dir,
            screens=screens,
            clock=clock,
            notifier=notifier,
            log=log,
            storage=storage,
        )
        for why in failed:  # a missing display is reported; the others keep running
            self.app.warn(why)
        # The table's signing key (issue 34), made at its first start, kept in its state
        # folder for good; a disk that refuses it is said, and play goes on.
        try:
            ensure_table_key(state_dir)
        except TableKeyError as exc:
            self.app.warn(f"{exc}; the network process makes it when it can sign a result")
        self.loop = self.app.loop
        self._ticking = None
        pins, timings, sensors = config.pins, config.timings, config.sensors
        buttons = panel_buttons(config)
        self.buttons = Buttons(
            self.loop.put_input,
            pins={button: pin for button, (pin, _) in buttons.items()},
            hold_times={button: hold for button, (_, hold) in buttons.items()},
            bounce_time=timings.button_debounce,
            clock=clock,
            pin_factory=pin_factory,
        )
        self.pockets = None
        self.link = None
        if sensors.source == "gpio":
            self.pockets = GpioPockets(
                self.loop.put_input,
                pins=pins.pockets,
                min_ball_ms=timings.beam_min * 1000,
                stuck_ms=timings.beam_stuck * 1000,
                clock=clock,
                pin_factory=pin_factory,
            )
        elif sensors.source == "board":
            self.link = SensorBoardLink(
                self.loop.put_input,
                port=board_port or sensors.port or None,
                usb_id=(sensors.usb_vid, sensors.usb_pid),
                clock=clock,
                lost_after=sensors.heartbeat_timeout,
                # A read returns as soon as a byte arrives; the timeout only bounds how
                # late a silent board is noticed, so it can be long and cost no CPU.
                read_timeout=0.25,
                ack_when_durable=True,
            )
            # The app's pot ledger answers the board's hello and acks what is durable.
            self.app.ledger.connect(ack=self.link.acknowledge, sync=self.link.sync)
        self.beeper = None
        if pins.beeper >= 0:  # a piezo where one is fitted (hardware/README.md)
            try:
                self.beeper = Beeper(
                    pins.beeper, call_later=self.loop.call_later, pin_factory=pin_factory
                )
            except Exception as exc:  # a beeper that will not start must not stop the table
                self.app.warn(f"beeper on GPIO {pins.beeper} did not start: {exc}; none used")
            else:
                self.app.fit_beeper(self.beeper)
        self.app.on(LineEdge, self._take)
        # The local socket for `scoreboard net` and MQTT, only when the network is on.
        self.bridge = None
        if bridge.wanted(config):
            self.bridge = TableBridge(
                bridge.socket_path(state_dir),
                commands=command_table().bound(self.app.controls()),
                put=self.loop.put,
                show=self.app.show,
                log=self.app.log,
                warn=self.app.warn,
            )
            self.app.watch(self.bridge)
            self.app.on(BridgeCommand, self.bridge.run_command)
        self.app.on(Reload, self._reload)

    def reload(self, path: str) -> None:
        """From any thread (the SIGHUP handler): read the config at `path` again."""
        self.loop.put(Reload(str(path)))

    def _reload(self, event: "Reload") -> None:
        try:
            config = configuration.load(event.path)
        except configuration.ConfigError as exc:
            self.app.warn(f"config not reloaded, the running one stays: {exc}")
            self.app.set_hint("config-refused")
        else:
            self.app.reconfigure(config)
        self.app.show()

    def _take(self, edge: LineEdge) -> None:
        """On the loop: what an input edge means, then a tick whenever the counters are due."""
        for event in edge.lines.take(edge):
            self.app.handle(event)
        self._tick()

    def catch_up(self) -> None:
        """On the loop: decide now what time has decided (a release, a hold) and show it."""
        self._tick()
        self.app.show()

    def _tick(self) -> None:
        """Let the counters decide what time has decided, then sleep until they next can."""
        now = self.loop.clock()
        inputs = [self.buttons] + ([self.pockets] if self.pockets is not None else [])
        for lines in inputs:
            for event in lines.tick(now):
                self.app.handle(event)
        if self._ticking is not None:
            self._ticking.cancel()
            self._ticking = None
        due = [d for d in (lines.due() for lines in inputs) if d is not None]
        if due:
            # Never at or before now: what was due has just been decided.
            self._ticking = self.loop.call_at(max(min(due), now + 0.0005), self._tick)

    def run(self) -> None:
        self.start_bridge()
        self.app.start()
        if self.link is not None:
            self.link.start()
        try:
            self.loop.run_forever()
        finally:
            self.close()

    def stop(self) -> None:
        self.loop.stop()

    def start_bridge(self) -> None:
        """Serve the local socket; the table plays on without it if it cannot."""
        if self.bridge is None:
            return
        try:
            self.bridge.start()
        except BridgeError as exc:
            self.app.warn(f"bridge: {exc}; the table plays on without its network side")
            self.app.unwatch(self.bridge)
            self.bridge = None

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
        if self.link is not None:
            self.link.stop()
        self.buttons.close()
        if self.beeper is not None:
            self.beeper.close()
        if self.pockets is not None:
            self.pockets.close()
        self.app.close()
