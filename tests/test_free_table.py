"""The free-table rule (scoreboard/club/free_table.py, issue 34), over real snapshots of match
logs replayed through the real Match: a table is free when no shot of its match has been
entered, whatever its phase (a breaker chosen is not play), or when its match is over and its
result closed. The hall's page and the table time read the same rule."""

import json

import pytest

from scoreboard.club.free_table import CONFIRMING, PLAYING, free, in_use
from scoreboard.club.hall import Hall
from scoreboard.club.table_time import IDLE, IN_PLAY, doing
from scoreboard.core.matchlog import replay

SET_UP = ["players Oksana Petro", "race 2"]


def snap(*lines: str, **extra) -> dict:
    return {**replay([*SET_UP, *lines]).snapshot(), **extra}


def over(closed="absent") -> dict:
    """Oksana wins 2 frames to 0; with a `confirmation` whose `closed` is `closed`."""
    state = snap("break A", "shot pots=8", "next", "shot", "shot pots=8")
    assert state["phase"] == "match-over"
    if closed != "absent":
        state["confirmation"] = {"A": True, "B": False, "closed": closed}
    return state


@pytest.mark.parametrize(
    "lines",
    [
        (),  # lag: who breaks first?
        ("break A",),  # "Breaks: A" on the setup screen, or the phone: not play
        ("break B",),
    ],
)
def test_nothing_played_is_free_whatever_the_phase(lines):
    state = snap(*lines)
    assert in_use(state) is None
    assert state["phase"] == ("break" if lines else "lag")


@pytest.mark.parametrize(
    ("lines", "phase"),
    [
        (("break A", "shot"), "play"),  # a miss: no ball, no point, but a shot
        (("break A", "shot", "shot foul=push"), "foul"),
        (("break A", "shot foul=push"), "break-foul"),
        (("break A", "shot foul=illegal-break", "choose rerack-break"), "break"),  # re-racked
        (("break A", "shot pots=8"), "frame-over"),
        (("break A", "shot pots=8", "next"), "break"),  # frame 2's break: 1 frame to 0
    ],
)
def test_a_shot_entered_holds_the_table_in_any_phase(lines, phase):
    state = snap(*lines)
    assert state["phase"] == phase
    assert in_use(state) == PLAYING


def test_a_match_over_holds_the_table_while_its_players_confirm_the_result():
    assert in_use(over()) is None  # a table that does not confirm results: free, as before
    assert in_use(over(closed=None)) == CONFIRMING
    assert in_use(over(closed="confirmed")) is None
    assert in_use(over(closed="timed-out")) is None
    no_key = over()
    no_key["confirmation"] = {"A": False, "B": False}  # `closed` left out: not closed
    assert in_use(no_key) == CONFIRMING
    assert in_use({**over(), "confirmation": "open"}) is None  # not an object: read as none
    # the confirmation is a match over's: elsewhere the match decides
    assert in_use(snap("break A", confirmation={"closed": None})) is None
    assert in_use(snap("break A", "shot", confirmation={"closed": "confirmed"})) == PLAYING


@pytest.mark.parametrize(
    "spoil",
    [
        lambda s: s.pop("stats"),  # an older or a broken table
        lambda s: s.update(stats={"A": {"shots": "0"}, "B": {"shots": 0}}),
        lambda s: s.update(stats={"A": {"shots": False}, "B": {"shots": 0}}),
        lambda s: s.update(score={"A": 1, "B": 0}),  # no shot, but a point: played
    ],
)
def test_a_break_whose_figures_do_not_read_counts_as_played(spoil):
    state = snap("break A")
    spoil(state)
    assert in_use(state) == PLAYING
    lag = snap()
    spoil(lag)
    assert in_use(lag) is None  # lag is before any shot, whatever it says


def view_of(state: dict, *, faults=()) -> dict:
    hall = Hall()
    hall.take("fp/v1/t3/availability", b"online", now=1)
    hall.take("fp/v1/t3/state", json.dumps(state).encode(), now=2)
    body = {"faults": [{"kind": k} for k in faults], "updated": "x"}
    hall.take("fp/v1/t3/faults", json.dumps(body).encode(), now=3)
    return hall.tables["t3"].view()


def test_the_hall_and_the_table_time_read_the_same_rule():
    rows = [
        (snap("break A"), (), "idle", None, True, IDLE),
        (snap("break A", "shot"), (), "playing", PLAYING, False, IN_PLAY),
        (over(closed=None), (), "confirming", CONFIRMING, False, IN_PLAY),
        (over(closed="confirmed"), (), "idle", None, True, IDLE),
        (snap("break A", "shot"), ("sensor-stuck",), "fault", PLAYING, False, IN_PLAY),
        (snap("break A"), ("sensor-stuck",), "fault", None, False, IDLE),
    ]
    for state, faults, status, busy, is_free, counted in rows:
        view = view_of(state, faults=faults)
        got = (view["status"], view["busy"], free(view), doing(view))
        assert got == (status, busy, is_free, counted), (state["phase"], faults)
