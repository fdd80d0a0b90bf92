"""The hands at the table: keys press and hold mock pins and drop balls into the board."""

import importlib.util
import socket
import time

from gpiozero.pins.mock import MockFactory

from scoreboard.config import Config
from scoreboard.inputs.events import Button
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.table.wiring import panel_buttons

PRESS_SECONDS = 0.12
HOLD_MARGIN = 0.3  # held this much past the hold time
SETTLE_SECONDS = 0.1  # after a release, for the debouncer and the loop
BALL_SECONDS = 0.3  # a ball through the beam, counted and sent over the link
KEYS = {"a": Button.A, "b": Button.B, "f": Button.FOUL, "u": Button.UNDO}
LANGUAGE_KEY = "l"
QUIT_KEY = "q"


def legend(lang: str, *, web: str | None = None) -> tuple[str, ...]:
    """The key legend, one item a key (the terminal wraps it between items, never inside one),
    and the web face's address when `scoreboard sim --web` serves it."""
    return (
        "a/b press",
        "A/B hold",
        "f FOUL",
        "F hold FOUL",
        "u UNDO",
        "U hold UNDO",
        "1-6 pocket",
        f"{LANGUAGE_KEY} language: {lang}",
        f"{QUIT_KEY} quit",
    ) + ((f"web {web}",) if web else ())


def web_problem(port: int) -> str | None:
    """Why `scoreboard net` could not serve the web face on 127.0.0.1:`port` (None: it can):
    said on the screen instead of an address nothing serves."""
    if importlib.util.find_spec("aiohttp") is None:
        return "not served: aiohttp is missing (pip install '.[web]')"
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            return f"not served: port {port} is taken ({exc.strerror}); try --web-port"
    return None


class SimulatedTable:
    """Presses and holds mock pins, drops balls into the board."""

    def __init__(self, config: Config, factory: MockFactory, board: SimulatedBoard) -> None:
        buttons = panel_buttons(config)
        # key -> (pin, hold time); the upper-case key holds the button
        self.buttons = {key: buttons[button] for key, button in KEYS.items()}
        self.factory = factory
        self.board = board

    def key(self, key: str) -> float | None:
        """Act on one key, as hands at the table would (a press is held, then released);
        returns how long to let it settle before the next key (s), or None for a key that
        means nothing here. Keys are played one after another, so a script keeps its order."""
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
