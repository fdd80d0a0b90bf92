"""What a finished (or abandoned) match comes to, for the archive and `scoreboard history`."""

from datetime import UTC, datetime

from scoreboard.match import Match

STARTED = "# match started "


def summarise(match: Match, lines: list[str], *, ended: datetime | None = None) -> dict:
    """Players, frames, frame scores, fouls by kind, longest runs, start and end times."""
    s = match.snapshot()
    started = next((line[len(STARTED) :] for line in lines if line.startswith(STARTED)), None)
    return {
        "players": s["players"],
        "race": s["race"],
        "target": s["target"],
        "finished": s["phase"] == "match-over",
        "winner": s["winner"],
        "frames": s["frames"],
        "frame_scores": s["frame_scores"],
        "last_frame": [s["score"]["A"], s["score"]["B"]],  # the frame in play when it ended
        "fouls": {side: st["fouls"] for side, st in s["stats"].items()},
        "longest_run": {side: st["best_run"] for side, st in s["stats"].items()},
        "started": started,
        "ended": (ended or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
