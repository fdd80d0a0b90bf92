"""The local socket between the table and the network process (issue 12, docs/API.md): the
state on connect and after each change shown, each accepted event, commands and replies, and
a client that does not read never holds up the table."""

import asyncio
import json
import os
import socket
import stat
import time

import pytest
from bridge_helpers import LineClient, table, web_config
from helpers import PATIENCE, press, settle

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient, TableUnreachable
from scoreboard.core.matchlog import replay
from scoreboard.store.journal import read_journal


@pytest.fixture
def a(tmp_path):
    appliance = table(tmp_path)
    yield appliance
    appliance.close()


def status_json(state_dir) -> dict:
    """What `scoreboard status --json` prints for the journal."""
    return json.loads(json.dumps(replay(read_journal(state_dir).lines).snapshot()))


def test_the_socket_is_served_only_when_the_web_is_enabled(tmp_path):
    off = table(tmp_path / "off", web_config(enabled=False))
    try:
        assert off.bridge is None and not socket_path(tmp_path / "off").exists()
    finally:
        off.close()
    on = table(tmp_path / "on")
    try:
        mode = os.stat(socket_path(tmp_path / "on")).st_mode
        assert stat.S_ISSOCK(mode) and stat.S_IMODE(mode) == 0o660  # the group's to connect
    finally:
        on.close()
    assert not socket_path(tmp_path / "on").exists()  # removed when the table stops


def test_a_socket_left_by_a_killed_table_is_replaced(tmp_path):
    stale = socket.socket(socket.AF_UNIX)
    stale.bind(str(socket_path(tmp_path)))  # a socket file nobody listens on
    stale.close()
    second = table(tmp_path)
    try:
        client = LineClient(socket_path(tmp_path))
        assert client.next()["type"] == "state"
    finally:
        second.close()


