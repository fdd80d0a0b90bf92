"""`scoreboard replay LOG [--json]`: replay a match log and print the final state."""

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import BinaryIO

from scoreboard.commands import UsageError
from scoreboard.core.matchlog import LogError, replay
from scoreboard.core.summary import describe
from scoreboard.display import DISPLAYS, LANGUAGES


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="replay a match log and print the final state",
        description="Replay a match log (one event a line; '-' reads stdin) and print the final state.",
    )
    parser.add_argument("log", metavar="LOG", help="the match log, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print the state as one JSON object")
    parser.add_argument("--png", metavar="FILE", help="write the final screen as a PNG")
    parser.add_argument(
        "--display",
        default="ssd1306",
        choices=DISPLAYS,
        help="the display whose screen --png draws (default ssd1306)",
    )
    parser.add_argument(
        "--lang", default="uk", choices=LANGUAGES, help="language of --png (default uk)"
    )
    parser.set_defaults(run=run)


def read_lines(source: BinaryIO, path: str) -> Iterator[str]:
    """The log's lines one at a time, each decoded on its own so an error names its line."""
    try:
        for line_no, raw in enumerate(source, start=1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                reason = f"line {line_no} is not UTF-8 ({exc.reason})"
                raise UsageError(f"cannot read {path}: {reason}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def open_log(path: str) -> contextlib.AbstractContextManager[BinaryIO]:
    """The log as bytes: the file, or standard input for '-'."""
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller's with
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None


def run(args) -> int:
    with open_log(args.log) as source:
        try:
            match = replay(read_lines(source, args.log))
        except LogError as exc:
            raise UsageError(str(exc)) from None
    snapshot = match.snapshot()
    if args.png:
        write_png(snapshot, args)
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False))
    else:
        print(describe(snapshot))
    return 0


def write_png(snapshot: dict, args) -> None:
    from scoreboard.display import render_png

    try:
        render_png(snapshot, args.png, display=args.display, lang=args.lang)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise UsageError(f"cannot write the picture to {args.png}: {reason}") from None
