"""Every refusal of the rules core says exactly why, and each limit holds at its boundary."""

import pytest
from matchplay import match, play, score

from scoreboard.core.matchlog import LogError
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import Break, Players, Shot
from scoreboard.rules.fouls import parse_kinds
from scoreboard.rules.rack import layout
from scoreboard.rules.setup import MAX_NAME, MAX_RACE, configure
from scoreboard.rules.shots import break_is_legal, play_shot
from scoreboard.rules.state import MatchState
from scoreboard.texts.messages import HINTS

SETTINGS_REFUSED = "players, race, target and options are set before the first shot"


def refusal(log: str) -> str:
    with pytest.raises(LogError) as refused:
        play(log)
    return str(refused.value)


@pytest.mark.parametrize(
    "setting", ["race 3", "target 5", "players Ann Bob", "option jumped-ball=spot"]
)
def test_settings_are_refused_in_frame_2_before_its_first_shot(setting):
    log = f"race 2\nbreak A\nshot pots=8\nnext\n{setting}"
    assert refusal(log) == f"line 5: {SETTINGS_REFUSED}"


def test_GR_13_2_settings_are_refused_after_a_rerack_before_its_break():
    log = "break A\nshot cushions=0\nchoose rerack-break\ntarget 5"
    assert refusal(log) == f"line 4: {SETTINGS_REFUSED}"


def test_GR_13_2_the_breaker_cannot_be_renamed_after_a_rerack():
    log = "break A\nshot cushions=0\nchoose rerack-break\nbreak B"
    assert refusal(log) == "line 4: the breaker is chosen before the frame's first shot"


def test_a_name_of_the_longest_length_is_taken_and_one_longer_refused():
    longest = "n" * MAX_NAME
    assert play(f"players {longest} B")["players"] == {"A": longest, "B": "B"}
    assert refusal(f"players B {longest}n") == (
        f"line 1: a player's name is 1 to {MAX_NAME} characters, no spaces"
    )


@pytest.mark.parametrize("names", [("", "B"), ("A", ""), ("Ann Lee", "B"), ("A", "Bob\tX")])
def test_an_empty_name_or_one_with_a_space_is_refused(names):
    with pytest.raises(RuleError, match=f"^a player's name is 1 to {MAX_NAME} characters"):
        configure(MatchState(), Players(*names))


def test_D_5_race_99_is_taken_and_100_refused():
    assert play(f"race {MAX_RACE}")["race"] == MAX_RACE
    assert refusal(f"race {MAX_RACE + 1}") == f"line 1: race is 1 to 99 frames, not {MAX_RACE + 1}"
    assert refusal("race 0") == "line 1: race is 1 to 99 frames, not 0"


def test_only_setup_events_configure_a_match():
    with pytest.raises(TypeError, match="not a setup event"):
        configure(MatchState(), Break("A"))


def test_pots_and_jumped_balls_together_may_be_every_ball_on_the_table_and_no_more():
    assert score(play("break A\nshot pots=9 jumped=7")) == (0, 1)  # D-4: a foul, all spotted
    assert refusal("break A\nshot pots=1 jumped=16") == (
        "line 2: 17 balls fell or jumped but only 16 are on the table"
    )


@pytest.mark.parametrize("shot", [Shot(pots=-1), Shot(jumped=-1)])
def test_negative_pots_or_jumped_balls_are_refused(shot):
    state = MatchState(breaker="A", striker="A", due_breaker="A")
    with pytest.raises(RuleError) as refused:
        play_shot(state, shot, opening=False)
    assert str(refused.value) == "pots and jumped balls cannot be negative"


def test_GR_13_1_cushions_count_at_most_the_object_balls_on_the_table():
    assert play("break A\nshot cushions=15")["phase"] == "play"  # 15 object balls: legal break
    assert refusal("break A\nshot cushions=16") == (
        "line 2: cushions=16 is more object balls than are on the table"
    )


def test_GR_13_1_the_refusals_name_their_clause():
    assert refusal("break A\nshot\nshot cushions=2") == (
        "line 3: cushions= and crossed= describe an opening break only (GR-13.1)"
    )
    assert refusal("break A\nshot\nshot foul=illegal-break") == (
        "line 3: illegal-break is a foul of the opening break only (GR-13.1)"
    )


@pytest.mark.parametrize(
    ("shot", "verdict"),
    [
        (Shot(), (True, "not judged: cushions unknown")),
        (Shot(pots=1, cushions=0), (True, "GR-13.1 (1): a ball was legally pocketed")),
        (Shot(cushions=3), (True, "GR-13.1 (2): three object balls touched cushions")),
        (
            Shot(cushions=2, crossed=True),
            (True, "GR-13.1 (3): two touched cushions and one crossed the centre line"),
        ),
        (
            Shot(cushions=2, crossed=False),
            (False, "GR-13.1: too few object balls touched cushions"),
        ),
    ],
)
def test_GR_13_1_a_break_is_judged_with_the_clause_that_decides_it(shot, verdict):
    assert break_is_legal(shot) == verdict


def test_an_unknown_foul_kind_is_refused_with_the_known_ones():
    with pytest.raises(ValueError) as refused:
        parse_kinds("push,bogus")
    assert str(refused.value) == (
        "unknown foul kind 'bogus' (known: cue-tip, feet, no-contact, out-of-turn, "
        "illegal-break, early-stroke, touched-ball, double-hit, push, jumped-ball, other)"
    )


@pytest.mark.parametrize("whites", [0, 16, True, "3"])
def test_GR_9_3_a_rack_has_1_to_15_white_balls(whites):
    with pytest.raises(RuleError) as refused:
        layout(whites)
    assert str(refused.value) == f"a rack has 1 to 15 white balls, not {whites!r}"


def test_a_rules_refusal_without_words_of_its_own_shows_the_displays_refused_hint():
    with pytest.raises(RuleError) as refused:
        play_shot(match("break A").state, Shot(pots=-1), opening=True)
    assert str(refused.value) == "pots and jumped balls cannot be negative"
    assert refused.value.hint == "refused" and "refused" in HINTS  # shown in words, not a key
