"""Benchmark: the club's desk (issue 22) with 50 tables and a 64-player double elimination.
Prints figures; asserts nothing.

A real Mosquitto, `scoreboard club` in its own process on an SQLite database holding the
tournament, and 50 tables on the broker, each its own paho client speaking the tables' MQTT
(availability, an idle state, the club's assign in, the result out, as the publisher does).
The tables' Appliance is not in it: what is measured is the club's side of the production
path. The results are sent one at a time, the winner by a seeded RNG, until the champion:

- result -> next match: a table's result into the broker until the next game's assign
  reaches a free table (only the results that make a game ready);
- bracket page: the result until the page's SSE says the tournament changed, and the
  /api/tournaments/<id> JSON the page then fetches (its request's time);
- the hall page: each table publishes a new state a second meanwhile (idle, so the games'
  dispatch is not changed), from its publish until the page's SSE event for it;
- the club's RSS (VmRSS of `scoreboard club`) at the end, the 50 tables and the bracket in it.

Run: .venv/bin/python bench/desk.py [--tables 50] [--players 64]
"""

import argparse
import asyncio
import json
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp
import paho.mqtt.client as paho

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from broker import Broker, free_port, sample_autosave  # noqa: E402
from mqtt_table import snapshot  # noqa: E402

from scoreboard.clubdb import players, table_keys, tournaments  # noqa: E402
from scoreboard.clubdb.database import open_database  # noqa: E402
from scoreboard.desk.bracket import DOUBLE  # noqa: E402
from scoreboard.mqtt import topics  # noqa: E402
from scoreboard.signing import signature  # noqa: E402
from scoreboard.signing.table_key import load_or_make  # noqa: E402

IDLE = snapshot(["players A B", "race 1", "target 2"])  # a table waiting for its lag


def table_client(port: int, name: str, assigns: queue.Queue) -> paho.Client:
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"bench-{name}")
    client.will_set(topics.topic(name, topics.AVAILABILITY), topics.OFFLINE, qos=1, retain=True)

    def connected(c, _u, _f, _rc, _p=None):
        c.subscribe(topics.topic(name, topics.ASSIGN), qos=1)
        c.publish(topics.topic(name, topics.AVAILABILITY), topics.ONLINE, qos=1, retain=True)
        c.publish(topics.topic(name, topics.STATE), topics.encode(IDLE), qos=1, retain=True)

    def message(_c, _u, m):
        if m.payload:
            assigns.put((time.monotonic(), name, json.loads(m.payload)))

    client.on_connect = connected
    client.on_message = message
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client


def result_payload(table: str, assign: dict, side: str, n: int) -> dict:
    at = topics.now_iso()
    a, b = assign["players"]
    return {
        "table": table,
        "match_id": f"m{n}",
        "started": at,
        "first_shot": at,
        "ended": at,
        "assign": assign["id"],
        "players": {"A": a, "B": b},
        "finished": True,
        "winner": side,
        "frames": {"A": int(side == "A"), "B": int(side == "B")},
        "longest_run": {"A": 2 * (side == "A"), "B": 2 * (side == "B")},
        "frame_scores": [[2, 0] if side == "A" else [0, 2]],
        "fouls": {"A": {}, "B": {}},
        "n": n,
    }


