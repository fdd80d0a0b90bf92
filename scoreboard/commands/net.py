"""`scoreboard net [--config PATH | --state-dir DIR] [--host HOST] [--port PORT]`: the table's
web face (issue 12), a process of its own beside `scoreboard run` (scoreboard-net.service)."""

from scoreboard import config as configuration
from scoreboard.commands import UsageError, require
from scoreboard.commands.status import add_state_dir, state_dir


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "net",
        help="serve the table's web face: live score, OBS overlay, history, API",
        description=(
            "Serve the live score for phones (/), an OBS overlay (/overlay), the match history "
            "(/history) and the API (/api/state, /api/events; docs/API.md), reading the table "
            "through its local socket in the state directory."
        ),
    )
    add_state_dir(parser)
    parser.add_argument("--host", help="the address to listen on (default: every interface)")
    parser.add_argument("--port", type=int, help="the port (default: the config's [web] port)")
    parser.add_argument(
        "--mqtt",
        metavar="HOST[:PORT]",
        help="publish the table to this MQTT broker ([mqtt] enabled, the rest as configured)",
    )
    parser.add_argument(
        "--enabled",
        action="store_true",
        help="serve nothing: exit 0 if the config has [web] or [mqtt] on, else 1 "
        "(the unit's ExecCondition: off until a club switches one on)",
    )
    parser.set_defaults(run=run)


def load_config(path: str):
    try:
        return configuration.load(path)
    except configuration.ConfigError:
        if path == str(configuration.DEFAULT_PATH) and not configuration.DEFAULT_PATH.exists():
            return configuration.default()
        raise


def run(args) -> int:
    if not args.enabled:
        require("the web face", "aiohttp")
    import asyncio

    from scoreboard.net import address
    from scoreboard.net.listen import Served, serve_until_stopped
    from scoreboard.net.server import make_app

    try:
        config = load_config(args.config)
    except configuration.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.enabled:
        return 0 if config.web.enabled or config.mqtt.enabled else 1
    if args.mqtt:
        from scoreboard.mqtt.publisher import broker_option

        try:
            config = broker_option(args.mqtt, config)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    where = state_dir(args)
    host, port = address(config, host=args.host)
    port = args.port or port
    if config.mqtt.enabled:
        require("publishing to the club's MQTT broker", "paho")
    if config.mqtt.enabled and not (config.web.enabled or args.port or args.host):
        m = config.mqtt  # [mqtt] without [web]: no web face to serve
        print(f"scoreboard net: table {m.table} to MQTT {m.host}:{m.port} only", flush=True)
        return publish_only(config, where)
    shown = host if host and ":" not in host else f"[{host}]" if host else "<this machine>"
    print(f"scoreboard net: http://{shown}:{port}/ (the table in {where})", flush=True)
    app = make_app(
        where, lang=config.display.language, port=port, host=host, roster=config.match.roster
    )
    if config.mqtt.enabled:  # the tables together (scoreboard/mqtt/): beside the web face
        from scoreboard.mqtt.publisher import attach
        from scoreboard.net.server import TABLE

        attach(app, config, state_dir=where, table=app[TABLE])
        print(
            f"scoreboard net: table {config.mqtt.table} to MQTT {config.mqtt.host}:{config.mqtt.port}",
            flush=True,
        )
    try:
        asyncio.run(serve_until_stopped(Served(app), host, port))
    except OSError as exc:
        raise UsageError(f"cannot listen on port {port}: {exc.strerror or exc}") from None
    return 0


def publish_only(config, where: str) -> int:
    """The MQTT publisher alone, following the table's socket, until SIGTERM or SIGINT."""
    import asyncio
    import contextlib
    import signal

    from scoreboard.bridge import socket_path
    from scoreboard.bridge.client import TableClient
    from scoreboard.mqtt.publisher import serve

    async def main() -> None:
        table = TableClient(socket_path(where))
        table.start()
        task = asyncio.create_task(serve(config, table, state_dir=where))
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        await stop.wait()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await table.close()

    asyncio.run(main())
    return 0
