"""`scoreboard sim [--state-dir DIR] [--config PATH]`: the appliance on simulated hardware."""

from scoreboard import config as configuration
from scoreboard.cli import UsageError
from scoreboard.display import DISPLAYS

DEFAULT_STATE_DIR = "state"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sim",
        help="run the appliance on simulated hardware in the terminal",
        description=(
            "The real appliance with mock pins driven from the keyboard, a simulated sensor "
            "board behind a pseudo-terminal and the display emulated in the terminal. Keys: "
            "a/b press a player's button, A/B hold it, f FOUL, F hold FOUL, u UNDO, U hold UNDO, "
            "1-6 a ball falls into that pocket, q quits."
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
    parser.set_defaults(run=run)


def run(args) -> int:
    from scoreboard.sim import run_sim

    try:
        config = configuration.load(args.config) if args.config else configuration.default()
    except configuration.ConfigError as exc:
        raise UsageError(str(exc)) from None
    return run_sim(config, state_dir=args.state_dir, emulates=args.display)