def test_state_on_connect_and_after_each_change_is_what_status_json_prints(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    first = client.next()
    assert first["type"] == "state" and first["state"] == status_json(tmp_path)
    assert first["lang"] == "en" and first["faults"] == [] and first["hint"] is None
    press(a, a.config.pins.player_a)  # lag: A breaks (GR-8.4)
    state = client.next(pump=a.loop.run_pending, kind="state")
    assert state["state"]["phase"] == "break" and state["state"]["breaker"] == "A"
    assert state["state"] == status_json(tmp_path)


def test_each_accepted_event_is_sent_with_its_line_number_in_the_journal(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    press(a, a.config.pins.player_a)
    event = client.next(pump=a.loop.run_pending, kind="event")
    assert event["line"] == "break A"
    assert read_journal(tmp_path).lines[event["n"] - 1] == "break A"


def test_undo_by_command_takes_back_the_last_step_and_replies(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    press(a, a.config.pins.player_a)
    assert a.app.match.snapshot()["phase"] == "break"
    client.send({"type": "command", "id": "u1", "cmd": "undo"})
    reply = client.next(pump=a.loop.run_pending, kind="reply")
    assert reply == {"type": "reply", "id": "u1", "ok": True, "message": "Undone: who breaks"}
    assert a.app.match.snapshot()["phase"] == "lag"
    # The change was shown (and sent) before the reply.
    assert client.skipped[-1]["type"] == "state" and client.skipped[-1]["state"]["phase"] == "lag"
    client.send({"type": "command", "id": "u2", "cmd": "undo"})
    reply = client.next(pump=a.loop.run_pending, kind="reply")
    assert reply["id"] == "u2" and reply["ok"] is False and reply["message"] == "Nothing to undo"


def test_an_unknown_command_or_a_bad_line_gets_a_clear_error_reply(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    client.send({"type": "command", "id": "x", "cmd": "launch"})
    reply = client.next(kind="reply")
    assert reply["id"] == "x" and not reply["ok"]
    assert (
        reply["message"].startswith("unknown command 'launch' (known: ")
        and "undo" in reply["message"]
    )
    client.send(b"{not json\n")
    assert "not JSON" in client.next(kind="reply")["message"]
    client.send({"type": "hello"})
    assert "unknown message type" in client.next(kind="reply")["message"]
    assert a.app.match.snapshot()["phase"] == "lag"  # nothing happened at the table


def test_a_client_that_never_reads_is_dropped_and_the_table_goes_on(tmp_path):
    a = table(tmp_path)
    a.bridge.buffer_limit = 16 * 1024
    try:
        sleeper = LineClient(socket_path(tmp_path), rcvbuf=4096)  # never reads
        reader = LineClient(socket_path(tmp_path))
        reader.next()
        pins = a.config.pins
        presses = 0
        deadline = time.monotonic() + PATIENCE
        while a.bridge.dropped == 0 and time.monotonic() < deadline:
            # Each press and its UNDO: two states and two events the sleeper never takes.
            press(a, pins.player_a)
            press(a, pins.undo)
            reader.drain()
            presses += 1
        assert a.bridge.dropped == 1 and presses > 1
        # The reader got every change all along, the last one included.
        last = None
        while last is None or last["state"] != a.app.shown.snapshot:
            last = reader.next(pump=a.loop.run_pending, kind="state")
        sleeper.close()
    finally:
        a.close()


def test_the_asyncio_client_reconnects_by_itself_and_yields_states(tmp_path):
    async def scenario():
        a = table(tmp_path)
        path = socket_path(tmp_path)
        async with TableClient(path, answer_within=0.2) as client:
            await client.wait_connected(PATIENCE)
            assert client.state["state"]["phase"] == "lag"
            # The table's loop does not run here, so no answer can come: a short wait for it.
            with pytest.raises(TableUnreachable, match="no answer in 0.2 s"):
                await client.command("undo")
            a.close()  # the table stops (as on a restart)
            messages = client.messages()
            async with asyncio.timeout(PATIENCE):
                while (await anext(messages)) != {"type": "link", "connected": False}:
                    pass
                with pytest.raises(TableUnreachable, match="not connected"):
                    await client.command("undo")
                b = table(tmp_path)
                try:
                    press(b, b.config.pins.player_a)
                    while True:
                        message = await anext(messages)
                        if message["type"] == "state" and message["state"]["phase"] == "break":
                            break
                    assert client.connected
                finally:
                    b.close()

    asyncio.run(scenario())


def test_a_running_shot_clock_sends_no_state_only_the_match_does(tmp_path):
    """Issue 20: each second of a running shot clock was a state message on the socket (and so
    a retained MQTT `state` and `faults` publish, an SSE event): the screens' own ticks are not
    the match's data."""
    import dataclasses

    config = web_config()
    config = dataclasses.replace(
        config, shot_clock=dataclasses.replace(config.shot_clock, seconds=60.0)
    )
    a = table(tmp_path, config)
    client = LineClient(socket_path(tmp_path))
    try:
        client.next(pump=a.loop.run_pending, kind="state")  # the state on connecting
        press(a, a.config.pins.player_a)  # A breaks
        settle(a, 1.0)  # one button at a time
        press(a, a.config.pins.player_b)  # a miss: B at the table, his shot clock runs
        running = a.app.shown.snapshot["shot_clock"]
        settle(a, 30.0)
        assert a.app.shown.snapshot["shot_clock"] != running  # it ticked on the screens
        press(a, a.config.pins.player_a)  # a miss: A at the table
        states = []
        while not states or (states[-1]["state"]["phase"], states[-1]["state"]["striker"]) != (
            "play",
            "A",
        ):
            states.append(client.next(pump=a.loop.run_pending, kind="state"))
        assert all("shot_clock" not in m["state"] for m in states)
        # the break, the miss, the hints' comings and goings, the next miss: not 30 ticks
        assert len(states) <= 8, [m["state"]["phase"] for m in states]
        assert all(x != y for x, y in zip(states, states[1:], strict=False))
    finally:
        client.close()
        a.close()
