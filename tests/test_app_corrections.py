"""Correcting mistakes at the table through the app's event path (issue 11): UNDO never takes
back the settings, a mistaken FOUL steps back to "no foul", the penalty ball never scores."""

import pytest
from helpers import feed

from scoreboard import config as configuration
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.table.open_shot import foul_kinds_to_step


@pytest.fixture
def table(make_app):
    def start(text='[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = 3\n'):
        return make_app(text)

    return start


def test_undo_at_who_breaks_never_deletes_the_match_settings_even_after_a_restart(table):
    app = table()
    feed(app, ButtonPress("A", 1.0))  # GR-8.4: A breaks
    s, hint = feed(app, ButtonPress("undo", 2.0))
    assert s["phase"] == "lag"  # the breaker is taken back: that was play
    s, hint = feed(app, ButtonPress("undo", 3.0), ButtonPress("undo", 4.0))
    assert hint == "nothing-to-undo"
    assert s["players"] == {"A": "Олена", "B": "Тарас"} and s["race"] == 3
    app.close()
    s, _ = table().screen.shown[-1]
    assert s["players"] == {"A": "Олена", "B": "Тарас"} and s["race"] == 3


def foul_then_choice(app):
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))  # A breaks and misses; B plays
    s, _ = feed(app, ButtonPress("foul", 20.0))  # B fouls: A gets the penalty ball (FP-6/FP-7)
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": 0}
    return s


def test_FP_7_D_1_the_penalty_ball_dropped_after_the_choice_scores_nothing(table):
    app = table()
    foul_then_choice(app)
    s, _ = feed(app, ButtonPress("A", 30.0))  # GR-7.4: A chooses to shoot himself
    assert s["phase"] == "play" and s["striker"] == "A"
    s, hint = feed(app, Pot(4, 33.0))  # ...then drops the penalty ball into pocket 4
    assert s["score"] == {"A": 1, "B": 0} and hint == "penalty-ball"
    s, _ = feed(app, Pot(2, 60.0))  # his next shot pots a ball: that one counts (FP-5.2)
    assert s["score"] == {"A": 2, "B": 0}


def test_FP_7_D_1_the_penalty_ball_dropped_before_the_choice_scores_nothing_and_only_once(table):
    app = table()
    foul_then_choice(app)
    s, hint = feed(app, Pot(4, 25.0))  # D-1: dropped while the choice is pending
    assert s["score"] == {"A": 1, "B": 0} and hint == "penalty-ball"
    feed(app, ButtonPress("A", 30.0))
    s, _ = feed(app, Pot(2, 33.0))  # the penalty ball is already down: this is a pot
    assert s["score"] == {"A": 2, "B": 0}


def test_a_ball_long_after_the_choice_counts(table):
    app = table()
    foul_then_choice(app)
    feed(app, ButtonPress("A", 30.0))
    s, _ = feed(app, Pot(2, 30.0 + 8.5))  # past the default 8 s window: a pot
    assert s["score"] == {"A": 2, "B": 0}


def test_the_penalty_ball_window_is_the_configured_one(table):
    app = table("[match]\nrace = 3\n[timings]\npenalty_ball_window = 20.0\n")
    foul_then_choice(app)
    feed(app, ButtonPress("A", 30.0))
    s, hint = feed(app, Pot(2, 30.0 + 15.0))
    assert s["score"] == {"A": 1, "B": 0} and hint == "penalty-ball"


def test_the_penalty_window_closes_when_a_shot_is_entered(table):
    app = table()
    foul_then_choice(app)
    feed(app, ButtonPress("A", 30.0), ButtonPress("B", 31.0))  # A chooses, shoots and misses
    s, _ = feed(app, Pot(2, 34.5))  # past the miss's 3 s, within the choice's 8 s: B's pot
    assert s["score"] == {"A": 1, "B": 1}


def cycle_to_no_foul(app, t):
    """Press FOUL once more for every kind after the first, until the cycle says 'no foul'."""
    steps = len(foul_kinds_to_step(on_break=False)) - 1
    for i in range(steps):
        s, hint = feed(app, ButtonPress("foul", t + 0.5 * (i + 1)))
    return s, hint


