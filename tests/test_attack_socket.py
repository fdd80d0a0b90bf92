"""The local socket never lets the network fill the table (issue 21): 30 s of `setup` over it
queued 952,950 commands and the table grew from 64 MB to 1.25 GB. Commands waiting for the
table are bounded per client and in all, more are answered "busy" at once, and one the table
takes after its client gave up is withdrawn, never run late."""

import queue

from bridge_helpers import LineClient, table

from scoreboard.bridge import socket_path
from scoreboard.bridge.protocol import Command
from scoreboard.bridge.table import (
    CLIENTS_AT_MOST,
    COMMANDS_BURST,
    COMMANDS_PER_SECOND,
    WAITING_AT_MOST,
    WAITING_PER_CLIENT,
    WITHDRAW_AFTER,
    BridgeCommand,
    TableBridge,
)

SETUP = {"type": "command", "cmd": "setup", "race": 3}


def test_a_flood_of_commands_waits_bounded_and_the_rest_is_busy_at_once(tmp_path):
    a = table(tmp_path)
    try:
        client = LineClient(socket_path(tmp_path))
        client.next()
        for n in range(200):
            client.send({**SETUP, "id": str(n)})
        busy = [client.next(kind="reply") for _ in range(200 - WAITING_PER_CLIENT)]
        assert all(not r["ok"] and r["message"].startswith("busy") for r in busy)
        assert {r["id"] for r in busy} == {str(n) for n in range(WAITING_PER_CLIENT, 200)}
        answered = [client.next(pump=a.loop.run_pending, kind="reply") for _ in range(4)]
        assert [r["id"] for r in answered] == ["0", "1", "2", "3"] and all(
            r["ok"] for r in answered
        )
        client.send({**SETUP, "id": "again"})  # answered: room again
        assert client.next(pump=a.loop.run_pending, kind="reply") == {
            "type": "reply", "id": "again", "ok": True, "message": "this match",
        }  # fmt: skip
    finally:
        a.close()


def test_all_clients_together_wait_at_most_a_bounded_number(tmp_path):
    a = table(tmp_path)
    try:
        clients = [LineClient(socket_path(tmp_path)) for _ in range(WAITING_AT_MOST)]
        for c in clients:
            c.next()
        for i, c in enumerate(clients):
            for n in range(WAITING_PER_CLIENT):
                c.send({**SETUP, "id": f"{i}-{n}"})
        replies = [c.next(kind="reply") for c in clients[WAITING_AT_MOST // WAITING_PER_CLIENT :]]
        assert all(r["message"].startswith("busy") for r in replies)  # the table has 16 waiting
    finally:
        a.close()


def test_a_command_the_table_takes_after_its_client_gave_up_is_withdrawn(tmp_path):
    now = [100.0]
    ran, replies = [], []

    class Commands:
        def __contains__(self, name):
            return True

        def run(self, name, args):
            ran.append(name)
            return True, "done"

    bridge = TableBridge(
        tmp_path / "t.sock", commands=Commands(), put=queue.SimpleQueue().put, clock=lambda: now[0]
    )
    reply = lambda ok, message: replies.append((ok, message))  # noqa: E731
    bridge.run_command(BridgeCommand(Command("1", "setup", {}), reply, now[0] + WITHDRAW_AFTER))
    now[0] += WITHDRAW_AFTER + 0.1
    bridge.run_command(BridgeCommand(Command("2", "setup", {}), reply, 100.0 + WITHDRAW_AFTER))
    assert ran == ["setup"]
    assert replies == [(True, "done"), (False, "withdrawn: it waited too long for the table")]


class Taken:
    """A table's command table that runs anything and counts it; the bridge's own clock."""

    def __init__(self, tmp_path):
        self.now, self.ran, self.queue = 100.0, [], queue.SimpleQueue()
        self.bridge = TableBridge(
            tmp_path / "t.sock",
            commands=self,
            put=self.queue.put,
            clock=lambda: self.now,
            warn=lambda m: None,
            log=lambda m: None,
        )
        self.bridge.start()

    def __contains__(self, name):
        return True

    def run(self, name, args):
        self.ran.append(name)
        return True, "done"

    def pump(self):  # the table's loop: every command waiting, taken
        while not self.queue.empty():
            self.bridge.run_command(self.queue.get())

    def ask(self, client, n) -> dict:
        client.send({**SETUP, "id": str(n)})
        return client.next(pump=self.pump, kind="reply")


def test_a_client_may_send_a_burst_then_so_many_a_second(tmp_path):
    """Issue 21: a client that waits for each answer still kept the table's loop busy with
    commands back to back; now a burst, then COMMANDS_PER_SECOND, the rest busy at once."""
    t = Taken(tmp_path)
    try:
        client = LineClient(t.bridge.path)
        replies = [t.ask(client, n) for n in range(COMMANDS_BURST + 5)]
        assert [r["ok"] for r in replies] == [True] * COMMANDS_BURST + [False] * 5
        assert replies[-1]["message"] == "busy: too many commands; send again in 0.1 s"
        assert len(t.ran) == COMMANDS_BURST
        t.now += 1.0  # a second later: that second's share
        again = [t.ask(client, n)["ok"] for n in range(int(COMMANDS_PER_SECOND) + 2)]
        assert again == [True] * int(COMMANDS_PER_SECOND) + [False, False]
    finally:
        t.bridge.stop()


def test_all_clients_together_have_a_rate_too_and_more_clients_are_turned_away(tmp_path):
    t = Taken(tmp_path)
    try:
        clients = [LineClient(t.bridge.path) for _ in range(4)]
        oks = [t.ask(c, n)["ok"] for n in range(COMMANDS_BURST) for c in clients]
        assert sum(oks) == 2 * COMMANDS_BURST and not any(oks[2 * COMMANDS_BURST :])
        more = [LineClient(t.bridge.path) for _ in range(CLIENTS_AT_MOST)]  # 36 in all
        turned_away = 0
        for n, c in enumerate(more):
            try:
                t.ask(c, f"more-{n}")  # answered (busy: the rate is spent): let in
            except (ConnectionError, BrokenPipeError):
                turned_away += 1
        assert turned_away == 4
    finally:
        t.bridge.stop()
