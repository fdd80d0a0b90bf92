"""Frame times (issue 11, between frames): time marks in the match log date each frame's first
shot and its end; replay, undo and a restart give exactly the times the table showed."""

import pytest
from app_screens import JournalCheckingScreen

from scoreboard import config as configuration
from scoreboard.core.frame_clock import TimeMark, format_mark, parse_mark
from scoreboard.core.matchlog import parse_line, replay
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import read_journal
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock

T0 = 1_796_000_000.0  # 2026-11-30, a wall clock the tests set


def at(seconds: float) -> str:
    return format_mark(TimeMark(T0 + seconds))


def times(log: str) -> list:
    return replay(log.strip().splitlines()).snapshot()["frame_times"]


def test_a_mark_reads_back_to_the_millisecond_and_is_a_comment_to_the_rules():
    line = format_mark(TimeMark(T0 + 12.3456))
    assert line == "# at 2026-11-30T00:53:32.346Z"  # UTC
    assert parse_line(line) == TimeMark(T0 + 12.346)
    for other in ("# at noon", "# at 2026-11-30T00:53:32", "# atomic", "#at 2026-11-30T00:53:32Z"):
        assert parse_line(other) is None  # only a comment
    assert parse_mark("# at 2026-11-30T00:53:32Z") == TimeMark(T0 + 12)


def test_FP_1_a_frame_lasts_from_its_first_shot_to_the_step_that_ends_it():
    log = f"""
        race 2
        break A
        {at(0)}
        shot pots=3
        shot
        shot pots=4
        {at(200)}
        shot pots=4
        next
        {at(300)}
        shot pots=2
        shot foul=push
        choose pass
        {at(754.4)}
        shot pots=6
    """
    s = replay(log.split("\n")).snapshot()
    assert s["frame_scores"] == [[3, 8], [1, 8]] and s["frame_times"] == [200, 454]
    assert s["phase"] == "match-over"


def test_a_mark_dates_only_the_next_event_and_frames_without_marks_have_no_time():
    assert times("break A\nshot pots=8") == [None]
    assert times(f"break A\n{at(0)}\nshot\nshot pots=8") == [None]  # its end had no mark
    assert times(f"{at(0)}\nbreak A\nshot\n{at(60)}\nshot pots=8") == [None]  # nor its start


def test_a_frame_won_on_its_opening_break_takes_no_time():
    assert times(f"target 2\nbreak A\n{at(5)}\nshot pots=2") == [0]


def test_undo_takes_a_frame_s_end_back_and_the_next_end_is_dated_anew():
    log = f"race 2\nbreak A\n{at(0)}\nshot pots=7\n{at(100)}\nshot pots=1\nundo\n"
    assert times(log) == []
    assert times(log + f"{at(130)}\nshot pots=2") == [130]
    # Its first shot undone too: the shot that takes its place starts it, and here ends it.
    assert times(log + f"undo\n{at(140)}\nshot pots=8") == [0]


def test_D_2_a_penalty_point_that_ends_the_frame_is_its_end():
    assert times(f"break A\n{at(0)}\nshot pots=7\nshot\n{at(61)}\nshot foul=push") == [61]


def wired(tmp_path, clock, wall, text="[match]\nrace = 2\n"):
    config = configuration.loads(text)
    screen = JournalCheckingScreen(tmp_path)  # every frame shown is durable, times too
    app = App(
        config,
        state_dir=tmp_path,
        screens=[screen],
        clock=clock,
        wall_clock=lambda: wall,
        log=lambda m: None,
    )
    app.start()
    app.screen = screen
    return app


def put(app, clock, *events):
    for event in events:
        clock.now = event.t
        app.loop.put(event)
        app.loop.run_pending()
    return app.screen.frames[-1][0]


def test_the_app_dates_a_frame_exactly_with_simulated_time_and_a_restart_keeps_it(tmp_path):
    clock = ManualClock(50.0)
    app = wired(tmp_path, clock, T0)
    put(app, clock, ButtonPress("A", 60.0), Pot(1, 75.0))  # the break pots a ball at 75 s
    put(app, clock, ButtonPress("B", 90.0), ButtonPress("A", 110.0))  # misses
    s = put(app, clock, *(Pot(2, 400.0 + i) for i in range(7)))  # the frame ends at 406 s
    assert s["phase"] == "frame-over" and s["frame_times"] == [331]
    lines = read_journal(tmp_path).lines
    assert [line for line in lines if line.startswith("# at ")] == [at(25), at(356)]
    app.close()
    # After a power cut, on a Pi whose clock is now 2 h wrong: the finished frame is as it was.
    clock = ManualClock(5.0)
    app = wired(tmp_path, clock, T0 - 7200)
    s = app.screen.frames[-1][0]
    assert s["frame_times"] == [331]
    s = put(app, clock, ButtonPress("B", 10.0), Pot(3, 20.0))  # frame 2: B breaks and pots
    s = put(app, clock, *(Pot(3, 100.0 + i) for i in range(7)))
    assert s["phase"] == "frame-over" and s["frame_times"] == [331, 86]
    app.close()


