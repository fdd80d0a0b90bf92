"""`scoreboard history [--config PATH | --state-dir DIR] [--csv | --json]`: the archived matches, and the match
that has just finished: it stays in the journal (not yet archived) until a new match starts."""

import csv
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from scoreboard.commands.status import add_state_dir, cannot_read, played_in, state_dir
from scoreboard.journal import JOURNAL_NAME, list_archive, read_journal
from scoreboard.matchlog import LogError, replay
from scoreboard.phase import Phase
from scoreboard.summary import summarise

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
    "frame_times",
    "last_frame",
    "fouls_a",
    "fouls_b",
    "longest_run_a",
    "longest_run_b",
    "archived",
]


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
        out.append({**row, "archived": True})
    finished = just_finished(state_dir)
    if finished is not None:
        out.append(finished)
    return out


def just_finished(state_dir: str) -> dict | None:
    """The match in the journal when it is over: shown as finished and not yet archived."""
    try:
        lines = read_journal(state_dir).lines
        ended = (Path(state_dir) / JOURNAL_NAME).stat().st_mtime  # its last record
    except OSError:
        return None  # no journal (or unreadable: `status` says why)
    try:
        match = replay(lines)
    except LogError:
        return None  # the app archives a journal that does not replay when it starts
    if match.phase != Phase.MATCH_OVER:
        return None  # still being played: `scoreboard status` shows it
    meta = summarise(match, lines, ended=datetime.fromtimestamp(ended, UTC))
    return {"number": None, **meta, "archived": False}


def _warn(message: str) -> None:
    print(f"scoreboard history: warning: {message}", file=sys.stderr)


def _fouls(fouls: dict) -> str:
    return " ".join(f"{kind}:{n}" for kind, n in sorted(fouls.items()))


def flat(row: dict) -> dict:
    return {
        "number": "" if row["number"] is None else row["number"],
        "started": row.get("started") or "",
        "ended": row.get("ended") or "",
        "player_a": row["players"]["A"],
        "player_b": row["players"]["B"],
        "finished": "yes" if row["finished"] else "no",
        "winner": row["players"][row["winner"]] if row.get("winner") else "",
        "frames_a": row["frames"]["A"],
        "frames_b": row["frames"]["B"],
        "frame_scores": " ".join(f"{a}:{b}" for a, b in row["frame_scores"]),
        # seconds each frame took, "?" where the log has no time for it (frame_clock.py)
        "frame_times": " ".join("?" if t is None else str(t) for t in row.get("frame_times", ())),
        "last_frame": ":".join(map(str, row.get("last_frame", ()))),
        "fouls_a": _fouls(row["fouls"]["A"]),
        "fouls_b": _fouls(row["fouls"]["B"]),
        "longest_run_a": row["longest_run"]["A"],
        "longest_run_b": row["longest_run"]["B"],
        "archived": "yes" if row.get("archived", True) else "no",
    }


def run(args) -> int:
    where = played_in(state_dir(args))
    try:
        matches = rows(where)
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
