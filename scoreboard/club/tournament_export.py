"""A tournament exported (issue 22): every game with its players, winner, frames, walkover,
the table it was played on, its times and its log, as JSON (the whole thing) or CSV (one row
a game, for a spreadsheet).

The times and the log come from the table's own result (every match in the club's database,
clubdb/matches.py), found by the assign id it carries (``T<tournament>-<game>``); the table and the walkover from the
database. A table's result carries its match log frame by frame (each frame's score, how long
it took, the fouls and longest runs), not shot by shot: that stays in the table's journal.

Each decided game says where its result came from (issue 34, signing/provenance.py): the
table's own, as it was confirmed there, or entered by the staff (who). A game the table
decided carries the table's result exactly as it was sent and signed (`result`: its `key`,
`signature` and `log_sha256` included), so anyone with the tables' public keys can check the
export again (`scoreboard verify`), and that the game's fields are the signed result's."""

import csv
import io
from datetime import datetime

from scoreboard.club.tournament_runner import assign_id
from scoreboard.signing import provenance
from scoreboard.store.history_rows import log_cells

CSV_COLUMNS = [
    "game",
    "stage",
    "round",
    "player_a",
    "player_b",
    "winner",
    "frames_a",
    "frames_b",
    "walkover",
    "table",
    "started",
    "ended",
    "frame_scores",
    "frame_times",
    "fouls_a",
    "fouls_b",
    "longest_run_a",
    "longest_run_b",
    "recorded",
    "recorded_by",
    "provenance",
]
LOG_KEYS = ("frame_scores", "frame_times", "last_frame", "fouls", "longest_run")


def _time(value):
    return value.isoformat() if isinstance(value, datetime) else value


def export(t, played: dict[str, dict], results: dict[str, dict]) -> dict:
    """`t`: the tournament (clubdb.tournaments.load); `played`: tournaments.played; `results`:
    the tables' results by the assign id they carry."""
    b = t.bracket
    out = []
    for game in b.games:
        a, bb = b.sides(game.id)
        result = b.results.get(game.id)
        where = played.get(game.id, {})
        table_result = table_result_of(t.id, game.id, where, results)
        said, signed = source(where, table_result)
        out.append(
            {
                "id": game.id,
                "stage": game.stage,
                "round": game.round,
                "players": [p if isinstance(p, str) else None for p in (a, bb)],
                "winner": result.winner if result else None,
                "frames": list(result.frames) if result and result.frames else None,
                "walkover": bool(result.walkover) if result else None,
                "table": where.get("table"),
                "started": table_result.get("first_shot") or table_result.get("started"),
                "ended": table_result.get("ended"),
                "recorded": _time(where.get("recorded")),
                "recorded_by": where.get("recorded_by"),
                "match_id": table_result.get("match_id"),
                "log": {k: table_result[k] for k in LOG_KEYS if k in table_result} or None,
                "provenance": said,
                "result": signed,
            }
        )
    return {
        "id": t.id,
        "name": t.name,
        "format": t.format,
        "settings": t.settings,
        "draw_seed": t.draw_seed,
        "players": b.players,
        "champion": b.champion(),
        "standings": [{"place": p, "players": ps} for p, ps in b.standings()],
        "games": out,
    }


def table_result_of(tournament_id: int, game: str, where: dict, results: dict) -> dict:
    """The table's result for `game` ({} if none): the one the tables' results carry its
    assign id, unless another table's than the one it was played at."""
    table_result = results.get(assign_id(tournament_id, game)) or {}
    if where.get("table") and table_result.get("table") not in (None, where["table"]):
        return {}  # another table's result for it: not the one that counted
    return table_result


def source(where: dict, table_result: dict) -> tuple[str | None, dict | None]:
    """(its provenance, the table's signed result it rests on) of a game as `played` has it;
    (None, None) for a game not decided, no signed result for one the staff entered."""
    by = where.get("recorded_by")
    if by is None:
        return None, None
    if provenance.by_staff(by):
        return provenance.of_staff(by), None
    return provenance.of_result(table_result), table_result or None


def to_csv(exported: dict) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore")
    writer.writeheader()
    for g in exported["games"]:
        played = {**g["log"], "started": g["started"], "ended": g["ended"]} if g["log"] else None
        writer.writerow(
            {
                "game": g["id"],
                "stage": g["stage"],
                "round": g["round"],
                "player_a": g["players"][0] or "",
                "player_b": g["players"][1] or "",
                "winner": g["winner"] or "",
                "frames_a": g["frames"][0] if g["frames"] else "",
                "frames_b": g["frames"][1] if g["frames"] else "",
                "walkover": {True: "yes", False: "no", None: ""}[g["walkover"]],
                "table": g["table"] or "",
                # as the day's results and `scoreboard history --csv` write them
                **(log_cells(played) if played else {}),
                "recorded": g["recorded"] or "",
                "recorded_by": g["recorded_by"] or "",
                "provenance": g["provenance"] or "",
            }
        )
    return out.getvalue()
