"""The finished matches the tables sent, each kept once, on disk, by day.

A result arrives as the retained ``fp/v1/<table>/result/<match_id>``: again on every
reconnection of the club, and again if a table sent it twice (QoS 1 is at least once). The
book keys it by (table, match id): the same one again is nothing new, a changed one (UNDO at
the table after the end, then another end) replaces it. Each day's book is a file of JSON lines
(``<data_dir>/results-YYYY-MM-DD.jsonl``, the day the match ended, in the club's time zone),
appended and fsynced, so a restart of the club keeps the day's results even if the broker
has lost its retained messages.

A result is kept as the table sent it, signed (issue 34): the day's results as JSON carry it
whole, so `scoreboard verify` can check them again; the CSV says each one's provenance.
"""

import csv
import io
import json
import os
from datetime import UTC, date, datetime
from pathlib import Path

from scoreboard.mqtt.results import digest
from scoreboard.signing import provenance
from scoreboard.store.history_rows import COLUMNS, flat

# No archive number or archived flag; where the result came from (issue 34).
CSV_COLUMNS = ["table", "match_id", *COLUMNS[1:-1], "provenance"]


def day_of(result: dict) -> date:
    """The day a match ended in the club's local time (today if it says nothing)."""
    try:
        ended = datetime.strptime(result.get("ended") or "", "%Y-%m-%dT%H:%M:%SZ")
        return ended.replace(tzinfo=UTC).astimezone().date()
    except ValueError:
        return datetime.now().date()


class BadResult(ValueError):
    """A result the book cannot keep: the message says which field and why."""


def problem(result) -> str | None:
    """Why `result` cannot be kept (None: it can): every field the book, its days and its CSV
    read, of the type they read it as. A bad one is refused on arrival and passed over when
    a day's file is read, so it never poisons the book (issue 21)."""
    if not isinstance(result, dict):
        return "a result is a JSON object"
    try:
        for key in ("table", "match_id"):
            if not isinstance(result[key], str) or not result[key]:
                return f"{key} must be a text"
        for key in ("started", "first_shot", "ended", "assign"):
            if not isinstance(result.get(key), str | None):
                return f"{key} must be a time, or left out"
        for key in ("key", "signature", "log_sha256", "confirmation"):
            if not isinstance(result.get(key), str | None):
                return f"{key} must be a text, or left out"
        players = result["players"]
        if not all(isinstance(players[side], str) for side in ("A", "B")):
            return "players must be the names of A and B"
        if result.get("winner") not in (None, "A", "B"):
            return "winner must be A, B or left out"
        for key in ("frames", "longest_run"):
            if not all(isinstance(result[key][side], int) for side in ("A", "B")):
                return f"{key} must be a number for A and for B"
        row = flat({"number": None, **result})
        csv.DictWriter(io.StringIO(), fieldnames=CSV_COLUMNS, extrasaction="ignore").writerow(row)
        day_of(result)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        return f"cannot be read ({type(exc).__name__}: {exc})"
    return None


class ResultBook:
    def __init__(self, data_dir):
        self.folder = Path(data_dir)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.by_key: dict[tuple[str, str], dict] = {}
        self._digests: dict[tuple[str, str], str] = {}
        for path in sorted(self.folder.glob("results-*.jsonl")):
            self._read(path)

    def _read(self, path: Path) -> None:
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                result = json.loads(line)
            except ValueError:
                continue  # a line torn by a power cut: the broker sends it again
            if problem(result) is not None:
                continue  # kept by an older club that took anything: never shown
            key = (result["table"], result["match_id"])
            self.by_key[key] = result
            self._digests[key] = digest(result)

    def add(self, result: dict) -> bool:
        """Keep `result`; False when it is one the book holds already, as it is; BadResult
        when it cannot be kept (the book is left as it was)."""
        if (why := problem(result)) is not None:
            raise BadResult(why)
        key = (result["table"], result["match_id"])
        value = digest(result)
        if self._digests.get(key) == value:
            return False
        path = self.folder / f"results-{day_of(result).isoformat()}.jsonl"
        line = json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n"
        with open(path, "a", encoding="utf-8") as f:
            f.write(line)
            f.flush()
            os.fsync(f.fileno())
        self.by_key[key] = result
        self._digests[key] = value
        return True

    def day(self, day: date) -> list[dict]:
        """The results of matches that ended on `day`, in the order they ended."""
        found = [r for r in self.by_key.values() if day_of(r) == day]
        return sorted(found, key=lambda r: (r.get("ended") or "", r["table"]))

    def csv(self, day: date) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore")
        writer.writeheader()
        for result in self.day(day):
            row = flat({"number": None, **result})
            writer.writerow(
                {
                    **row,
                    "table": result["table"],
                    "match_id": result["match_id"],
                    "provenance": provenance.of_result(result),
                }
            )
        return out.getvalue()

    def exported(self, day: date) -> dict:
        """The day's results as the tables sent them, signed, each with its provenance:
        `scoreboard verify` checks such a file again."""
        return {
            "day": day.isoformat(),
            "results": [
                {"provenance": provenance.of_result(r), "result": r} for r in self.day(day)
            ],
        }
