"""The free-table rule (issue 34): whether a table's match holds the table, read from the
state the table publishes (`scoreboard status --json`'s shape). One rule for the hall's page,
the table time and the tournaments: a table is free when nothing of its match has been
played, whatever its phase, or when its match is over and its result closed.

- Nothing played is no shot entered: both players' `stats` count no shot, and the score and
  the frames are 0. A breaker chosen (the phone, or "Breaks: A" at the table) is not play: a
  table in `break` with no shot is free, and takes a club's assign as this match
  (scoreboard/table/setup_flow.py `not_begun`).
- A match over whose players are still confirming the result at the table (the state's
  `confirmation` with `closed` null, in `match-over` only) holds it; a closed one, or a table
  that does not confirm results (no `confirmation`), does not.
"""

PLAYING = "playing"  # a shot has been entered in the table's match
CONFIRMING = "confirming"  # the match is over; its players are confirming the result


def in_use(state: dict | None) -> str | None:
    """What holds the table whose state this is: PLAYING, CONFIRMING, or None (it is free)."""
    if not state:
        return None
    phase = state.get("phase")
    if phase == "match-over":
        confirmation = state.get("confirmation")
        if isinstance(confirmation, dict) and confirmation.get("closed") is None:
            return CONFIRMING
        return None
    if phase == "lag" or nothing_played(state):
        return None
    return PLAYING


def nothing_played(state: dict) -> bool:
    """No shot entered in the match. A state whose `stats` do not read (a table's own
    credentials may publish anything) counts as played: only `lag` is free then, as before."""
    stats = state.get("stats")
    try:
        shots = [stats[side]["shots"] for side in "AB"]
        figures = [state[key][side] for key in ("score", "frames") for side in "AB"]
    except (KeyError, TypeError):
        return False
    counts = shots + figures
    return all(isinstance(n, int) and not isinstance(n, bool) and n == 0 for n in counts)


def free(view: dict) -> bool:
    """Whether a table's view (club/hall.py) may be given a new match: online, without a
    fault, and free by the rule above."""
    return bool(view.get("online")) and view.get("status") == "idle"
