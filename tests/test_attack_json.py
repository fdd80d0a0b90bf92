"""What a client of the local socket or the club's broker may send (issue 21): JSON as RFC
8259 has it. NaN or Infinity is refused (a pairing code shown for NaN seconds set a timer the
loop could not order), nesting too deep is a refusal, never an unhandled RecursionError, and
the table plays on after each."""

import math

import pytest
from bridge_helpers import LineClient, table
from helpers import press

from scoreboard.bridge import socket_path
from scoreboard.bridge.protocol import ProtocolError, parse_command
from scoreboard.mqtt.topics import AssignError, parse_assign

DEEP = b"[" * 30_000 + b"]" * 30_000  # within the socket's 64 KiB line


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400", b"-1e400"])
def test_a_command_with_nan_or_infinity_is_refused_at_the_edge(number):
    line = b'{"type": "command", "id": "1", "cmd": "pairing-code", "code": "042917", '
    with pytest.raises(ProtocolError, match="not a number JSON has"):
        parse_command(line + b'"seconds": ' + number + b"}")
    with pytest.raises(AssignError, match="not a number JSON has"):
        parse_assign(b'{"id": "m1", "race": ' + number + b"}")


def test_nesting_too_deep_is_a_refusal_never_a_recursion_error():
    with pytest.raises(ProtocolError, match="nested too deep"):
        parse_command(DEEP)
    with pytest.raises(AssignError, match="nested too deep"):
        parse_assign(b'{"id": "m1", "players": ' + b"[" * 3000 + b"]" * 3000 + b"}")


def test_an_assign_larger_than_a_real_one_is_refused_at_the_edge():
    """Issue 21: a 70 KB retained assign became a command over the socket's 64 KiB line: the
    link to the table flapped 178 times in 35 s, and again after it was cleared."""
    big = b'{"id": "m1", "players": ["' + b"a" * 70_000 + b'", "Taras"]}'
    with pytest.raises(AssignError, match="too large: 70038 bytes"):
        parse_assign(big)
    assert parse_assign(b'{"id": "m1", "players": ["Olena", "Taras"], "race": 3}')["race"] == 3


def test_the_table_refuses_a_code_shown_for_nan_seconds_and_plays_on(tmp_path):
    a = table(tmp_path)
    try:
        with pytest.raises(ValueError, match="not nan"):
            a.app.phone.show_code("042917", "", math.nan)  # however it came
        client = LineClient(socket_path(tmp_path))
        client.next()
        for line in (DEEP + b"\n", b'{"type": "command", "id": "2", "seconds": NaN}\n'):
            client.send(line)
            reply = client.next(pump=a.loop.run_pending, kind="reply")
            assert not reply["ok"] and "not JSON" in reply["message"]
        press(a, a.config.pins.player_a)  # the lag: A breaks; the timers still run
        assert a.app.match.snapshot()["breaker"] == "A"
    finally:
        a.close()
