"""The match-log format: parsing, refusals with line numbers, formatting, undo."""

import pytest
from matchplay import match, play

from scoreboard.core.matchlog import LogError, format_event, parse, replay


@pytest.mark.parametrize(
    "log, line, why",
    [
        ("break A\nfly away", 2, "unknown event 'fly'"),
        ("break A\nshot foul=sneeze", 2, "unknown foul kind 'sneeze'"),
        ("break A\nshot pots=two", 2, "pots must be a whole number"),
        ("break A\nshot pots=1 pots=2", 2, "pots= given twice"),
        ("break A\nshot colour=red", 2, "unknown shot field"),
        ("break C", 1, "expected A or B"),
        ("players Olena", 1, "expected: players NAME_A NAME_B"),
        ("break A\nshot\nchoose play", 3, "there is no foul to choose after"),
        ("break A\nshot crossed=maybe", 2, "crossed must be yes or no"),
        ("undo", 1, "nothing to undo"),
        ("break A\nshot foul=push\nchoose sideways", 3, "unknown choice 'sideways'"),
        ("race 0", 1, "race is 1 to 99 frames"),
        ("break A\nshot pots=\u0663", 2, "pots must be a whole number"),  # Arabic-Indic 3
        ("race \u00b2", 1, "race must be a whole number"),  # superscript 2
        # The first wrong line in order, a rule (line 2) before a format error (line 3).
        ("break A\nchoose play\nfly away", 2, "there is no foul to choose after"),
        ("break A\nfly away\nchoose play", 2, "unknown event 'fly'"),
    ],
)
def test_bad_logs_name_the_line_and_why(log, line, why):
    with pytest.raises(LogError) as err:
        play(log)
    assert err.value.line_no == line and why in err.value.reason


def test_comments_and_blank_lines_are_ignored():
    s = play("# a match\n\nplayers Olena Taras   # names\n\nbreak A\n  shot pots=2  \n")
    assert s["score"] == {"A": 2, "B": 0} and s["events"] == 3


def test_format_then_parse_is_the_same_event():
    log = (
        "players Olena Taras\nrace 3\ntarget 7\noption jumped-ball=spot\nbreak B\n"
        "shot pots=1 foul=push,feet jumped=2 cushions=3 crossed=yes by=A\nchoose rerack-pass\n"
        "lapse\nnext\nundo"
    )
    entries = parse(log.splitlines())
    assert [format_event(e.item) for e in entries] == log.splitlines()


def test_undo_across_a_frame_end_is_exact():
    m = match("race 2\nbreak A\nshot pots=5\nshot\nshot pots=2\nshot foul=push\nchoose play")
    before = m.snapshot()
    replay(["shot pots=3", "next", "shot pots=1"], m)
    assert m.snapshot()["frame"] == 2
    for _ in range(3):
        m.undo()
    assert m.snapshot() == before


def test_undo_everything_gives_a_new_match():
    m = match("break A\nshot pots=2\nshot foul=push")
    while m.events:
        m.undo()
    assert m.snapshot() == match("").snapshot()
    assert m.phase == "lag"


def test_replay_applies_each_line_before_it_reads_the_next():
    """A log is streamed: the match holds line n's event before line n+1 is asked for."""
    m = match("")
    seen = []

    def lines():
        for line in ["players Olena Taras", "break A", "shot", "shot", "undo"]:
            seen.append(m.snapshot()["events"])
            yield line
        seen.append(m.snapshot()["events"])

    replay(lines(), m)
    assert seen == [0, 1, 2, 3, 4, 3]


def test_undo_far_back_through_checkpoints_is_exact():
    """Undo restores the nearest saved step and re-applies the rest: every step back must
    equal the match replayed only up to there, across many checkpoints."""
    log = ["players Olena Taras", "break A"] + [
        "shot" if n % 20 else "shot foul=push\nchoose play" for n in range(1, 140)
    ]
    lines = "\n".join(log).splitlines()
    m = replay(lines)
    for keep in range(len(lines) - 1, -1, -1):
        m.undo()
        assert m.snapshot() == replay(lines[:keep]).snapshot(), keep
