"""Between frames and at match end (issue 11): the result, then statistics pages turned by
FOUL or by the configured time, through the app's event path with simulated time."""

from functools import partial

import helpers
import pytest

from scoreboard.inputs.events import ButtonPress, Pot
from scoreboard.store.journal import read_journal
from scoreboard.table.stats_pages import PAGES

FRAME = '[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = 2\ntarget = 2\n'


START = 1000.0  # make_app's ManualClock starts here; the tests' times count from it


# Inputs at their times (seconds from START), as the loop gets them; or simulated time passing
# to `seconds` from START, the loop running what falls due: the snapshot shown after.
feed = partial(helpers.feed, start=START, last=helpers.last_snapshot)
at = partial(helpers.at, start=START, last=helpers.last_snapshot)


def frame_won(app, phase="frame-over"):
    s = feed(app, ButtonPress("A", 1.0), Pot(1, 2.0), Pot(2, 3.0))  # 2 : 0 on the break
    assert s["phase"] == phase and s["page"] == "result"
    return s


def test_FOUL_turns_the_pages_between_frames_and_back_to_the_result(make_app):
    app = make_app(FRAME + "[display]\npage_seconds = 0\n")
    frame_won(app)
    before = list(read_journal(app.storage.state_dir).lines)
    pages = [feed(app, ButtonPress("foul", 10.0 + i))["page"] for i in range(4)]
    assert pages == ["frames", "stats", "fouls", "result"]
    assert read_journal(app.storage.state_dir).lines == before  # a page is no step of play
    assert app.screen.frames[-1][2] is None  # and no refusal said about it


def test_the_pages_turn_by_themselves_every_page_seconds(make_app):
    app = make_app(FRAME + "[display]\npage_seconds = 6\n")
    frame_won(app)  # at 3 s
    assert at(app, 8.9)["page"] == "result"
    assert at(app, 9.0)["page"] == "frames"
    assert at(app, 15.0)["page"] == "stats"
    s = feed(app, ButtonPress("foul", 17.0))  # FOUL turns it now, and its page gets 6 s
    assert s["page"] == "fouls" and at(app, 22.9)["page"] == "fouls"
    assert at(app, 23.0)["page"] == "result"


def test_the_next_frame_or_an_undo_leaves_the_pages(make_app):
    app = make_app(FRAME)
    frame_won(app)
    feed(app, ButtonPress("foul", 9.0))  # past the winning stroke's 5 s: a page
    s = feed(app, ButtonPress("undo", 10.0))  # the ball that won the frame taken back
    assert s["phase"] == "play" and s["score"]["A"] == 1 and "page" not in s
    assert at(app, 100.0) == s  # no page turns during play
    s = feed(app, Pot(3, 101.0))  # the frame ends again: from its result
    assert s["phase"] == "frame-over" and s["page"] == "result"
    feed(app, ButtonPress("foul", 107.0))
    s = feed(app, ButtonPress("B", 108.0))  # A or B: the next frame, from any page
    assert s["phase"] == "break" and s["frame"] == 2 and "page" not in s


@pytest.mark.parametrize("page", PAGES)
def test_the_match_over_screen_turns_its_pages_by_time(make_app, page):
    app = make_app(FRAME.replace("race = 2", "race = 1") + "[display]\npage_seconds = 5\n")
    s = frame_won(app, "match-over")  # at 3 s
    for turn in range(1, PAGES.index(page) + 1):
        s = at(app, 3.0 + 5 * turn)
    assert s["phase"] == "match-over" and s["page"] == page
    assert s["frame_scores"] == [[2, 0]] and s["frame_times"] == [1]


def test_after_the_match_FOUL_turns_the_pages_too_never_the_setup(make_app):
    app = make_app(FRAME.replace("race = 2", "race = 1") + "[display]\npage_seconds = 0\n")
    frame_won(app, "match-over")
    s = feed(app, ButtonPress("foul", 20.0))  # the winning shot long closed (issue 34)
    assert s["phase"] == "match-over" and s.get("page") == "frames" and "setup" not in s


def test_GR_22_3_FOUL_within_the_winning_stroke_s_window_is_its_foul_not_a_page(make_app):
    app = make_app(FRAME + "[display]\npage_seconds = 0\n")
    frame_won(app)  # its last ball at 3 s
    s = feed(app, ButtonPress("foul", 7.5))
    assert s["phase"] == "break-foul" and s["score"] == {"A": 0, "B": 1} and "page" not in s


def test_during_play_FOUL_is_still_a_foul(make_app):
    app = make_app(FRAME)
    s = feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0), ButtonPress("foul", 20.0))
    assert s["phase"] == "foul" and "page" not in s
