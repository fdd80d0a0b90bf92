"""`scoreboard verify EXPORT [--keys FILE]`: a club's export checked again by anyone (issue 34):
every result a table signed, against the tables' public keys, and every field the export says
of it against what was signed. Prints each result, verified or not and why; exit status 1 if
any does not verify (2 for an export or keys file it cannot read)."""

import json
import sys

from scoreboard.commands import UsageError
from scoreboard.signing.export_check import ExportError, check, read_keys


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check the tables' signatures in a club's export",
        description="Check every result a table signed in a club's export: a tournament's "
        "(/api/tournaments/ID/export.json) or a day's results (/results.json?day=YYYY-MM-DD). "
        "Each result's signature, the key against the tables' keys (--keys), and each field "
        "the export says of it against the signed result. Exit status 1 if any fails.",
    )
    parser.add_argument("export", metavar="EXPORT", help="the export, JSON (- reads stdin)")
    parser.add_argument(
        "--keys",
        metavar="FILE",
        help="the tables' public keys, `TABLE KEY` a line: the club's /table-keys.txt, or "
        "each table's key as `scoreboard status` shows it. Without it each result is checked "
        "against the key it names only (it was not changed since; not who signed it)",
    )
    parser.set_defaults(run=run)


def _read(path: str, what: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the {what} {path}: {exc}") from None


def run(args) -> int:
    try:
        keys = read_keys(_read(args.keys, "keys file")) if args.keys else None
    except ExportError as exc:
        raise UsageError(f"{args.keys}: {exc}") from None
    try:
        entries = check(json.loads(_read(args.export, "export")), keys)
    except ValueError as exc:  # not JSON, or not an export (ExportError)
        raise UsageError(f"{args.export}: {exc}") from None
    good = bad = unsigned = 0
    for entry in entries:
        if entry.problems:
            bad += 1
            print(f"{entry.label}: DOES NOT VERIFY: {'; '.join(entry.problems)}")
        elif entry.signed:
            good += 1
            print(f"{entry.label}: verifies ({entry.provenance})")
        else:
            unsigned += 1
            print(f"{entry.label}: {entry.provenance}: not signed by a table, nothing to verify")
    print(
        f"{good} verify, {bad} do not, {unsigned} not signed"
        + ("" if keys is not None else "; keys not checked: give --keys FILE")
    )
    return 1 if bad else 0