def test_a_shot_amended_after_it_ended_the_frame_ends_it_when_amended(tmp_path):
    clock = ManualClock(0.0)
    app = wired(tmp_path, clock, T0)
    put(app, clock, ButtonPress("A", 1.0), Pot(1, 10.0))
    s = put(app, clock, *(Pot(1, 20.0 + i) for i in range(7)))  # 8 : 0 at 26 s
    assert s["frame_times"] == [16]
    s = put(app, clock, Pot(2, 28.0))  # one more ball of the same shot (GR-22: it counts)
    assert s["score"]["A"] == 9 and s["frame_times"] == [18]
    app.close()


@pytest.mark.parametrize("restart", [False, True])
def test_undo_of_the_frame_s_end_through_the_app(tmp_path, restart):
    clock = ManualClock(0.0)
    app = wired(tmp_path, clock, T0)
    put(app, clock, ButtonPress("A", 1.0), Pot(1, 10.0))
    put(app, clock, *(Pot(1, 20.0 + i) for i in range(7)))
    s = put(app, clock, ButtonPress("undo", 40.0))  # the last ball of that shot was not
    assert s["phase"] == "play" and s["score"]["A"] == 7 and s["frame_times"] == []
    if restart:
        app.close()
        app = wired(tmp_path, clock, T0 + clock.now)  # the wall clock went on meanwhile
    s = put(app, clock, *(Pot(4, 70.0 + i) for i in range(7)))
    assert s["phase"] == "frame-over" and s["frame_times"] == [66]
    app.close()


def test_history_and_status_give_the_frame_times(tmp_path, capsys):
    import csv
    import io
    import json

    from scoreboard.cli import main

    clock = ManualClock(0.0)
    app = wired(tmp_path, clock, T0, "[match]\ntarget = 2\n")
    put(app, clock, ButtonPress("A", 1.0), Pot(1, 10.0), ButtonPress("B", 20.0))
    s = put(app, clock, Pot(1, 95.0), Pot(1, 96.0))  # Тарас wins 0:2 at 96 s
    assert s["phase"] == "match-over" and s["frame_times"] == [86]
    assert main(["status", "--state-dir", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["frame_times"] == [86]
    put(app, clock, ButtonHold("undo", 200.0), ButtonPress("undo", 201.0))  # archived
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    (match,) = json.loads(capsys.readouterr().out)
    assert match["frame_times"] == [86] and match["frame_scores"] == [[1, 2]]
    # Issue 22: a match dates from its first shot (10 s in), not from when it was set up.
    assert match["first_shot"] == "2026-11-30T00:53:30Z" != match["started"]
    assert main(["history", "--state-dir", str(tmp_path), "--csv"]) == 0
    (row,) = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["frame_times"] == "86" and row["started"] == "2026-11-30T00:53:30Z"
    app.close()


def test_a_break_amended_with_one_more_ball_keeps_the_time_it_was_first_entered():
    # The panel adds a ball to the open shot as one record: `undo` and the shot again.
    log = f"target 2\nbreak A\n{at(0)}\nshot pots=1\n{at(3)}\nundo\nshot pots=2"
    assert times(log) == [3]
    # An UNDO of its own, then a break entered anew: the frame starts with the new one.
    log = f"target 2\nbreak A\n{at(0)}\nshot pots=1\nundo\n{at(30)}\nshot pots=1\n{at(45)}\nshot pots=1"
    assert times(log) == [15]


def test_replay_and_status_say_the_frame_times_in_words(tmp_path, capsys):
    from scoreboard.cli import main

    log = tmp_path / "match.log"
    log.write_text(
        f"race 2\nbreak A\n{at(0)}\nshot pots=8\nnext\nshot pots=8\n"
        f"next\n{at(1000)}\nshot\n{at(4725)}\nshot pots=8\n",
        encoding="utf-8",
    )
    assert main(["replay", str(log)]) == 0
    assert "frame times: 0:00 ? 1:02:05" in capsys.readouterr().out.splitlines()
