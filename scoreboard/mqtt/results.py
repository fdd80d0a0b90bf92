"""Finished matches for `fp/v1/<table>/result/<match_id>`, kept until the broker has them.

The matches themselves are durable already: the journal holds the one just finished, the
archive the others (scoreboard/store/journal.py). This file only remembers which of them the broker
has acknowledged (PUBACK, QoS 1): ``<dir>/mqtt-results.json`` with the moment the table first
published (archived matches older than that are not sent; the one just finished always is) and, per match id, a digest of what was acknowledged;
and the id of the club's last `assign` the table took, so a retained assign is taken once.
A match not acknowledged, or changed since (UNDO after the end of a match, then a different
end), is sent again on every connection until it is. The file is written like the archive's:
a new file made durable, then renamed into place.

Each result carries its match log's digest (`log_sha256`, core/summary.py), part of what it
comes to: a match whose log changed after its end (UNDO, then the same end again) is sent again.
The publisher signs what it sends (scoreboard/signing/); its key and signature are no part of
what a result comes to either.
"""

import contextlib
import hashlib
import json
import logging
import os
from pathlib import Path

from scoreboard.core.summary import log_sha256
from scoreboard.mqtt import topics
from scoreboard.store.history_rows import just_finished
from scoreboard.store.journal import ARCHIVE_DIR, last_archived, list_archive, parse

LOGGER = logging.getLogger("scoreboard.mqtt")
FILE_NAME = "mqtt-results.json"
# Not part of what a match came to: when it was archived, and the signature on it.
VOLATILE = ("number", "archived", "archived_at", "ended", "key", "signature")


def payload(table: str, row: dict) -> dict | None:
    """The `result` payload of a history row (scoreboard history --json), or None when it is
    not a finished match with a start time."""
    mid = topics.match_id(row.get("started"))
    if mid is None or not row.get("finished") or "players" not in row:
        return None
    keep = {k: v for k, v in row.items() if k not in ("number", "archived", "archived_at")}
    return {"table": table, "match_id": mid, **keep}


def digest(result: dict) -> str:
    """What a result comes to, without when it was archived: the same match archived later
    is not sent again."""
    content = {k: v for k, v in result.items() if k not in VOLATILE}
    return hashlib.sha256(topics.encode(content)).hexdigest()[:16]


class Results:
    """The results the broker has not acknowledged, and the record of those it has."""

    def __init__(self, table: str, state_dir, *, data_dir=None, clock=None):
        self.table = table
        self.state_dir = Path(state_dir)
        self.path = Path(data_dir or state_dir) / FILE_NAME
        self._clock = clock
        self.assigned: str | None = None  # the id of the last `assign` the table took
        self.since, self.acked = self._load()

    def _load(self) -> tuple[str, dict]:
        """The record; made at once where there is none, so that `since` stays the moment the
        table first published (OSError if the folder refuses it: the caller says so)."""
        try:
            data = json.loads(self.path.read_bytes())
            if isinstance(data.get("since"), str) and isinstance(data.get("acked"), dict):
                self.assigned = data.get("assigned")
                return data["since"], data["acked"]
        except FileNotFoundError:
            pass
        except (OSError, ValueError, AttributeError):
            with contextlib.suppress(OSError):  # kept for a person to look at
                self.path.replace(self.path.with_suffix(".bad"))
        self.since = topics.now_iso(self._clock() if self._clock else None)
        self.acked = {}
        try:
            self.save()
        except OSError as exc:  # kept in memory: sent again after a restart, never lost
            LOGGER.warning(
                "mqtt: cannot keep %s (%s); results are sent all the same", self.path, exc
            )
        return self.since, self.acked

    # -- which matches ------------------------------------------------------------------------
    def pending(self, *, scan_archive: bool = True) -> list[dict]:
        """Finished matches since `since` that the broker has not acknowledged as they are
        now: the whole archive (by file time, then content) on `scan_archive`, else only the
        last archived match and the one just finished."""
        archived = []
        if scan_archive:
            folder = self.state_dir / ARCHIVE_DIR
            for match in list_archive(self.state_dir) if folder.is_dir() else []:
                if _mtime_iso(match.log) >= self.since:
                    archived.append(match)
        else:
            last = last_archived(self.state_dir)
            if last is not None:
                archived.append(last)
        rows = [(match.meta, match.log) for match in archived]
        finished = just_finished(str(self.state_dir))
        if finished is not None and finished.get("confirmation") is not None:
            # the table's match now, once its players closed the result (issue 34): sent,
            # however long ago it ended
            rows.append((finished, None))
        out = {}
        for row, log in rows:
            result = payload(self.table, row)
            if result is None or (log and (result.get("ended") or "") < self.since):
                continue
            if self.acked.get(result["match_id"]) == digest(result):
                continue
            if "log_sha256" not in result and log is not None:
                # Archived before results carried it (issue 34): read from its log, once it
                # is to be sent; acknowledged before as it was, it is not sent again. A log
                # that cannot be read: sent without it, signed all the same.
                with contextlib.suppress(OSError):
                    result["log_sha256"] = log_sha256(parse(log.read_bytes()).lines)
                if self.acked.get(result["match_id"]) == digest(result):
                    continue
            out[result["match_id"]] = result
        return list(out.values())

    # -- the broker's answer ------------------------------------------------------------------
    def acknowledged(self, result: dict) -> None:
        """The broker has `result` (its PUBACK came): remember it, durably."""
        key, value = result["match_id"], digest(result)
        if self.acked.get(key) == value:
            return
        self.acked[key] = value
        self.save()

    def save(self) -> None:
        record = {"since": self.since, "acked": self.acked, "assigned": self.assigned}
        text = json.dumps(record, indent=1).encode()
        tmp = self.path.with_suffix(".tmp")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _mtime_iso(path: Path) -> str:
    try:
        return topics.now_iso(path.stat().st_mtime)
    except OSError:
        return ""
