"""`scoreboard run [--config PATH]`: the appliance on the Pi: real pins, displays, sensor board."""

import logging
import os
import signal
import sys

from scoreboard import config as configuration
from scoreboard.commands import UsageError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "run",
        help="run the appliance (on the Pi; the systemd service runs this)",
        description="Run the scoreboard on real pins, displays and the sensor board.",
    )
    parser.add_argument(
        "--config",
        default=str(configuration.DEFAULT_PATH),
        metavar="PATH",
        help=f"the config file (default {configuration.DEFAULT_PATH})",
    )
    parser.add_argument("--state-dir", metavar="DIR", help="overrides [service] state_dir")
    parser.set_defaults(run=run)


def configure_logging(config) -> None:
    """stderr is the systemd journal, which keeps its own timestamps. Libraries say only
    their warnings; ours speak at the config's level."""
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(message)s", stream=sys.stderr
    )
    logging.getLogger("scoreboard").setLevel(config.service.log_level.upper())


def show_mistake(path, error, notifier) -> None:
    """The settings' mistake on the displays in words until the file changes (or SIGTERM);
    then `run` returns and systemd starts the table again (scoreboard/table/settings_mistake.py)."""
    import threading

    from scoreboard.display import create_displays
    from scoreboard.table.settings_mistake import MistakeScreen
    from scoreboard.table.wiring import screen_specs

    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(message)s", stream=sys.stderr
    )
    logging.getLogger("scoreboard").setLevel(logging.INFO)
    display = configuration.display_of(path)
    specs = screen_specs(configuration.Config(display=display))
    screens = create_displays(specs, lang=display.language)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    MistakeScreen(path, error, screens, notifier=notifier).run(stop)


def run(args) -> int:
    from gpiozero.exc import BadPinFactory

    from scoreboard.store.journal import JournalError
    from scoreboard.table.service import systemd_notifier
    from scoreboard.table.wiring import Appliance

    try:
        config = configuration.load(args.config)
    except configuration.ConfigError as exc:
        if not os.environ.get("NOTIFY_SOCKET"):  # in a terminal: said there, and stop
            raise UsageError(str(exc)) from None
        show_mistake(args.config, exc, systemd_notifier())  # under systemd: on the displays
        return 0
    configure_logging(config)
    try:
        appliance = Appliance(
            config,
            state_dir=args.state_dir or config.service.state_dir,
            notifier=systemd_notifier(),
        )
    except JournalError as exc:
        raise UsageError(str(exc)) from None
    except BadPinFactory as exc:
        raise UsageError(
            f"no GPIO on this machine ({exc}); on a laptop run `scoreboard sim`, "
            "or set GPIOZERO_PIN_FACTORY=mock"
        ) from None
    signal.signal(signal.SIGTERM, lambda *_: appliance.stop())
    # `systemctl reload scoreboard` (ExecReload): the config read again, never a restart.
    signal.signal(signal.SIGHUP, lambda *_: appliance.reload(args.config))
    appliance.app.log(f"scoreboard running, state in {appliance.app.storage.state_dir}")
    appliance.run()
    return 0
