"""The local socket between the table process and the network process (issue 12).

The table (`scoreboard run` / `sim`) serves a Unix stream socket, `<state_dir>/table.sock`,
lines of JSON (protocol.py). The network process (`scoreboard net`, the MQTT publisher, the
club page) connects with client.py. The table never waits on it: table.py only hands lines to
its own thread, each client has a bounded buffer, and a client that does not read is dropped.
"""

from pathlib import Path

SOCKET_NAME = "table.sock"


def socket_path(state_dir) -> Path:
    """Where the table's socket is, for a state directory."""
    return Path(state_dir) / SOCKET_NAME


def wanted(config) -> bool:
    """Whether the table serves the socket: only when something on the network reads it
    ([web] enabled, or [mqtt] enabled where the config has that section)."""
    mqtt = getattr(config, "mqtt", None)
    return bool(config.web.enabled or (mqtt is not None and getattr(mqtt, "enabled", False)))
