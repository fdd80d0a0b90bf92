"""One table in an OS process of its own, for `make tournament-test`: the Appliance on
gpiozero's mock pins in simulated time, its real journal in STATE_DIR, its real MQTT
publisher on the broker at PORT as table NAME. The test drives it over stdin, one command a
line, answered "ok" on stdout: `press A|B|foul|undo` (a button: after a match, a player's press that
confirms the result, issue 34), `ball N` (a ball in pocket N), `wait S` (S seconds of the
table's simulated time pass, nobody touching it: a result nobody confirms times out after
`[timings] confirm_result`, CONFIRM_SECONDS if given, else the default 180).
Prints "ready" once started. Killed with SIGKILL for a power cut; started again on the
same STATE_DIR.

    python tests/table_process.py STATE_DIR PORT NAME [CONFIRM_SECONDS]
"""

import asyncio
import dataclasses
import sys
from types import SimpleNamespace

from bridge_helpers import table
from helpers import settle
from mqtt_table import table_config

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.mqtt.publisher import serve


def act(a, line: str) -> None:
    word, arg = line.split()
    if word == "press":
        pins = a.config.pins
        pin = a.factory.pin(
            {"A": pins.player_a, "B": pins.player_b, "foul": pins.foul, "undo": pins.undo}[arg]
        )
        pin.drive_low()
        settle(a, 0.1)
        pin.drive_high()
        settle(a, 0.1)
    elif word == "ball":
        pin = a.factory.pin(a.config.pins.pockets[int(arg)])
        pin.drive_low()
        settle(a, 0.04)
        pin.drive_high()
        settle(a, 0.05)
    elif word == "wait":
        settle(a, float(arg), step=0.1)


def config(port: str, name: str, confirm_seconds: str | None):
    cfg = table_config(SimpleNamespace(port=int(port)), name)
    if confirm_seconds is None:
        return cfg
    timings = dataclasses.replace(cfg.timings, confirm_result=float(confirm_seconds))
    return dataclasses.replace(cfg, timings=timings)


async def main(state_dir: str, port: str, name: str, confirm_seconds: str | None = None) -> None:
    a = table(state_dir, config(port, name, confirm_seconds))
    client = TableClient(socket_path(state_dir))
    client.start()
    asyncio.ensure_future(serve(a.config, client, state_dir=state_dir))
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue = asyncio.Queue()
    loop.add_reader(sys.stdin.fileno(), lambda: lines.put_nowait(sys.stdin.readline()))
    print("ready", flush=True)
    while True:
        try:
            line = await asyncio.wait_for(lines.get(), 0.005)
        except TimeoutError:
            a.loop.run_pending()  # the bridge's and the app's own work, between commands
            continue
        if not line:
            return  # stdin closed: the test is done
        act(a, line)
        print("ok", flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
