"""`scoreboard rack N [--json]`: the GR-9.3 layout of an (incomplete) rack of N white balls."""

import json

from scoreboard.commands import UsageError
from scoreboard.rules.errors import RuleError
from scoreboard.rules.rack import layout, picture


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "rack",
        help="show the rack for N white balls (GR-9.3)",
        description="Rows from the apex to the base; 1 is a ball. Apex on the back spot.",
    )
    parser.add_argument("balls", metavar="N", help="white balls in the rack, 1 to 15")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.set_defaults(run=run)


def run(args) -> int:
    try:
        rows = layout(int(args.balls))
    except ValueError:
        raise UsageError(f"N must be a whole number from 1 to 15, not {args.balls!r}") from None
    except RuleError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps([list(row) for row in rows]))
    else:
        print(picture(rows))
    return 0
