"""The finished matches as rows: the archive's metadata and the match just finished, and the
columns they are exported in (`scoreboard history`, the table's /history pages, the MQTT
result, the club's book). One home for the vocabulary; no command line here."""

import logging
from datetime import UTC, datetime
from pathlib import Path

from scoreboard.core.matchlog import LogError, replay
from scoreboard.core.phase import Phase
from scoreboard.core.summary import summarise
from scoreboard.store.journal import JOURNAL_NAME, list_archive, read_journal

LOGGER = logging.getLogger("scoreboard.history")

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


def rows(state_dir: str, warn=LOGGER.warning) -> list[dict]:
    """The archived matches, oldest first, then the one just finished; a damaged metadata file
    is left out, said to `warn` (the CLI prints it, the web server logs it)."""
    out = []
    for archived in list_archive(state_dir):
        meta = archived.meta
        where = archived.log.with_suffix(".json")
        if not meta:
            warn(f"{where} is missing or unreadable; match {archived.number} left out")
            continue
        if "players" not in meta:  # a journal set aside, not a match
            continue
        row = {"number": archived.number, **meta}
        try:
            flat(row)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            warn(f"{where} is damaged ({type(exc).__name__}: {exc}); match left out")
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


def _fouls(fouls: dict) -> str:
    return " ".join(f"{kind}:{n}" for kind, n in sorted(fouls.items()))


def log_cells(row: dict) -> dict:
    """A match's times and its log frame by frame as a CSV's cells (history, the club's result
    book, a tournament's export)."""
    return {
        "started": row.get("first_shot") or row.get("started") or "",  # its first shot
        "ended": row.get("ended") or "",
        "frame_scores": " ".join(f"{a}:{b}" for a, b in row["frame_scores"]),
        # seconds each frame took, "?" where the log has no time for it (frame_clock.py)
        "frame_times": " ".join("?" if t is None else str(t) for t in row.get("frame_times", ())),
        "last_frame": ":".join(map(str, row.get("last_frame", ()))),
        "fouls_a": _fouls(row["fouls"]["A"]),
        "fouls_b": _fouls(row["fouls"]["B"]),
        "longest_run_a": row["longest_run"]["A"],
        "longest_run_b": row["longest_run"]["B"],
    }


def flat(row: dict) -> dict:
    return {
        "number": "" if row["number"] is None else row["number"],
        "player_a": row["players"]["A"],
        "player_b": row["players"]["B"],
        "finished": "yes" if row["finished"] else "no",
        "winner": row["players"][row["winner"]] if row.get("winner") else "",
        "frames_a": row["frames"]["A"],
        "frames_b": row["frames"]["B"],
        **log_cells(row),
        "archived": "yes" if row.get("archived", True) else "no",
    }
