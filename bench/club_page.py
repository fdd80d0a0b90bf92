"""Benchmark: the club's page with 50 tables (issue 12). Prints the update latency; asserts
nothing.

A real Mosquitto, 50 tables each with the real publisher (its own paho client, as on 50 Pis)
making one change a second, and `scoreboard club` in its own process, as on the club's box.
A page follows /api/events (Server-Sent Events, as the hall TV's browser does); an update's
latency runs from the table's publisher taking the new state to the page receiving that
table's new view: publisher -> broker -> the club's subscriber -> hall -> SSE -> page.
Drawing the card is the browser's and is not in it.

Run: .venv/bin/python bench/club_page.py [--tables 50] [--seconds 20]
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from broker import Broker, free_port, sample_autosave  # noqa: E402

from scoreboard import config as configuration  # noqa: E402
from scoreboard.core.matchlog import replay  # noqa: E402
from scoreboard.mqtt.publisher import Publisher  # noqa: E402


def snapshots(count: int) -> list[dict]:
    """A long match, one state per shot (misses and single pots, strikers taking turns)."""
    lines = ["players A B", "race 9", "target 8", "break A"]
    out = []
    for n in range(count):
        lines.append("shot pots=1" if n % 5 == 0 else "shot")
        out.append(replay(lines).snapshot())
    return out


async def run(tables: int, seconds: float, folder: Path) -> list[float]:
    broker = Broker(folder / "broker", autosave=sample_autosave()).start()
    port = free_port()
    club = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scoreboard",
            "club",
            "--broker",
            "127.0.0.1",
            "--broker-port",
            str(broker.port),
            "--listen",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(folder / "club"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    publishers = []
    try:
        states = snapshots(int(seconds) + 5)
        for n in range(tables):
            config = configuration.loads(
                f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
                f'table = "t{n + 1}"\n'
            )
            (folder / f"t{n}").mkdir()
            publisher = Publisher(config, state_dir=folder / f"t{n}")
            publisher.start()
            publisher.take({"type": "state", "state": states[0], "faults": []})
            publishers.append(publisher)
        await until(lambda: all(p.connected for p in publishers))
        async with aiohttp.ClientSession() as http:
            url = f"http://127.0.0.1:{port}/api/events"
            await until_http(http, url)
            sent: dict[tuple[str, int], float] = {}
            latencies: list[float] = []
            events = await http.get(url, timeout=aiohttp.ClientTimeout(total=None))
            reader = asyncio.ensure_future(read(events, sent, latencies))
            await asyncio.sleep(1.0)  # the hall's first message and the retained states
            start = time.monotonic()
            step = 1.0 / tables
            k = 0
            while time.monotonic() - start < seconds:
                for n, publisher in enumerate(publishers):
                    due = start + k + n * step
                    await asyncio.sleep(max(0.0, due - time.monotonic()))
                    state = states[k + 1]
                    sent[(publisher.table, state["events"])] = time.monotonic()
                    publisher.take({"type": "state", "state": state, "faults": []})
                k += 1
            await asyncio.sleep(1.0)  # the last ones arrive
            reader.cancel()
            events.close()
            if sent:
                print(f"  ({len(sent)} updates did not reach the page)")
            return latencies
    finally:
        for publisher in publishers:
            publisher.stop()
        club.terminate()
        club.wait()
        broker.stop()


async def read(events, sent, latencies) -> None:
    async for line in events.content:
        if not line.startswith(b"data: "):
            continue
        message = json.loads(line[6:])
        if message["type"] == "table":
            view = message["table"]
            t0 = sent.pop((view["table"], view["events"]), None)
            if t0 is not None:
                latencies.append(time.monotonic() - t0)


async def until(check) -> None:
    while not check():
        await asyncio.sleep(0.05)


async def until_http(http, url) -> None:
    for _ in range(600):
        try:
            async with http.get(url.replace("/api/events", "/api/tables")) as r:
                if r.status == 200 and (await r.json())["broker"]:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("scoreboard club did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        latencies = asyncio.run(run(args.tables, args.seconds, Path(folder)))
    ms = sorted(x * 1000 for x in latencies)
    p50 = statistics.median(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(
        f"club page update with {args.tables} tables: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
        f"({len(ms)} updates, {args.seconds:.0f} s, one change a second per table)"
    )


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
