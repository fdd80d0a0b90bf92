"""`scoreboard sim [--state-dir DIR] [--config PATH] [--lang uk|ru|en]`: the appliance on
simulated hardware, in the terminal."""

import importlib.util
from dataclasses import replace

from scoreboard import config as configuration
from scoreboard.commands import UsageError
from scoreboard.display import DISPLAYS, LANGUAGES

DEFAULT_STATE_DIR = "state"
# What the emulated displays need, from the `sim` extra (luma.emulator pulls in pygame).
EMULATOR_MODULES = ("luma.emulator.device", "pygame")
MISSING_EMULATOR = (
    "the simulator draws the display with luma.emulator, which is not installed (no module {module}). "
    "It comes with the scoreboard's `sim` extra: pip install 'pyramid-scoreboard[sim]' "
    "(from a clone: pip install '.[sim]', or just `make sim`, which sets everything up)"
)


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="run the appliance on simulated hardware in the terminal",
        description=(
            "The real appliance with mock pins driven from the keyboard, a simulated sensor "
            "board behind a pseudo-terminal and the display emulated in the terminal (80x24 "
            "and up). Keys: a/b press a player's button, A/B hold it, f FOUL, F hold FOUL, "
            "u UNDO, U hold UNDO, 1-6 a ball falls into that pocket, l the next language, "
            "q quits."
        ),
    )
    parser.add_argument(
        "--state-dir",
        default=DEFAULT_STATE_DIR,
        metavar="DIR",
        help=f"where the journal lives (default ./{DEFAULT_STATE_DIR}); a journal there resumes",
    )
    parser.add_argument("--config", metavar="PATH", help="a config file (default: the defaults)")
    parser.add_argument(
        "--display",
        default="ssd1306",
        choices=DISPLAYS,
        help="the display the terminal emulates (default ssd1306)",
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        help="the display language to start in (default: the config's); the l key changes it",
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="serve the web face too (scoreboard net), on localhost only; the address is shown",
    )
    parser.add_argument(
        "--web-port", type=int, metavar="PORT", help="its port (default: the config's [web] port)"
    )
    parser.add_argument(
        "--mqtt",
        metavar="HOST[:PORT]",
        help="with --web: publish the table to this MQTT broker too (or set [mqtt] in --config)",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    for module in EMULATOR_MODULES:  # found, not imported: pygame greets on import
        try:
            found = importlib.util.find_spec(module) is not None
        except ImportError:  # its package is missing
            found = False
        if not found:
            raise UsageError(MISSING_EMULATOR.format(module=module))
    from scoreboard.sim import run_sim
    from scoreboard.store.journal import JournalError

    try:
        config = configuration.load(args.config) if args.config else configuration.default()
    except configuration.ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.lang:
        config = replace(config, display=replace(config.display, language=args.lang))
    net_args = ["--config", args.config] if args.config else []
    if args.mqtt:
        from scoreboard.mqtt.publisher import broker_option

        try:
            config = broker_option(args.mqtt, config)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        net_args += ["--mqtt", args.mqtt]
    try:
        web_port = (args.web_port or config.web.port) if args.web else None
        return run_sim(
            config,
            state_dir=args.state_dir,
            emulates=args.display,
            web_port=web_port,
            net_args=net_args,
            lang=args.lang,
        )
    except JournalError as exc:
        raise UsageError(
            f"{exc}: another `scoreboard sim` (or `scoreboard run`) is playing the match kept "
            f"there. Quit it (q), or start this one with its own --state-dir"
        ) from None
