"""What a match comes to: a few lines a person reads (replay, status, sim), and the record of a
finished (or abandoned) match for the archive and `scoreboard history`."""

import hashlib
from datetime import UTC, datetime

from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.frame_clock import clock_text
from scoreboard.core.match import Match
from scoreboard.core.phase import Phase
from scoreboard.core.settings import assign_of

STARTED = "# match started "


def summarise(match: Match, lines: list[str], *, ended: datetime | None = None) -> dict:
    """Players, frames, frame scores and times, fouls by kind, longest runs, start and end."""
    s = match.snapshot()
    started = next((line[len(STARTED) :] for line in lines if line.startswith(STARTED)), None)
    return {
        "players": s["players"],
        "race": s["race"],
        "target": s["target"],
        "finished": s["phase"] == Phase.MATCH_OVER,
        "winner": s["winner"],
        "frames": s["frames"],
        "frame_scores": s["frame_scores"],
        "frame_times": s["frame_times"],  # seconds, None where unknown (frame_clock.py)
        "last_frame": [s["score"]["A"], s["score"]["B"]],  # the frame in play when it ended
        "fouls": {side: st["fouls"] for side, st in s["stats"].items()},
        "longest_run": {side: st["best_run"] for side, st in s["stats"].items()},
        "started": started,  # set up (the match's id over MQTT: mqtt/results.py)
        "first_shot": _first_shot(match),
        "assign": assign_of(lines),  # the club's assign it was played for (issue 22), or None
        # how its players closed the result at the table (issue 34): "confirmed", "timed-out",
        # or None (not closed: still being confirmed, or left for a new match unconfirmed)
        "confirmation": confirmation_of(lines).closed if s["phase"] == Phase.MATCH_OVER else None,
        "log_sha256": log_sha256(lines),  # the match log it came from (issue 34)
        "ended": (ended or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def log_sha256(lines: list[str]) -> str:
    """The SHA-256 of a match log's text as the journal and the archive hold it: each line and
    its newline, UTF-8, without the records' end markers (`grep -v '^=' archive/0007.log |
    sha256sum` gives it: no log line starts with `=`). A table's result carries it, signed."""
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8") + b"\n")
    return digest.hexdigest()


def _first_shot(match: Match) -> str | None:
    """When the match's first frame began (its first shot's time mark), None if unknown: a
    match dates from its first shot, not from when the table was switched on (issue 22)."""
    spans = match.clock.spans
    if not spans or spans[0][0] is None:
        return None
    return datetime.fromtimestamp(spans[0][0], UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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
    if any(t is not None for t in s.get("frame_times", ())):  # the log's time marks
        times = " ".join("?" if t is None else clock_text(t) for t in s["frame_times"])
        lines.append(f"frame times: {times}")
    if setup := s.get("setup"):
        lines.append(describe_setup(setup))
    return "\n".join(lines)


def describe_setup(view: dict) -> str:
    """The open setup screen in one line (the sim's text, logs): its settings and place."""
    s = view["settings"]
    a, b = s["players"]
    options = " ".join(f"{k}={v}" for k, v in s["options"].items())
    line = (
        f"setup ({view['mode']} {view['row']}): {a} v {b}, race {s['race']}, "
        f"target {s['target']}, breaks {s['breaker']}, {options}, {s['lang']}"
    )
    if view["mode"] == "pick":
        line += f"; name for {view['side']}: {view['names'][view['choice']]}"
    elif view["mode"] == "letters":
        line += f"; typing for {view['side']}: {view['typed']}_ [{view['ring'][view['at']]}]"
    return line
