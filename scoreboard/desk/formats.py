"""The formats a tournament is played in, each with a bracket's face (desk/bracket.py
Bracket: `games`, `by_id`, `results`, `sides`, `ready`, `record`, `champion`, `standings`,
`done`), so the club plays any of them the same way:

- ``single``, ``double``: elimination (desk/bracket.py);
- ``round_robin``: everyone meets everyone in their group, in ``groups`` groups (default 1);
- ``groups``: groups, then the best ``qualify`` of each into a ``knockout`` (single or double).

`settings` are the tournament's (club/tournament_form.py checks them)."""

from scoreboard.desk.bracket import DOUBLE, SINGLE, Bracket, BracketError
from scoreboard.desk.groups import GROUPS, ROUND_ROBIN, Groups

FORMATS = (SINGLE, DOUBLE, ROUND_ROBIN, GROUPS)


def make(players: list[str], format: str, settings: dict | None = None):
    """The format's bracket of `players` (seed order), with no results yet."""
    settings = settings or {}
    if format in (SINGLE, DOUBLE):
        return Bracket(players, format)
    if format == ROUND_ROBIN:
        return Groups(players, settings.get("groups", 1))
    if format == GROUPS:
        return Groups(
            players,
            settings.get("groups", 2),
            settings.get("qualify", 2),
            settings.get("knockout", SINGLE),
        )
    raise BracketError(f"no such format {format!r}")
