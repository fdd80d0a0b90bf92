"""A table (the real Appliance on gpiozero's mock pins, in simulated time) serving its local
socket, and a plain blocking client of that socket, for the bridge and web tests."""

import dataclasses
import json
import select
import socket
import time

from gpiozero.pins.mock import MockFactory
from helpers import PATIENCE

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance


def web_config(**web):
    cfg = configuration.default()
    return dataclasses.replace(
        cfg,
        sensors=dataclasses.replace(cfg.sensors, source="gpio"),
        web=dataclasses.replace(cfg.web, **({"enabled": True} | web)),
    )


def table(state_dir, config=None, *, lang="en", **kwargs) -> Appliance:
    """The appliance, its bridge serving, the first frame shown; `a.clock` moves only when told."""
    clock = ManualClock(100.0)
    factory = MockFactory()
    screens = create_displays([{"driver": "dummy", "emulates": "ssd1306"}], lang=lang)
    config = config or web_config()  # in the screens' language: the table speaks one
    config = dataclasses.replace(config, display=dataclasses.replace(config.display, language=lang))
    a = Appliance(
        config,
        state_dir=state_dir,
        screens=screens,
        pin_factory=factory,
        clock=clock,
        log=kwargs.pop("log", lambda m: None),
        **kwargs,
    )
    a.clock, a.factory = clock, factory
    a.start_bridge()
    a.app.start()
    return a


class LineClient:
    """A blocking client of the table's socket that reads JSON lines."""

    def __init__(self, path, *, rcvbuf: int | None = None):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.connect(str(path))
        self.buffer = b""
        self.skipped: list[dict] = []  # messages passed over by next(kind=...)

    def send(self, message) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode() + b"\n"
        self.sock.sendall(data)

    def next(self, *, pump=None, kind=None) -> dict:
        """The next message (of `kind`), running `pump()` (the table's loop) while waiting."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                if kind is None or message["type"] == kind:
                    return message
                self.skipped.append(message)
            if pump is not None:
                pump()
            ready, _, _ = select.select([self.sock], [], [], 0.01 if pump else PATIENCE)
            if ready:
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("the table closed the socket")
                self.buffer += data
        raise TimeoutError(f"no {kind or 'message'} from the table")

    def drain(self) -> None:
        """Take whatever has arrived into the buffer, without waiting."""
        while select.select([self.sock], [], [], 0)[0]:
            data = self.sock.recv(65536)
            if not data:
                return
            self.buffer += data

    def close(self) -> None:
        self.sock.close()