async def run(tables: int, count: int, folder: Path) -> dict:
    url = f"sqlite:///{folder}/club.db"
    engine = open_database(url)
    ids = [players.add(engine, f"P{n:02d}") for n in range(1, count + 1)]
    tid = tournaments.create(
        engine, "Bench", DOUBLE, ids, settings={"race": 1, "target": 2}, draw_seed=22
    )
    keys = {f"t{n}": load_or_make(folder / f"t{n}") for n in range(1, tables + 1)}
    for name, key in keys.items():  # the staff approved each table's key (issue 34)
        table_keys.decide(engine, name, key.public, table_keys.APPROVED, by="staff")
    engine.dispose()
    broker = Broker(folder / "broker", autosave=sample_autosave()).start()
    port = free_port()
    club = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "club", "--broker", "127.0.0.1"]
        + ["--broker-port", str(broker.port), "--listen", "127.0.0.1", "--port", str(port)]
        + ["--data-dir", str(folder / "club"), "--database", url],
        stdout=subprocess.DEVNULL,
        stderr=open(os.environ.get("DESK_BENCH_LOG", os.devnull), "ab"),  # noqa: SIM115
    )
    assigns: queue.Queue = queue.Queue()
    clients = [table_client(broker.port, f"t{n}", assigns) for n in range(1, tables + 1)]
    figures = {"next": [], "sse": [], "json": [], "hall": [], "results": 0}
    try:
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            await until_http(http, base, tables)
            changed: asyncio.Queue = asyncio.Queue()
            events = await http.get(f"{base}/api/events", timeout=aiohttp.ClientTimeout(total=None))
            sent: dict = {}
            reader = asyncio.ensure_future(read(events, changed, sent, figures["hall"]))
            states = asyncio.ensure_future(publish_states(clients, sent))
            held: dict[str, dict] = {}  # table -> the game it holds, not played yet
            rng = random.Random(22)
            async with http.get(f"{base}/api/tournaments/{tid}") as r:
                page = await r.json()
            await drain(assigns, held, {f"T{tid}-{g}" for g in page["ready"][:tables]})
            champion = None
            while champion is None:
                table = sorted(held)[rng.randrange(len(held))]
                assign = held.pop(table)
                game = assign["id"].split("-", 1)[1]
                while not changed.empty():
                    changed.get_nowait()
                t0 = time.monotonic()
                clients[int(table[1:]) - 1].publish(
                    topics.topic(table, topics.RESULT, f"m{figures['results']}"),
                    topics.encode(
                        signature.sign(
                            result_payload(table, assign, rng.choice("AB"), figures["results"]),
                            keys[table],
                        )
                    ),
                    qos=1,
                )
                figures["results"] += 1
                recorded = False
                while not recorded:  # the page's SSE, then its JSON, until the result is in it
                    seen = await asyncio.wait_for(changed.get(), 30.0)
                    t1 = time.monotonic()
                    async with http.get(f"{base}/api/tournaments/{tid}") as r:
                        page = await r.json()
                    figures["json"].append(time.monotonic() - t1)
                    recorded = any(g["id"] == game and g["winner"] for g in page["games"])
                figures["sse"].append(seen - t0)
                champion = page["champion"]
                out = {h["id"] for h in held.values()}
                want = {f"T{tid}-{g}" for g in page["at"]} - out
                if want:
                    figures["next"].append(await drain(assigns, held, want) - t0)
            figures["rss"] = rss(club.pid)
            figures["champion"] = champion
            states.cancel()
            await asyncio.sleep(1.0)  # the last states arrive
            figures["lost"] = len(sent)
            reader.cancel()
            events.close()
    finally:
        for client in clients:
            client.loop_stop()
            client.disconnect()
        club.terminate()
        club.wait()
        broker.stop()
    return figures


async def drain(assigns: queue.Queue, held: dict, want: set[str]) -> float:
    """Wait until the tables have the assigns `want` (their ids); the first one's arrival."""
    deadline = time.monotonic() + 30.0
    first = None
    while want:
        try:
            at, table, assign = assigns.get_nowait()
        except queue.Empty:
            if time.monotonic() > deadline:
                raise SystemExit(f"no assign {sorted(want)} came to a table") from None
            await asyncio.sleep(0.001)
            continue
        if assign["id"] in want:
            want.discard(assign["id"])
            held[table] = assign
            first = at if first is None else first
    return first


async def read(events, changed: asyncio.Queue, sent: dict, hall: list) -> None:
    async for line in events.content:
        if not line.startswith(b"data: "):
            continue
        message = json.loads(line[6:])
        if message["type"] == "tournament":
            changed.put_nowait(time.monotonic())
        elif message["type"] == "table":
            t0 = sent.pop((message["table"]["table"], message["table"]["events"]), None)
            if t0 is not None:
                hall.append(time.monotonic() - t0)


async def publish_states(clients: list, sent: dict) -> None:
    """Each table a new (idle) state a second, spread over the second, as tables in play do:
    the hall page's load while the tournament is played."""
    step = 1.0 / len(clients)
    k = 1000
    while True:
        for n, client in enumerate(clients, 1):
            await asyncio.sleep(step)
            k += 1
            sent[(f"t{n}", k)] = time.monotonic()
            state = {**IDLE, "events": k}
            client.publish(
                topics.topic(f"t{n}", topics.STATE), topics.encode(state), qos=1, retain=True
            )


async def until_http(http, base: str, tables: int) -> None:
    for _ in range(600):
        try:
            async with http.get(f"{base}/api/tables") as r:
                body = await r.json() if r.status == 200 else {}
                if body.get("broker") and len(body.get("tables", [])) >= tables:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("scoreboard club did not start, or did not see the tables")


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def pct(values: list[float]) -> str:
    ms = sorted(x * 1000 for x in values)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms ({len(ms)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--players", type=int, default=64)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        f = asyncio.run(run(args.tables, args.players, Path(folder)))
    print(
        f"desk, {args.players}-player double elimination on {args.tables} tables "
        f"({f['results']} results, champion {f['champion']}):"
    )
    print(f"  result -> next match at a free table: {pct(f['next'])}")
    print(f"  result -> bracket page's SSE event: {pct(f['sse'])}")
    print(f"  /api/tournaments/<id> JSON: {pct(f['json'])}")
    print(
        f"  a table's state -> the hall page's SSE event: {pct(f['hall'])}, "
        f"{f['lost']} did not reach the page"
    )
    print(f"  scoreboard club RSS at the end: {f['rss'] / 2**20:.1f} MiB")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
