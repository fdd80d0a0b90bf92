"""`scoreboard history [--config PATH | --state-dir DIR] [--csv | --json]`: the archived matches, and the match
that has just finished: it stays in the journal (not yet archived) until a new match starts."""

import csv
import json
import sys

from scoreboard.commands.status import add_state_dir, cannot_read, played_in, state_dir
from scoreboard.store.history_rows import COLUMNS, flat, rows


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "history",
        help="list finished and abandoned matches; export them as CSV or JSON",
        description=(
            "The matches archived in the state directory, oldest first, then the match that "
            "has just finished, if any (it is archived when a new match starts)."
        ),
    )
    add_state_dir(parser)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--csv", action="store_true", help="one row per match, CSV")
    group.add_argument("--json", action="store_true", help="a JSON list, one object per match")
    parser.set_defaults(run=run)


def _warn(message: str) -> None:
    print(f"scoreboard history: warning: {message}", file=sys.stderr)


def run(args) -> int:
    where = played_in(state_dir(args))
    try:
        matches = rows(where, warn=_warn)
    except PermissionError as exc:
        raise cannot_read(where, exc) from None
    if args.json:
        print(json.dumps(matches, ensure_ascii=False, indent=1))
    elif args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(flat(row) for row in matches)
    elif not matches:
        print(f"no finished matches in {where}")
    else:
        for row in map(flat, matches):
            print(
                f"{row['number'] or '-':>4}  {row['started'] or '?':20}  {row['player_a']} "
                f"{row['frames_a']}:{row['frames_b']} {row['player_b']}  ({row['frame_scores']})"
                + ("" if row["finished"] == "yes" else "  unfinished")
                + ("" if row["archived"] == "yes" else "  just finished, not yet archived")
            )
    return 0
