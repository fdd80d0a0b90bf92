"""`scoreboard replay LOG [--json]`: replay a match log and print the final state."""

import json
import sys

from scoreboard.cli import UsageError
from scoreboard.display import DISPLAYS, LANGUAGES
from scoreboard.matchlog import LogError, replay


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


def read_lines(path: str) -> list[str]:
    if path == "-":
        return sys.stdin.read().splitlines()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None


def run(args) -> int:
    lines = read_lines(args.log)
    try:
        match = replay(lines)
    except LogError as exc:
        raise UsageError(str(exc)) from None
    snapshot = match.snapshot()
    if args.png:
        from scoreboard.display import render_png

        render_png(snapshot, args.png, display=args.display, lang=args.lang)
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False))
    else:
        print(describe(snapshot))
    return 0


def describe(s: dict) -> str:
    """A few lines a person reads: phase, score, frames, who is to act."""
    names = s["players"]
    lines = [
        f"{names['A']} {s['score']['A']} : {s['score']['B']} {names['B']}"
        f"   frames {s['frames']['A']} ({s['race']}) {s['frames']['B']}",
        f"frame {s['frame']}, phase {s['phase']}, {s['balls_on_table']} balls on the table",
    ]
    if s["winner"]:
        lines.append(f"match won by {names[s['winner']]}")
    elif s["striker"]:
        lines.append(f"at the table: {names[s['striker']]}")
    elif s["decider"]:
        foul = s["foul"]
        lines.append(
            f"foul by {names[foul['offender']]} ({', '.join(foul['kinds'])}): "
            f"{names[s['decider']]} takes a ball, spots {foul['to_spot']}, "
            f"chooses {' | '.join(s['choices'])}"
        )
    elif s["frame_winner"]:
        lines.append(f"frame won by {names[s['frame_winner']]}")
    return "\n".join(lines)
