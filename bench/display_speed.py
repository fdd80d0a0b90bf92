"""Prints the time to render a screen and the bytes each display sends per update.

Run: python bench/display_speed.py
Targets: ≤ 2 ms to render a frame; SSD1306 / SH1106: a point scored ≤ 128 bytes (issue 10;
luma alone sent the whole 1,030-byte frame on every update).

Each driver is built by the production factory (scoreboard/display/devices.py, through
luma's cmdline), then talks through luma's own i2c / spi interface over a fake smbus /
spidev that counts what would go on the wire. The updates are a match to 3 frames of
seeded random shots, each event applied to the real Match and each state shown by
Screen.show (render, change check, push); "+1 point" is the play screen of
scoreboard/display/samples/play.log and the same log with one more pot.
"""

import random
import statistics
import time
from importlib import resources

from luma.core.interface.serial import i2c, noop, spi

from scoreboard.commands.gallery import samples
from scoreboard.core.match import Match
from scoreboard.core.matchlog import parse_line, replay
from scoreboard.display import devices
from scoreboard.display.render import PANELS, render
from scoreboard.display.screen import Screen

RUNS = 300
SPECS = {
    "ssd1306": {"driver": "ssd1306", "interface": "noop"},
    "sh1106": {"driver": "sh1106", "interface": "noop"},
    "ssd1322": {"driver": "ssd1322", "interface": "noop"},
    "max7219": {"driver": "max7219", "interface": "noop", "cascaded": 4},
    "max7219-7seg": {"driver": "max7219-7seg", "interface": "noop"},
}
I2C_DRIVERS = ("ssd1306", "sh1106")
TARGETS = {
    "ssd1306": "target: +1 point <= 128 (luma alone: 1030 every update)",
    "sh1106": "target: +1 point <= 128 (luma alone: 1048 every update)",
    "ssd1322": "no target (luma's own changed-only framebuffer)",
    "max7219": "no target (the MAX7219 takes every row on every update)",
    "max7219-7seg": "no target (the MAX7219 takes every digit on every update)",
}


class FakeSMBus:
    """Stands for smbus2.SMBus under luma's i2c interface: counts the blocks and bytes."""

    def __init__(self):
        self.bytes = self.writes = 0

    def write_i2c_block_data(self, address, register, data):
        self.bytes += len(data)
        self.writes += 1


class FakeSpiDev:
    """Stands for spidev.SpiDev under luma's spi interface: counts the transfers and bytes."""

    def __init__(self):
        self.bytes = self.writes = 0

    def open(self, port, device):
        pass

    def writebytes(self, data):
        self.bytes += len(data)
        self.writes += 1

    def close(self):
        pass


def on_fake_bus(display: str):
    """A Screen for one driver, as the appliance builds it, sending to a counting bus."""
    device, _, panel = devices.create(SPECS[display])
    if display in I2C_DRIVERS:
        bus = FakeSMBus()
        device._serial_interface = i2c(bus=bus)
    else:
        bus = FakeSpiDev()
        device._serial_interface = spi(spi=bus, gpio=noop())
    screen = Screen(device, name=display, panel=panel, segments=display == "max7219-7seg")
    return screen, bus


def sent(screen: Screen, bus, snapshot: dict) -> int:
    before = bus.bytes
    screen.show(snapshot)
    return bus.bytes - before


def panel_unknown(device) -> None:
    """Whatever the panel holds is unknown, so the next frame goes whole."""
    if hasattr(device, "forget"):  # ours: scoreboard/display/oled.py
        device.forget()
    elif hasattr(device, "framebuffer"):  # luma's diff_to_previous: its first redraw is whole
        device.framebuffer.prev_image = None


def match_states(seed: int = 10) -> list[dict]:
    """The state after every event of a match to 3 frames played with seeded random shots
    as a club plays them: mostly misses, some pots, now and then a foul and its choice."""
    rng = random.Random(seed)
    match, states = Match(), []
    lines = iter(["players Олена Тарас", "race 3", "break A"])
    while match.phase != "match-over":
        line = (
            next(lines, None)
            or {
                "break": "shot cushions=3",
                "foul": "choose play",
                "frame-over": "next",
            }.get(match.phase)
            or rng.choices(
                ["shot", "shot pots=1", "shot pots=2", "shot foul=push"], [60, 30, 4, 6]
            )[0]
        )
        match.step(parse_line(line))
        states.append(match.snapshot())
    return states


def median_ms(fn, runs=RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def i2c_ms(payload: int, blocks: int, hz: int) -> float:
    """Wire time: 9 clocks a byte, each block also carrying an address and a control byte."""
    return (payload + 2 * blocks) * 9 / hz * 1000


def main() -> None:
    s = samples()
    print(f"render only (median of {RUNS}), ms   (target: <= 2 ms)")
    print(f"{'display':10} " + " ".join(f"{name:>12}" for name in s))
    for display, p in PANELS.items():
        row = [median_ms(lambda snap=snap, p=p: render(snap, p, lang="uk")) for snap in s.values()]
        print(f"{display:10} " + " ".join(f"{ms:12.2f}" for ms in row))

    states = match_states()
    play = s["play"]
    plus_one = replay([*_log("play"), "shot pots=1"]).snapshot()  # Олена pots one more
    print(
        f"\nbytes per update over a fake smbus / spidev: a match to 3 frames ({len(states)} "
        "events), a point scored in play, and a whole frame"
    )
    lines, wire = [], []
    for display in SPECS:
        screen, bus = on_fake_bus(display)
        updates, seconds = [], []
        for snap in states:
            start = time.perf_counter()
            n = sent(screen, bus, snap)
            if n:
                updates.append(n)
                seconds.append(time.perf_counter() - start)
        sent(screen, bus, play)
        blocks = bus.writes
        point = sent(screen, bus, plus_one)
        blocks = bus.writes - blocks
        panel_unknown(screen.device)
        again = Screen(
            screen.device, name=display, panel=screen.panel, segments=bool(screen.segments)
        )
        whole = sent(again, bus, plus_one)
        lines.append(
            f"{display} bytes per update: median {statistics.median(updates):.0f}, "
            f"+1 point {point}, full {whole}   {TARGETS[display]}"
        )
        ms = statistics.median(seconds) * 1000
        if display in I2C_DRIVERS:
            wire.append(
                f"{display}: +1 point on the wire {i2c_ms(point, blocks, 400_000):.1f} ms at "
                f"400 kHz, {i2c_ms(point, blocks, 100_000):.1f} ms at 100 kHz "
                f"({blocks} I2C blocks); render + driver {ms:.2f} ms median per update"
            )
        else:
            wire.append(f"{display}: render + driver {ms:.2f} ms median per update")
    print("\n".join(lines))
    print("\n" + "\n".join(wire))


def _log(name: str) -> list[str]:
    path = resources.files("scoreboard.display") / "samples" / f"{name}.log"
    return path.read_text(encoding="utf-8").splitlines()


if __name__ == "__main__":
    main()
