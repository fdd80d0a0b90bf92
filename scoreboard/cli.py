"""The `scoreboard` command line: finds every subcommand module and dispatches to it."""

import argparse
import functools
import importlib
import pkgutil
import sys

from scoreboard import __version__, commands
from scoreboard.commands import UsageError


@functools.cache
def command_names() -> tuple[str, ...]:
    """Every subcommand module's name: the package's folder is read once a process."""
    return tuple(sorted(info.name for info in pkgutil.iter_modules(commands.__path__)))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command, or for ``only`` (the one being run: a command's module
    is imported only when it runs, so `scoreboard replay` starts without the displays)."""
    parser = argparse.ArgumentParser(
        prog="scoreboard", description="Free Pyramid scoreboard appliance."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = command_names()
    for name in [only] if only in names else names:
        importlib.import_module(f"{commands.__name__}.{name}").register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    try:
        return args.run(args) or 0
    except UsageError as exc:
        print(f"scoreboard {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
