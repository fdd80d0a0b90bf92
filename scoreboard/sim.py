"""The simulator: the real appliance on gpiozero's MockFactory pins, a simulated sensor board
behind a pseudo-terminal, and luma's emulated displays, driven from the keyboard.

Keys: a / b press a player's button, A / B hold it, f FOUL, F hold FOUL, u UNDO, U hold UNDO,
1-6 a ball falls into that pocket, q quits.
"""

import contextlib
import os
import sys
import termios
import threading
import time
import tty
from dataclasses import replace

from gpiozero.pins.mock import MockFactory

from scoreboard.appliance import Appliance, panel_buttons
from scoreboard.config import Config
from scoreboard.display import create_displays
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.summary import describe

LEGEND = "a/b press  A/B hold  f FOUL  F hold FOUL  u UNDO  U hold UNDO  1-6 pocket  q quit"
PRESS_SECONDS = 0.12
HOLD_MARGIN = 0.3  # held this much past the hold time
SETTLE_SECONDS = 0.1  # after a release, for the debouncer and the loop
BALL_SECONDS = 0.3  # a ball through the beam, counted and sent over the link
KEYS = {"a": "A", "b": "B", "f": "foul", "u": "undo"}


class SimulatedTable:
    """The hands at the table: presses and holds mock pins, drops balls into the board."""

    def __init__(self, config: Config, factory: MockFactory, board: SimulatedBoard) -> None:
        buttons = panel_buttons(config)
        # key -> (pin, hold time); the upper-case key holds the button
        self.buttons = {key: buttons[button] for key, button in KEYS.items()}
        self.factory = factory
        self.board = board

    def key(self, key: str) -> float | None:
        """Act on one key, as hands at the table would (a press is held, then released);
        returns how long to let it settle before the next key (s), or None for a key that
        means nothing. Keys are played one after another, so a script keeps its order."""
        if key.lower() in self.buttons:
            number, hold = self.buttons[key.lower()]
            down = hold + HOLD_MARGIN if key.isupper() else PRESS_SECONDS
            pin = self.factory.pin(number)
            pin.drive_low()  # buttons close to ground (pull-ups on)
            time.sleep(down)
            pin.drive_high()
            return SETTLE_SECONDS
        if len(key) == 1 and key in "123456":
            self.board.drop_ball(int(key))
            return BALL_SECONDS
        return None


class TextScreen:
    """A few lines of text under the emulated display: the score in words and the keys."""

    def __init__(self, out, *, top_row: int | None) -> None:
        self.out = out
        self.top_row = top_row

    def show(self, snapshot, *, faults=(), hint=None) -> None:
        lines = describe(snapshot).splitlines()
        lines += [f"! {f['kind']} {f.get('pocket', '')}".rstrip() for f in faults]
        if hint:
            lines.append(f"hint: {hint}")
        if self.top_row is None:  # not a terminal: one block per state, for logs and tests
            self.out.write("\n".join(lines) + "\n--\n")
        else:
            # Below the emulated display, as many lines as the terminal has room for,
            # the keys always last, none wrapping.
            size = os.get_terminal_size(self.out.fileno())
            room = max(1, size.lines - self.top_row)
            shown = [*lines[: room - 1], LEGEND] if room > 1 else [LEGEND]
            self.out.write(f"\x1b[{self.top_row};1H\x1b[J")
            self.out.write("\n".join(line[: size.columns - 1] for line in shown))
        self.out.flush()


def emulated_screens(config: Config, *, interactive: bool, emulates: str) -> list:
    """The terminal emulator (and a window when there is a screen) plus the text lines."""
    out = sys.stdout
    if not interactive:
        return [TextScreen(out, top_row=None)]
    specs = [{"driver": "emulator-terminal", "emulates": emulates}]
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        specs.append({"driver": "emulator-pygame", "emulates": "max7219"})
    screens = create_displays(specs, lang=config.display.language)
    columns = os.get_terminal_size(out.fileno()).columns
    width, height = (256, 64) if emulates == "ssd1322" else (128, 64)
    rows = -(-height * columns // width) // 2  # asciiblock scales the picture to the width
    return [*screens, TextScreen(out, top_row=rows + 1)]


def run_sim(config: Config, *, state_dir: str, emulates: str = "ssd1306") -> int:
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    # The simulated board stands in for the USB sensor board; buttons are mock pins.
    config = replace(config, sensors=replace(config.sensors, source="board"))
    factory = MockFactory()
    board, port = SimulatedBoard.open_pty(time.monotonic)
    board.start()
    appliance = Appliance(
        config,
        state_dir=state_dir,
        screens=emulated_screens(config, interactive=interactive, emulates=emulates),
        pin_factory=factory,
        board_port=port,
        log=lambda message: None if interactive else print(f"log: {message}", flush=True),
    )
    table = SimulatedTable(config, factory, board)
    reader = threading.Thread(
        target=_read_keys, args=(table, appliance, interactive), name="keyboard", daemon=True
    )
    with _cbreak(interactive):
        reader.start()
        try:
            appliance.run()
        except KeyboardInterrupt:
            pass
        finally:
            board.stop()
            board.close()
    return 0


def _read_keys(table: SimulatedTable, appliance: Appliance, interactive: bool) -> None:
    fd = sys.stdin.fileno()
    while True:
        data = os.read(fd, 1)
        if not data or data == b"q":
            break
        key = data.decode(errors="replace")
        settle = table.key(key)
        if settle is None:
            if not interactive and key.strip():
                print(f"unknown key {key!r}", flush=True)
            continue
        time.sleep(settle)
    time.sleep(BALL_SECONDS)  # let the last ball and press reach the screen
    appliance.stop()


@contextlib.contextmanager
def _cbreak(interactive: bool):
    """Keys without Enter and without echo, restored however the simulator ends."""
    if not interactive:
        yield
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    sys.stdout.write("\x1b[?25l")  # hide the cursor
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[?25h\n")
        sys.stdout.flush()
