"""The table's web face (issue 12): `scoreboard net`, a process of its own that serves the live
score, the OBS overlay, the history and the API over HTTP and Server-Sent Events, reading the
table through its local socket (scoreboard/bridge/), so no client can ever hold up the table.
"""

ALL_INTERFACES = None  # aiohttp: every interface, IPv4 and IPv6 (phones on the club's Wi-Fi)


def address(config, *, host: str | None = ALL_INTERFACES) -> tuple[str | None, int]:
    """Where `scoreboard net` listens: the config's [web] port, on `host` (all by default)."""
    return host, config.web.port
