"""`scoreboard status [--state-dir DIR] [--json]`: the state the journal holds, as a restart shows it."""

import json

from scoreboard.cli import UsageError
from scoreboard.journal import read_journal
from scoreboard.matchlog import LogError, replay
from scoreboard.summary import describe

DEFAULT_STATE_DIR = "/var/lib/scoreboard"


def add_state_dir(parser) -> None:
    parser.add_argument(
        "--state-dir",
        default=DEFAULT_STATE_DIR,
        metavar="DIR",
        help=f"the appliance's state directory (default {DEFAULT_STATE_DIR})",
    )


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "status",
        help="print the state the journal holds",
        description="The state that the journal holds: what the appliance shows after a restart.",
    )
    add_state_dir(parser)
    parser.add_argument("--json", action="store_true", help="print the state as one JSON object")
    parser.set_defaults(run=run)


def run(args) -> int:
    journal = read_journal(args.state_dir)
    try:
        snapshot = replay(journal.lines).snapshot()
    except LogError as exc:
        raise UsageError(f"the journal in {args.state_dir} does not replay: {exc}") from None
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False))
    else:
        if not journal.lines:
            print(f"no match in progress in {args.state_dir}")
            return 0
        print(describe(snapshot))
        if journal.torn:
            print(str(journal.torn))
    return 0
