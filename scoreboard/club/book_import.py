"""The club's result books (results-YYYY-MM-DD.jsonl, club/results.py) into its database
(issue 22): at every start of the club, so a club that kept its results in files before it
had a database finds every one of them there, with nobody to run a command. Idempotent: a
result held already is nothing new, the last line for a match is its result (as the book
reads them); a line the book would not keep either is skipped, and said why."""

import json
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.exc import SQLAlchemyError

from scoreboard.club.results import problem
from scoreboard.clubdb import matches
from scoreboard.mqtt.results import digest


@dataclass
class Imported:
    kept: int = 0  # new in the database
    replaced: int = 0  # changed since (UNDO after the end, another end)
    same: int = 0  # held already
    skipped: list[str] = field(default_factory=list)  # "file:line: why"

    def __str__(self) -> str:
        return (
            f"{self.kept} new, {self.replaced} replaced, {self.same} held already, "
            f"{len(self.skipped)} skipped"
        )


def import_books(engine, folder) -> Imported:
    done = Imported()
    last: dict[tuple[str, str], dict] = {}  # the book's last word on each match, as it reads
    for path in sorted(Path(folder).glob("results-*.jsonl")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                result = json.loads(line)
            except ValueError:
                done.skipped.append(f"{path.name}:{number}: not JSON (a line torn by a power cut)")
                continue
            if (why := problem(result)) is not None:
                done.skipped.append(f"{path.name}:{number}: {why}")
                continue
            last[(result["table"], result["match_id"])] = result
    for result in last.values():
        try:
            outcome = matches.keep(engine, result, digest(result))
        except SQLAlchemyError as exc:  # one the database cannot take never stops the club
            why = str(exc).splitlines()[0][:200]
            done.skipped.append(f"{result['table']} {result['match_id']}: not kept: {why}")
            continue
        if outcome == matches.KEPT:
            done.kept += 1
        elif outcome == matches.REPLACED:
            done.replaced += 1
        else:
            done.same += 1
    return done
