"""Benchmark: button -> frame while the club's network floods the table (issue 21). Prints
the figures; asserts nothing.

The table (the production Appliance on gpiozero's mock pins, the dummy display, in this
process at its unit's priority), `scoreboard net` in its own process publishing to a real
Mosquitto, a phone paired at the table (UNDO held, then FOUL, the code typed). Then, in
turn and in alternating rounds so that whatever else the machine does weighs on each alike:

- quiet: nothing but the players;
- web: 300 connections of a paired phone posting `/api/setup` as fast as they are answered;
- socket: 8 local clients of the table's socket, each sending `setup` 8 at a time;
- mqtt: the club's retained `assign` for the table, a new one as fast as paho publishes;
- all: the three at once.

For each: button -> frame p50/p99 (from the release of a mock GPIO button to the new frame
on the dummy display, the journal's fsync included) and whether p99 stays within the quiet
p99 + 20 ms; presses without a frame (lost) and the journal checked press for press; the
table's and `scoreboard net`'s resident memory before and after each flood; the floods'
answers. The flooding clients stand in for phones and the club's machine: at Nice 19, as
other machines would not take the Pi's CPU (the socket's clients are the Pi's own: at the
net unit's Nice).

Run: .venv/bin/python bench/flood.py [--samples 60] [--rounds 3]
"""

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from broker import Broker  # noqa: E402
from web_latency import (  # noqa: E402
    PHONES_NICE,
    Table,
    at_units_priority,
    free_port,
    niced,
    percentiles,
    rss_mb,
    start_net,
)

from scoreboard.net import security  # noqa: E402
from scoreboard.store.journal import read_journal  # noqa: E402

FLOODS = ("web", "socket", "mqtt")
MODES = ("quiet", *FLOODS, "all")
WEB_CONNECTIONS, SOCKET_CLIENTS, BATCH = 300, 8, 8
MARGIN_MS = 20.0
PRESS_APART = 0.55  # seconds between presses: over the panel's double-press guard (0.5 s)  # issue 21: under a flood, p99 within the quiet p99 + 20 ms