def test_a_mistaken_foul_after_pots_steps_back_to_exactly_the_shot_before(table):
    app = table()
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))
    before, _ = feed(app, Pot(1, 20.0), Pot(2, 21.0))  # B pots two
    assert before["score"] == {"A": 0, "B": 2}
    s, _ = feed(app, ButtonPress("foul", 22.0))  # GR-22.3: both balls taken back
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": 0}
    s, hint = cycle_to_no_foul(app, 22.0)
    assert hint == "foul-cancelled" and s == before
    app.close()
    assert table().screen.shown[-1][0] == before  # the journal holds exactly that


def test_a_mistaken_foul_on_its_own_steps_back_to_the_state_before_the_press(table):
    app = table()
    before, _ = feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))
    s, _ = feed(app, ButtonPress("foul", 20.0))
    assert s["phase"] == "foul"
    s, hint = cycle_to_no_foul(app, 20.0)
    assert hint == "foul-cancelled" and s == before
    s, _ = feed(app, ButtonPress("foul", 24.0))  # FOUL again: a foul again, one penalty
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": 0}


def test_every_undo_says_what_it_took_back(table):
    app = table()
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))  # A breaks, misses
    feed(app, Pot(1, 20.0), Pot(2, 21.0))  # B pots two
    feed(app, ButtonPress("A", 40.0))  # B missed: A at the table
    feed(app, ButtonPress("foul", 50.0))  # A fouls
    said = [feed(app, ButtonPress("undo", 60.0 + i))[1] for i in range(5)]
    assert said == [
        ("undone-foul", (("name", "Олена"),)),
        ("undone-miss", (("name", "Тарас"),)),
        ("undone-pots", (("n", 1), ("name", "Тарас"))),  # one step: the ball that joined
        ("undone-pots", (("n", 1), ("name", "Тарас"))),  # then the shot's first ball
        ("undone-miss", (("name", "Олена"),)),
    ]
    assert feed(app, ButtonPress("undo", 70.0))[1] == "undone-break"


def test_a_lapse_and_a_foul_correction_say_what_they_did(table):
    app = table()
    foul_then_choice(app)  # B fouled: A got the point
    s, hint = feed(app, ButtonPress("foul", 21.0))  # a second press steps the kind
    assert s["foul"]["kinds"] == ["cue-tip"]  # the hint says whose foul the kind is
    assert hint == ("foul-kind", (("kind", "cue-tip"), ("name", "Тарас")))
    feed(app, ButtonPress("A", 30.0))
    s, hint = feed(app, ButtonHold("foul", 40.0))  # FP-7 note: the ball was never taken
    assert hint == ("lapsed", (("name", "Олена"),)) and s["score"] == {"A": 0, "B": 0}
    assert feed(app, ButtonPress("undo", 41.0))[1] == "undone-lapse"


def test_a_rejected_press_says_why(table):
    app = table("[match]\nrace = 2\ntarget = 1\n")
    s, hint = feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # A wins the frame at once
    assert s["phase"] == "frame-over"
    assert feed(app, Pot(3, 10.0))[1] == "ball-after-frame"
    s, _ = feed(app, ButtonPress("foul", 11.0))  # FOUL turns the statistics page there
    assert s["page"] == "frames" and s["score"] == {"A": 1, "B": 0}


def test_a_stuck_beam_never_leaves_a_point_its_leading_edge_pot_is_taken_back(table):
    app = table()
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0))  # B at the table
    s, _ = feed(app, Pot(2, 20.0), Pot(5, 20.5))  # two balls, counted on their leading edges
    assert s["score"] == {"A": 0, "B": 2}
    s, hint = feed(app, Pot(5, 20.5, retract=True))  # pocket 5's beam turned out stuck
    assert s["score"] == {"A": 0, "B": 1} and hint == ("not-a-ball", (("pocket", 5),))
    s, _ = feed(app, Pot(2, 20.0, retract=True))  # and pocket 2's: the shot never was
    assert s["score"] == {"A": 0, "B": 0} and s["striker"] == "B" and s["events"] == 7
    app.close()
    assert table().screen.shown[-1][0] == s  # the journal says the same


