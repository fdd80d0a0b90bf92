"""`scoreboard history [--state-dir DIR] [--csv | --json]`: the archived matches."""

import csv
import json
import sys

from scoreboard.commands.status import add_state_dir
from scoreboard.journal import list_archive

COLUMNS = [
    "number",
    "started",
    "ended",
    "player_a",
    "player_b",
    "finished",
    "winner",
    "frames_a",
    "frames_b",
    "frame_scores",
    "last_frame",
    "fouls_a",
    "fouls_b",
    "longest_run_a",
    "longest_run_b",
]


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "history",
        help="list archived matches (finished or abandoned); export them as CSV or JSON",
        description="The matches archived in the state directory, oldest first.",
    )
    add_state_dir(parser)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--csv", action="store_true", help="one row per match, CSV")
    group.add_argument("--json", action="store_true", help="a JSON list, one object per match")
    parser.set_defaults(run=run)


def rows(state_dir: str) -> list[dict]:
    """The archived matches; a damaged metadata file is left out with a warning on stderr."""
    out = []
    for archived in list_archive(state_dir):
        meta = archived.meta
        where = archived.log.with_suffix(".json")
        if not meta:
            _warn(f"{where} is missing or unreadable; match {archived.number} left out")
            continue
        if "players" not in meta:  # a journal set aside, not a match
            continue
        row = {"number": archived.number, **meta}
        try:
            flat(row)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            _warn(f"{where} is damaged ({type(exc).__name__}: {exc}); match left out")
            continue
        out.append(row)
    return out


def _warn(message: str) -> None:
    print(f"scoreboard history: warning: {message}", file=sys.stderr)


def _fouls(fouls: dict) -> str:
    return " ".join(f"{kind}:{n}" for kind, n in sorted(fouls.items()))


def flat(row: dict) -> dict:
    return {
        "number": row["number"],
        "started": row.get("started") or "",
        "ended": row.get("ended") or "",
        "player_a": row["players"]["A"],
        "player_b": row["players"]["B"],
        "finished": "yes" if row["finished"] else "no",
        "winner": row["players"][row["winner"]] if row.get("winner") else "",
        "frames_a": row["frames"]["A"],
        "frames_b": row["frames"]["B"],
        "frame_scores": " ".join(f"{a}:{b}" for a, b in row["frame_scores"]),
        "last_frame": ":".join(map(str, row.get("last_frame", ()))),
        "fouls_a": _fouls(row["fouls"]["A"]),
        "fouls_b": _fouls(row["fouls"]["B"]),
        "longest_run_a": row["longest_run"]["A"],
        "longest_run_b": row["longest_run"]["B"],
    }


def run(args) -> int:
    matches = rows(args.state_dir)
    if args.json:
        print(json.dumps(matches, ensure_ascii=False, indent=1))
    elif args.csv:
        writer = csv.DictWriter(sys.stdout, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(flat(row) for row in matches)
    elif not matches:
        print(f"no finished matches in {args.state_dir}")
    else:
        for row in map(flat, matches):
            print(
                f"{row['number']:>4}  {row['started'] or '?':20}  {row['player_a']} "
                f"{row['frames_a']}:{row['frames_b']} {row['player_b']}  ({row['frame_scores']})"
                + ("" if row["finished"] == "yes" else "  unfinished")
            )
    return 0
