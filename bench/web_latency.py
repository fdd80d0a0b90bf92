"""Benchmark: the web face's figures (issue 12). Prints them; asserts nothing.

- sse latency: from the moment the table shows a new frame (its dummy display drew it) to
  the moment an SSE client of `scoreboard net` (its own process, as on the Pi) has the state;
- button -> frame, p50 and p99, with 50 SSE clients connected to `scoreboard net` (half of
  them never read) and with none: from the release of a mock GPIO button to the new frame on
  the dummy display (the journal's fsync included). The network must not move it.

Run: .venv/bin/python bench/web_latency.py [--samples 200]
"""

import argparse
import asyncio
import dataclasses
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.appliance import Appliance
from scoreboard.display import create_displays

CLIENTS = 50


class TimedScreen:
    """A dummy display that notes when each new picture was drawn."""

    def __init__(self, screen):
        self.screen = screen
        self.shown = threading.Event()
        self.at = 0.0

    def show(self, snapshot, **kwargs):
        sent = self.screen.show(snapshot, **kwargs)
        self.at = time.monotonic()
        self.shown.set()
        return sent


def percentiles(samples):
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Table:
    """The appliance with its web side on: mock pins, a dummy display, the local socket."""

    def __init__(self, state: str):
        cfg = configuration.default()
        self.config = dataclasses.replace(
            cfg,
            sensors=dataclasses.replace(cfg.sensors, source="none"),
            web=dataclasses.replace(cfg.web, enabled=True),
        )
        self.factory = MockFactory()
        self.screen = TimedScreen(create_displays([{"driver": "dummy"}], lang="uk")[0])
        self.appliance = Appliance(
            self.config,
            state_dir=state,
            screens=[self.screen],
            pin_factory=self.factory,
            log=lambda m: None,
        )
        self.thread = threading.Thread(target=self.appliance.run, daemon=True)
        self.thread.start()

    def press(self, side: str) -> float | None:
        """Press and release a player's button; seconds from the release to the new frame."""
        pin = self.factory.pin(getattr(self.config.pins, f"player_{side.lower()}"))
        pin.drive_low()
        time.sleep(0.06)
        self.screen.shown.clear()
        released = time.monotonic()
        pin.drive_high()
        if not self.screen.shown.wait(2.0):
            return None
        return self.screen.at - released

    def next_side(self) -> str:
        """The button whose press changes the frame: in the lag A breaks; then the player
        not at the table says the striker missed (GR-7.2)."""
        snapshot = self.appliance.app.shown.snapshot
        striker = snapshot["striker"]
        return "A" if striker is None else ("B" if striker == "A" else "A")

    def stop(self):
        self.appliance.stop()
        self.thread.join()
        self.factory.close()


def start_net(state: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scoreboard",
            "net",
            "--state-dir",
            state,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    proc.stdout.readline()  # its URL: it is starting
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("scoreboard net did not start")


CLIENTS_SCRIPT = r"""
import asyncio, socket, sys
port, clients = int(sys.argv[1]), int(sys.argv[2])
async def reader():
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    while await r.read(65536):
        pass
async def sleeper():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
    await asyncio.sleep(3600)  # never reads
async def main():
    tasks = [reader() if i % 2 else sleeper() for i in range(clients)]
    print("connected", flush=True)
    await asyncio.gather(*tasks)
asyncio.run(main())
"""


def start_clients(port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", CLIENTS_SCRIPT, str(port), str(CLIENTS)],
        stdout=subprocess.PIPE,
        text=True,
    )
    proc.stdout.readline()
    time.sleep(1.0)  # let them all connect
    return proc


def button_to_frame(table: Table, samples: int) -> list[float]:
    times = []
    for _ in range(samples):
        took = table.press(table.next_side())
        if took is not None:
            times.append(took)
        time.sleep(0.02)
    return times


async def sse_latency(table: Table, port: int, samples: int) -> list[float]:
    import aiohttp

    got = asyncio.Event()
    received = []

    async def listen(response):
        async for line in response.content:
            if line.startswith(b"event: state"):
                received.append(time.monotonic())
                got.set()

    async with aiohttp.ClientSession() as session:
        response = await session.get(f"http://127.0.0.1:{port}/api/events")
        task = asyncio.create_task(listen(response))
        await asyncio.wait_for(got.wait(), 10)
        times = []
        for _ in range(samples):
            got.clear()
            took = await asyncio.to_thread(table.press, table.next_side())
            try:
                await asyncio.wait_for(got.wait(), 2)
            except TimeoutError:
                continue
            if took is not None:
                times.append(received[-1] - table.screen.at)
            await asyncio.sleep(0.02)
        task.cancel()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="web-bench-") as state:
        table = Table(state)
        port = free_port()
        net = start_net(state, port)
        try:
            time.sleep(0.5)
            sse = asyncio.run(sse_latency(table, port, args.samples))
            p50, p99 = percentiles(sse)
            print(f"sse latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(sse)} states)")
            alone = button_to_frame(table, args.samples)
            clients = start_clients(port)
            try:
                loaded = button_to_frame(table, args.samples)
            finally:
                clients.kill()
                clients.wait()
        finally:
            net.terminate()
            net.wait()
            table.stop()
    p50, p99 = percentiles(alone)
    print(f"button -> frame with no sse clients: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    p50, p99 = percentiles(loaded)
    print(
        f"button -> frame with {CLIENTS} sse clients: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
        f"({CLIENTS // 2} never reading)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
