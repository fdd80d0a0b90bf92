"""`scoreboard status [--state-dir DIR] [--json]`: the state the journal holds, as a restart shows it."""

import json
import sys
from pathlib import Path

from scoreboard.cli import UsageError
from scoreboard.journal import JOURNAL_NAME, Replay, read_journal
from scoreboard.matchlog import LogError, replay
from scoreboard.storage import classify, diagnose
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
    # What the appliance meets writing its journal, in the words its log uses.
    fault = diagnose(args.state_dir)
    try:
        journal = read_journal(args.state_dir)
    except OSError as exc:
        fault = fault or classify(exc, Path(args.state_dir) / JOURNAL_NAME)
        journal = Replay([], None)
    if fault is not None:
        print(f"storage: {fault}; play goes on, not saved", file=sys.stderr if args.json else None)
    try:
        snapshot = replay(journal.lines).snapshot()
    except LogError as exc:
        raise UsageError(f"the journal in {args.state_dir} does not replay: {exc}") from None
    if args.json:
        print(json.dumps(snapshot, ensure_ascii=False))
    else:
        if not journal.lines:
            print(f"no match in progress in {args.state_dir}")
            return 1 if fault else 0
        print(describe(snapshot))
        if journal.torn:
            print(str(journal.torn))
    return 1 if fault else 0