def test_a_stuck_beam_taken_for_the_penalty_ball_changes_nothing(table):
    app = table()
    foul_then_choice(app)
    before, _ = feed(app, Pot(4, 25.0))  # D-1: the penalty ball
    s, hint = feed(app, Pot(4, 25.0, retract=True))
    assert s == before and hint == "penalty-ball"  # still the last word, nothing new


def test_undo_right_after_a_new_match_brings_the_archived_match_back_exactly(table, tmp_path):
    from scoreboard.store.journal import list_archive

    app = table()
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 10.0), Pot(3, 20.0))
    before, _ = feed(app, Pot(4, 21.0))
    journal = (tmp_path / "journal.log").read_bytes()
    s, _ = feed(app, ButtonHold("undo", 40.0), ButtonPress("undo", 41.0))  # a new match
    assert s["phase"] == "lag" and len(list_archive(tmp_path)) == 1
    s, hint = feed(app, ButtonPress("undo", 50.0))  # oops
    assert s == before and hint == "match-restored"
    assert (tmp_path / "journal.log").read_bytes() == journal  # exactly, byte for byte
    assert list_archive(tmp_path) == []
    app.close()
    assert table().screen.shown[-1][0] == before  # and after a restart


def test_once_the_new_match_is_played_undo_no_longer_brings_the_old_one_back(table, tmp_path):
    app = table()
    feed(app, ButtonPress("A", 1.0), Pot(3, 2.0))
    feed(app, ButtonHold("undo", 40.0), ButtonPress("undo", 41.0))
    feed(app, ButtonPress("B", 50.0))  # B breaks the new match
    s, _ = feed(app, ButtonPress("undo", 51.0), ButtonPress("undo", 52.0))
    assert s["phase"] == "lag" and s["score"] == {"A": 0, "B": 0}
    assert app.screen.shown[-1][1] == "nothing-to-undo"


def test_a_reloaded_config_waits_for_the_next_match_once_play_has_begun(table):

    app = table()
    feed(app, ButtonPress("A", 1.0))  # A breaks: play has begun
    app.reconfigure(configuration.loads('[match]\nplayer_a = "Ія"\nplayer_b = "Тарас"\n'))
    app.show()
    s, hint = app.screen.shown[-1]
    assert s["players"] == {"A": "Олена", "B": "Тарас"} and hint == "config-next-match"
    s, _ = feed(app, ButtonHold("undo", 40.0), ButtonPress("undo", 41.0))  # a new match
    assert s["players"] == {"A": "Ія", "B": "Тарас"} and s["race"] == 1


def test_CV_1_under_the_american_penalty_a_ball_right_after_the_choice_is_a_pot(table):
    app = table('[match]\nrace = 3\n[rules]\npenalty = "american"\n')
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # A breaks and pots one
    feed(app, ButtonPress("B", 10.0))  # ...then misses: B plays
    s, _ = feed(app, ButtonPress("foul", 20.0))  # B fouls with no ball: he owes one
    assert s["phase"] == "foul" and s["score"] == {"A": 1, "B": -1}
    s, hint = feed(app, Pot(4, 25.0))  # no penalty ball goes into a pocket under CV-1
    assert s["score"] == {"A": 1, "B": -1} and hint == "choose"
    feed(app, ButtonPress("A", 30.0))  # GR-7.4: A shoots himself
    s, _ = feed(app, Pot(2, 33.0))  # within the official rules' penalty-ball window
    assert s["score"] == {"A": 2, "B": -1} and s["striker"] == "A"


def test_CV_1_a_lapse_gives_the_offender_his_point_back_and_says_so(table):
    app = table('[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\n[rules]\npenalty = "american"\n')
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0), Pot(2, 2.5))  # Олена breaks, pots two
    s, _ = feed(app, ButtonPress("foul", 12.0))  # a foul: she puts one back
    assert s["score"] == {"A": 1, "B": 0}
    s, hint = feed(app, ButtonHold("foul", 20.0))  # she had not: the ball stays hers
    assert s["score"] == {"A": 2, "B": 0} and hint == ("lapsed-back", (("name", "Олена"),))