# -- the floods, each in a process of its own (`flood.py --flood KIND ...`) ----------------------
async def flood_web(port: int, cookie: str, csrf: str, counts: Counter) -> None:
    import aiohttp

    url = f"http://127.0.0.1:{port}/api/setup"
    headers = {
        "Origin": f"http://127.0.0.1:{port}",
        "Cookie": f"{security.SESSION_COOKIE}={cookie}",
        security.CSRF_HEADER: csrf,
    }
    connector = aiohttp.TCPConnector(limit=WEB_CONNECTIONS, force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http:

        async def one(n: int) -> None:
            while True:
                try:
                    async with http.post(url, json={"race": 2 + n % 2}, headers=headers) as r:
                        counts[r.status] += 1
                        await r.read()
                except (aiohttp.ClientError, OSError):
                    counts["closed"] += 1
                    await asyncio.sleep(0.01)
                n += 1

        await asyncio.gather(*(one(n) for n in range(WEB_CONNECTIONS)))


def flood_socket(path: str, counts: Counter) -> None:
    def client(n: int) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        reader = sock.makefile("rb")
        i = 0
        while True:
            lines = b""
            for _ in range(BATCH):
                command = {"type": "command", "id": f"{n}-{i}", "cmd": "setup", "race": 4 + i % 2}
                lines += json.dumps(command).encode() + b"\n"
                i += 1
            sock.sendall(lines)
            answered = 0
            while answered < BATCH:
                message = json.loads(reader.readline())
                if message["type"] == "reply":
                    answered += 1
                    counts[message["message"].split(":")[0]] += 1

    threads = [
        threading.Thread(target=client, args=(n,), daemon=True) for n in range(SOCKET_CLIENTS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def flood_mqtt(broker_port: int, table: str, counts: Counter) -> None:
    import paho.mqtt.client as paho

    client = paho.Client(paho.CallbackAPIVersion.VERSION2)
    client.connect("127.0.0.1", broker_port)
    client.loop_start()
    n = 0
    while True:
        payload = {"id": f"m{n}", "players": ["Ія", "Петро"], "race": 6 + n % 2}
        info = client.publish(f"fp/v1/{table}/assign", json.dumps(payload), qos=1, retain=True)
        info.wait_for_publish(5)
        counts["published"] += 1
        n += 1


def run_flood(args) -> None:
    """A flood's own process: floods until SIGTERM, then prints what it got as JSON."""
    counts: Counter = Counter()

    def stop(*_):
        print(json.dumps(counts), flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    print("started", flush=True)
    if args.flood == "web":
        asyncio.run(flood_web(args.port, args.cookie, args.csrf, counts))
    elif args.flood == "socket":
        flood_socket(args.path, counts)
    else:
        flood_mqtt(args.broker, args.table, counts)


# -- the bench -----------------------------------------------------------------------------------
class Flood:
    """One flood's process, started and stopped; `counts` what it got."""

    def __init__(self, kind: str, args: list[str], nice: int) -> None:
        self.kind = kind
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--flood", kind, *args],
            stdout=subprocess.PIPE,
            text=True,
            preexec_fn=niced(nice),
        )
        self.process.stdout.readline()
        self.started = time.monotonic()
        self.counts: dict = {}

    def stop(self) -> None:
        self.process.terminate()
        out = self.process.stdout.read()
        self.process.wait()
        self.counts = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
        self.seconds = time.monotonic() - self.started


def pair(table: Table, port: int) -> tuple[str, str]:
    """UNDO held, then FOUL, at the table; the code it shows, typed on a phone: the phone's
    session cookie and CSRF token."""
    import http.client
    import http.cookies

    def ask(method, path, body=None, cookies=None, csrf=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}
        if cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        if csrf:
            headers[security.CSRF_HEADER] = csrf
        conn.request(method, path, body=json.dumps(body) if body else None, headers=headers)
        response = conn.getresponse()
        got = {}
        for header in response.headers.get_all("Set-Cookie") or ():
            got |= {k: m.value for k, m in http.cookies.SimpleCookie(header).items()}
        data = json.loads(response.read())
        conn.close()
        return response.status, data, got

    _, session, cookies = ask("GET", "/api/session")
    pins, timings = table.config.pins, table.config.timings
    table.factory.pin(pins.undo).drive_low()
    time.sleep(timings.undo_hold_time + 0.3)
    table.factory.pin(pins.undo).drive_high()
    time.sleep(0.2)
    table.factory.pin(pins.foul).drive_low()
    time.sleep(0.1)
    table.factory.pin(pins.foul).drive_high()
    deadline = time.monotonic() + 30
    while table.appliance.app.phone.code is None:
        if time.monotonic() > deadline:
            raise RuntimeError("the table showed no pairing code")
        time.sleep(0.05)
    code = table.appliance.app.phone.code[0]
    status, paired, got = ask(
        "POST", "/api/pair", {"code": code, "name": "Bench"}, cookies, session["csrf"]
    )
    if status != 200:
        raise RuntimeError(f"pairing refused: {status} {paired}")
    return got[security.SESSION_COOKIE], paired["csrf"]


def presses(table: Table, samples: int) -> tuple[list[float], int]:
    """Button -> frame for `samples` presses, each a shot (the panel takes a second player
    button within half a second for two at once); and how many brought no frame in 2 s."""
    times, lost = [], 0
    for _ in range(samples):
        took = table.press(table.next_side())
        if took is None:
            lost += 1
        else:
            times.append(took)
        time.sleep(PRESS_APART)
    return times, lost


def rule_lines(state: str) -> int:
    return sum(1 for line in read_journal(state).lines if line and not line.startswith("#"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60, help="presses per mode and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--flood", choices=FLOODS, help=argparse.SUPPRESS)
    for name in ("port", "broker"):
        parser.add_argument(f"--{name}", type=int, help=argparse.SUPPRESS)
    for name in ("cookie", "csrf", "path", "table"):
        parser.add_argument(f"--{name}", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.flood:
        run_flood(args)
        return 0

    _, net_nice = at_units_priority(
        f"the floods' clients Nice={PHONES_NICE} (other machines), the socket's at the net's"
    )

    with tempfile.TemporaryDirectory(prefix="flood-bench-") as folder:
        state = os.path.join(folder, "state")
        os.mkdir(state)
        broker = Broker(Path(folder) / "broker").start()
        os.setpriority(os.PRIO_PROCESS, broker.process.pid, PHONES_NICE)  # the club's machine
        table = Table(state)
        port = free_port()
        net = start_net(state, port, broker.port)
        times = {mode: [] for mode in MODES}
        lost = Counter()
        memory: dict[str, list] = {mode: [] for mode in MODES}
        answers: dict[str, Counter] = {kind: Counter() for kind in FLOODS}
        seconds = Counter()
        pressed = 0
        try:
            time.sleep(1.0)
            cookie, csrf = pair(table, port)
            for _ in range(2):  # the lag and the break: settings sent now wait for the next match
                table.press(table.next_side())
                time.sleep(PRESS_APART)
            journaled = rule_lines(state)
            flood_args = {
                "web": (["--port", str(port), "--cookie", cookie, "--csrf", csrf], PHONES_NICE),
                "socket": (["--path", os.path.join(state, "table.sock")], net_nice),
                "mqtt": (["--broker", str(broker.port), "--table", "table1"], PHONES_NICE),
            }
            for _ in range(args.rounds):
                for mode in MODES:
                    kinds = FLOODS if mode == "all" else () if mode == "quiet" else (mode,)
                    before = (rss_mb(os.getpid()), rss_mb(net.pid))
                    floods = [Flood(k, *flood_args[k]) for k in kinds]
                    time.sleep(1.0 if floods else 0)  # the flood under way
                    took, missing = presses(table, args.samples)
                    for flood in floods:
                        flood.stop()
                        answers[flood.kind].update(flood.counts)
                        seconds[flood.kind] += flood.seconds
                    memory[mode].append((*before, rss_mb(os.getpid()), rss_mb(net.pid)))
                    times[mode] += took
                    lost[mode] += missing
                    pressed += args.samples
            time.sleep(0.5)
            journaled = rule_lines(state) - journaled
        finally:
            net.terminate()
            net.wait()
            table.stop()
            broker.stop()

    quiet99 = percentiles(times["quiet"])[1]
    print(f"{args.rounds} rounds of {args.samples} presses in each mode")
    for mode in MODES:
        p50, p99 = percentiles(times[mode])
        verdict = (
            ""
            if mode == "quiet"
            else (
                f"  within quiet p99 + {MARGIN_MS:.0f} ms: "
                f"{'yes' if p99 <= quiet99 + MARGIN_MS else 'NO'}"
            )
        )
        print(
            f"button -> frame, {mode:6}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"no frame {lost[mode]}{verdict}"
        )
    print(
        f"presses: {pressed}, journaled: {journaled} "
        f"({'every press, once' if journaled == pressed else 'NOT every press once'})"
    )
    for mode in MODES:
        first, last = memory[mode][0], memory[mode][-1]
        print(
            f"RSS, {mode:6}: table {first[0]:.1f} -> {last[2]:.1f} MB, "
            f"scoreboard net {first[1]:.1f} -> {last[3]:.1f} MB (first round's start, "
            "last round's end)"
        )
    for kind in FLOODS:
        rate = {k: f"{v / max(seconds[kind], 1e-9):.0f}/s" for k, v in answers[kind].items()}
        print(f"the {kind} flood's answers: {rate}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
