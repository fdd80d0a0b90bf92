"""Prints the time to render a screen and the bytes each display pushes per update.

Run: python bench/display_speed.py   (target: ≤ 2 ms to render a frame)
Real luma drivers run over luma's no-op bus with a byte counter in between, so the
figures are what would cross I2C/SPI; only the wire time itself is left out.
"""

import copy
import statistics
import time

from scoreboard.commands.gallery import samples
from scoreboard.display import create_displays
from scoreboard.display.render import PANELS, render

RUNS = 300
SPECS = {
    "ssd1306": {"driver": "ssd1306", "interface": "noop"},
    "sh1106": {"driver": "sh1106", "interface": "noop"},
    "ssd1322": {"driver": "ssd1322", "interface": "noop"},
    "max7219": {"driver": "max7219", "interface": "noop", "cascaded": 4},
    "max7219-7seg": {"driver": "max7219-7seg", "interface": "noop"},
}


def median_ms(fn, runs=RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    s = samples()
    print(f"render only (median of {RUNS}), ms")
    print(f"{'display':10} " + " ".join(f"{name:>10}" for name in s))
    for display, p in PANELS.items():
        row = [median_ms(lambda snap=snap, p=p: render(snap, p, lang="uk")) for snap in s.values()]
        print(f"{display:10} " + " ".join(f"{ms:10.2f}" for ms in row))

    play = s["play"]
    plus_one = copy.deepcopy(play)
    plus_one["score"]["A"] += 1
    plus_one["balls_on_table"] -= 1
    foul = s["foul"]
    steps = [
        ("first frame", play),
        ("no change", play),
        ("score +1", plus_one),
        ("foul screen", foul),
        ("back to play", play),
    ]
    print("\nper update through Screen.show (render + driver), bytes pushed / ms")
    print(f"{'display':13} " + " ".join(f"{name:>17}" for name, _ in steps))
    for display, spec in SPECS.items():
        (screen,) = create_displays([spec], lang="uk")
        cells = []
        for _, snap in steps:
            start = time.perf_counter()
            pushed = screen.show(snap)
            ms = (time.perf_counter() - start) * 1000
            cells.append(f"{pushed:6d} B {ms:6.2f} ms")
        print(f"{display:13} " + " ".join(f"{c:>17}" for c in cells))


if __name__ == "__main__":
    main()
