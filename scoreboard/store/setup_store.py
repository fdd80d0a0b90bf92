"""The setup's own file in the state folder (`setup.json`): the last settings, the next
match's settings while they wait, the names used recently (most recent first) and the setup
screen's draft while it is open, so a power cut mid-setup comes back to the same screen.

Each save is a new file made durable and renamed into place (a power cut leaves the old file
or the new one, never half of one). A file that cannot be read or is damaged is set aside
as `setup.json.bad` with a warning, and the table goes on from the config: this file only
remembers conveniences; the match itself is in the journal.
"""

import contextlib
import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from scoreboard.core.settings import MatchSettings, SettingsError, name_problem
from scoreboard.store.durable import replace_file

FILE_NAME = "setup.json"
RECENT_KEPT = 20  # recent names remembered
ROSTER_KEPT = 200  # the most names a roster sent from a phone may hold


@dataclass(frozen=True)
class Kept:
    """What `setup.json` holds."""

    last: MatchSettings | None = None  # the settings the last match started with
    pending: MatchSettings | None = None  # the next match's, sent while a match was in play
    recent: tuple[str, ...] = ()  # names used, most recent first
    draft: dict | None = None  # the open setup screen (model.py `Draft.to_dict`)
    roster: tuple[str, ...] | None = None  # the club's players from a phone (None: the config's)

    def used(self, *names: str) -> "Kept":
        """`names` moved to the front of the recent names."""
        recent = [n for n in names if n]
        recent += [n for n in self.recent if n.casefold() not in {r.casefold() for r in names}]
        return replace(self, recent=tuple(recent[:RECENT_KEPT]))

    def offered(self, config_roster=(), last_players=()) -> tuple[str, ...]:
        """The names a setup offers, on the table's screen and on a paired phone: the club's
        roster (sent from a phone or the club, else the config's), then the names used
        recently (most recent first; the last match's players are among them before any
        match was set up here), once each."""
        names, seen = [], set()
        club = self.roster if self.roster is not None else config_roster
        roster = (" ".join(n.split()) for n in club)
        for name in (*roster, *self.recent, *last_players):
            if name.casefold() not in seen:
                seen.add(name.casefold())
                names.append(name)
        return tuple(names)

    def to_dict(self) -> dict:
        return {
            "last": self.last.to_dict() if self.last else None,
            "pending": self.pending.to_dict() if self.pending else None,
            "recent": list(self.recent),
            "draft": self.draft,
            "roster": list(self.roster) if self.roster is not None else None,
        }


@dataclass
class SetupStore:
    state_dir: Path
    warn: object = print
    kept: Kept = field(default_factory=Kept)

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)
        self.path = self.state_dir / FILE_NAME
        self._on_disk: bytes | None = None  # what the file holds now, as save() writes it

    def load(self) -> Kept:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.kept = _kept(data)
            self._on_disk = _encoded(self.kept)
        except FileNotFoundError:
            self.kept = Kept()
        except (OSError, ValueError, TypeError, KeyError, SettingsError) as exc:
            self.warn(f"setup: {self.path} cannot be used ({exc}); set aside as {FILE_NAME}.bad")
            with contextlib.suppress(OSError):
                os.replace(self.path, self.path.with_name(FILE_NAME + ".bad"))
            self.kept = Kept()
        return self.kept

    def save(self, kept: Kept) -> bool:
        """Make `kept` durable; False (with a warning) if the disk refused it. What the file
        holds already is not written again (issue 21: a phone's `setup` sent again and again
        rewrote the file each time, a flash write and an fsync on the table's loop)."""
        self.kept = kept
        data = _encoded(kept)
        if data == self._on_disk:
            return True
        self._on_disk = None  # until the new file is in place: a failed write may leave either
        try:
            replace_file(self.path, data, mode=0o640)
        except OSError as exc:
            self.warn(f"setup: {self.path} not saved: {exc.strerror or exc}")
            return False
        self._on_disk = data
        return True


def peek(state_dir) -> Kept:
    """What `setup.json` holds, read only (for `scoreboard net`: a damaged file is the
    table's to set aside); nothing kept when it cannot be read."""
    try:
        return _kept(json.loads((Path(state_dir) / FILE_NAME).read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError, SettingsError):
        return Kept()


def _encoded(kept: Kept) -> bytes:
    return json.dumps(kept.to_dict(), ensure_ascii=False, indent=1).encode()


def _kept(data: dict) -> Kept:
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")

    def settings(value):
        return MatchSettings.from_dict(value) if value is not None else None

    recent = data.get("recent", [])
    if not isinstance(recent, list) or not all(isinstance(n, str) for n in recent):
        raise ValueError("recent must be a list of names")
    draft = data.get("draft")
    if draft is not None and not isinstance(draft, dict):
        raise ValueError("draft must be an object")
    roster = data.get("roster")
    if roster is not None:
        roster = roster_names(roster)
    return Kept(
        last=settings(data.get("last")),
        pending=settings(data.get("pending")),
        recent=tuple(n for n in recent if name_problem(n) is None)[:RECENT_KEPT],
        draft=draft,
        roster=roster,
    )


def roster_names(names) -> tuple[str, ...]:
    """A roster as sent (a list of names), checked: SettingsError says what is wrong."""
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise SettingsError("a roster is a list of names")
    if len(names) > ROSTER_KEPT:
        raise SettingsError(f"a roster holds at most {ROSTER_KEPT} names")
    roster, seen = [], set()
    for name in (" ".join(n.split()) for n in names):
        if problem := name_problem(name):
            raise SettingsError(problem)
        if name.casefold() in seen:
            raise SettingsError(f"{name!r} is listed twice")
        seen.add(name.casefold())
        roster.append(name)
    return tuple(roster)
