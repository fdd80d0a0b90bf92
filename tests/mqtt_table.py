"""A table as the MQTT publisher sees it, for the tests: a state folder with a real journal
(and archive), and the table socket's messages (scoreboard/bridge/protocol.py) fed from a
queue. The states are real Match snapshots of match logs."""

import asyncio
import dataclasses
import json

from scoreboard import config as configuration
from scoreboard.core.confirmation import TIMED_OUT_COMMENT, confirm_line
from scoreboard.core.matchlog import replay
from scoreboard.core.summary import summarise
from scoreboard.store.journal import Journal


# A match Olena wins 8 : 0 in one frame, started at `started`.
def match_lines(started: str, a="Olena", b="Taras", *, pots=(3, 5)) -> list[str]:
    return [f"# match started {started}", f"players {a} {b}", "race 1", "target 8", "break A"] + [
        f"shot pots={n}" for n in pots
    ]


def closed(lines: list[str], how: str = "confirmed") -> list[str]:
    """A finished match's lines as the table's journal holds them once its players have
    closed the result (issue 34): both pressed their buttons ("confirmed"), or their time ran
    out ("timed-out"). Only then does the network side send the result."""
    if how == "confirmed":
        return [*lines, confirm_line("A"), confirm_line("B")]
    assert how == "timed-out", how
    return [*lines, confirm_line("A"), TIMED_OUT_COMMENT]  # one of them pressed, not both


def snapshot(lines: list[str]) -> dict:
    return replay(lines).snapshot()


def state_message(lines: list[str], faults=()) -> dict:
    return {"type": "state", "state": snapshot(lines), "faults": list(faults), "hint": None}


def write_journal(state_dir, lines: list[str]) -> None:
    """Each line one record, as the app writes them."""
    with Journal(state_dir) as journal:
        for line in lines:
            journal.append([line])


def archive(state_dir, lines: list[str]) -> None:
    """The match in the journal archived as the app archives it when a new match starts."""
    with Journal(state_dir) as journal:
        journal.archive(summarise(replay(lines), lines))


class Feed:
    """The table's socket as an async iterator: `put` a message, `close` to end it."""

    def __init__(self):
        self.queue: asyncio.Queue = asyncio.Queue()

    def put(self, message: dict) -> None:
        self.queue.put_nowait(message)

    def close(self) -> None:
        self.queue.put_nowait(None)

    def __aiter__(self):
        return self

    async def __anext__(self) -> dict:
        message = await self.queue.get()
        if message is None:
            raise StopAsyncIteration
        return message


def decoded(payloads: list[bytes]) -> list:
    return [json.loads(p) if p else None for p in payloads]


def table_config(broker, name: str):
    """A table's config on gpio pocket sensors, publishing to `broker` as table `name`."""
    cfg = configuration.default()
    mqtt = configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "{name}"\n'
        "keepalive = 2\n"
    ).mqtt
    return dataclasses.replace(
        cfg, sensors=dataclasses.replace(cfg.sensors, source="gpio"), mqtt=mqtt
    )


def approve_table_keys(engine, folders: dict) -> None:
    """The club's staff approve each table's key (issue 34) as read off the table (`scoreboard
    status`): {table: its state folder}. The key is made there by the table's start."""
    from scoreboard.clubdb import table_keys
    from scoreboard.signing.table_key import load_or_make

    for name, folder in folders.items():
        key = load_or_make(folder).public
        table_keys.decide(engine, name, key, table_keys.APPROVED, by="staff")
