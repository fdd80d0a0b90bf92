"""Benchmark: the web face's figures (issue 12). Prints them; asserts nothing.

- sse latency: from the moment the table shows a new frame (its dummy display drew it) to
  the moment an SSE client of `scoreboard net` (its own process, as on the Pi) has the state,
  and to the moment the live page in a browser (Debian's chromium) has it (issue 12: within
  200 ms);
- the memory of `scoreboard net` alone and with 50 SSE clients, half of them never reading;
- button -> frame, p50 and p99, with 50 SSE clients connected to `scoreboard net` (half of
  them never read) and with none, the MQTT broker `scoreboard net` publishes to down: from the release of a mock GPIO button to the new frame on
  the dummy display (the journal's fsync included). The network must not move it.

Run: .venv/bin/python bench/web_latency.py [--samples 200]
"""

import argparse
import asyncio
import dataclasses
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.table.wiring import Appliance

CLIENTS = 50
UNITS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "systemd")
ROUNDS = 4  # button -> frame: with and without the clients, in turn
PHONES_NICE = 19  # the clients stand in for phones, which are other machines on the Pi


def unit_nice(unit: str) -> int:
    """The Nice= a service unit runs its process at (systemd/*.service)."""
    with open(os.path.join(UNITS, unit)) as f:
        for line in f:
            if line.startswith("Nice="):
                return int(line.split("=", 1)[1])
    return 0


def at_units_priority(others: str) -> tuple[int, int]:
    """This process (the table) at its unit's Nice, as systemd starts it on the Pi (root
    only), and says so with `others`; the table's and the net unit's Nice."""
    table_nice, net_nice = unit_nice("scoreboard.service"), unit_nice("scoreboard-net.service")
    try:
        os.setpriority(os.PRIO_PROCESS, 0, table_nice)
        print(
            f"measured at the units' priorities: table Nice={table_nice}, net Nice={net_nice}, "
            + others
        )
    except PermissionError:
        print(f"NOT at the table unit's priority (Nice={table_nice} needs root): at Nice=0")
    return table_nice, net_nice


def niced(nice: int):
    """For Popen's preexec_fn: the child at `nice` (as its unit starts it)."""
    return lambda: os.setpriority(os.PRIO_PROCESS, 0, nice)


class TimedScreen:
    """A dummy display that notes when each new picture was drawn."""

    def __init__(self, screen):
        self.screen = screen
        self.shown = threading.Event()
        self.at = 0.0

    def show(self, snapshot, **kwargs):
        sent = self.screen.show(snapshot, **kwargs)
        self.at = time.monotonic()
        self.wall = time.time()  # the browser's clock is the wall clock
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


def start_net(state: str, port: int, broker_port: int) -> subprocess.Popen:
    """`scoreboard net` publishing to a broker at `broker_port` where nothing listens: the
    broker is down for the whole measurement, and its client keeps trying to reach it."""
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
            "--mqtt",
            f"127.0.0.1:{broker_port}",
        ],
        preexec_fn=niced(unit_nice("scoreboard-net.service")),
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
        preexec_fn=niced(PHONES_NICE),
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


CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
LISTEN = """() => {
  window.__arrived = [];
  const source = new EventSource("/api/events");
  source.addEventListener("state", () =>
    window.__arrived.push(performance.timeOrigin + performance.now()));
}"""


async def browser_latency(table: Table, port: int, samples: int) -> list[float] | None:
    """Frame shown -> the state in a page of the browser (its own EventSource)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    if not os.access(CHROMIUM, os.X_OK):
        return None
    times = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        page = await browser.new_page()
        await page.goto(f"http://127.0.0.1:{port}/")
        await page.evaluate(LISTEN)
        await page.wait_for_function("window.__arrived.length > 0")
        for _ in range(samples):
            before = await page.evaluate("window.__arrived.length")
            took = await asyncio.to_thread(table.press, table.next_side())
            try:
                await page.wait_for_function(f"window.__arrived.length > {before}", timeout=2000)
            except Exception:
                continue
            if took is not None:
                arrived = await page.evaluate("window.__arrived[window.__arrived.length - 1]")
                times.append(arrived / 1000 - table.screen.wall)
            await asyncio.sleep(0.02)
        await browser.close()
    return times


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    at_units_priority(f"the clients (phones: other machines on the Pi) Nice={PHONES_NICE}")
    with tempfile.TemporaryDirectory(prefix="web-bench-") as state:
        table = Table(state)
        port, broker_port = free_port(), free_port()
        net = start_net(state, port, broker_port)
        try:
            time.sleep(0.5)
            sse = asyncio.run(sse_latency(table, port, args.samples))
            p50, p99 = percentiles(sse)
            print(f"sse latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms ({len(sse)} states)")
            browser = asyncio.run(browser_latency(table, port, args.samples // 2))
            if browser:
                p50, p99 = percentiles(browser)
                print(
                    f"sse latency to a browser page: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
                    f"({len(browser)} states)"
                )
            else:
                print("sse latency to a browser page: not measured (no chromium or playwright)")
            # In alternating rounds, so that whatever else the machine does weighs on both alike.
            alone, loaded, memory_alone, memory_loaded = [], [], 0.0, 0.0
            for _ in range(ROUNDS):
                alone += button_to_frame(table, args.samples // ROUNDS)
                memory_alone = max(memory_alone, rss_mb(net.pid))
                clients = start_clients(port)
                try:
                    loaded += button_to_frame(table, args.samples // ROUNDS)
                    memory_loaded = max(memory_loaded, rss_mb(net.pid))
                finally:
                    clients.kill()
                    clients.wait()
        finally:
            net.terminate()
            net.wait()
            table.stop()
    p50, p99 = percentiles(alone)
    print(
        f"button -> frame with no sse clients: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
        "(the MQTT broker down)"
    )
    p50, p99 = percentiles(loaded)
    print(
        f"button -> frame with {CLIENTS} sse clients: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
        f"({CLIENTS // 2} never reading, the MQTT broker down)"
    )
    print(
        f"scoreboard net memory: {memory_alone:.1f} MB alone, {memory_loaded:.1f} MB with "
        f"{CLIENTS} sse clients ({CLIENTS // 2} never reading)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
