"""The appliance core: one loop, durable before shown, exact resume, faults, new match."""

import errno
import os
from functools import partial

import helpers
import pytest
from app_screens import JournalCheckingScreen

from scoreboard import config as configuration
from scoreboard.core.matchlog import replay
from scoreboard.inputs.events import (
    BoardHello,
    BoardLost,
    ButtonHold,
    ButtonPress,
    Pot,
    SensorStuck,
)
from scoreboard.store.journal import list_archive, read_journal
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock

# All the inputs on the loop, then one run: the snapshot shown after.
feed = partial(helpers.feed, each=False, last=helpers.last_snapshot)


def test_a_new_state_dir_starts_a_match_from_the_config_in_lag(make_app):
    app = make_app(player_a="Олена Петрів", player_b="Тарас", race=2)
    s = app.screen.frames[-1][0]
    assert s["phase"] == "lag" and s["race"] == 2
    assert s["players"] == {"A": "Олена Петрів", "B": "Тарас"}


def test_every_step_is_durable_before_it_is_shown_and_resumes_exactly(make_app, tmp_path):
    app = make_app()
    s = feed(app, ButtonPress("A", 1.0), Pot(3, 2.0), Pot(4, 2.5), ButtonPress("foul", 3.0))
    assert s["phase"] == "break-foul" and s["foul"]["to_spot"] == 2
    app.close()
    again = make_app()
    assert again.screen.frames[-1][0] == s  # the same state after a restart


def test_undo_survives_a_restart(make_app):
    app = make_app()
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0), Pot(2, 30.0))
    app.close()
    again = make_app()
    s = feed(again, ButtonPress("undo", 40.0), ButtonPress("undo", 41.0))
    assert s["phase"] == "break" and s["score"] == {"A": 0, "B": 0}


def test_an_ignored_input_shows_a_hint_that_goes_away_by_itself(make_app):
    app = make_app()
    feed(app, Pot(1, 1.0))
    assert app.screen.frames[-1][2] == "who-breaks"
    app.clock.advance(10)
    app.loop.run_pending()
    assert app.screen.frames[-1][2] is None


def test_board_faults_show_over_the_score_and_clear(make_app):
    app = make_app()
    feed(app, BoardLost(1.0), SensorStuck(3, 1.5))
    faults = app.screen.frames[-1][1]
    assert {"kind": "board-lost"} in faults and {"kind": "sensor-stuck", "pocket": 3} in faults
    feed(app, BoardHello("1.0", 7, 2.0))
    assert app.screen.frames[-1][1] == ({"kind": "sensor-stuck", "pocket": 3},)


def test_a_pocket_that_never_fires_is_reported_silent(make_app):
    app = make_app(race=99)
    feed(app, ButtonPress("A", 0.0))
    t = 1.0
    for i in range(24):
        t += 10
        feed(app, Pot(1 + i % 5, t), ButtonPress("undo", t + 1))  # pockets 1-5 only
    assert {"kind": "sensor-silent", "pocket": 6} in app.screen.frames[-1][1]


def test_hold_undo_and_confirm_archives_the_match_and_starts_a_new_one(make_app, tmp_path):
    app = make_app()
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))
    s = feed(app, ButtonHold("undo", 10.0), ButtonPress("undo", 11.0))
    assert s["phase"] == "lag" and s["events"] == 5  # players, race, target, 2 options
    (archived,) = list_archive(tmp_path)
    assert archived.meta["finished"] is False and archived.meta["frames"] == {"A": 0, "B": 0}
    assert archived.meta["started"] is not None


def test_a_button_after_match_over_opens_the_setup_and_changes_nothing_in_the_match(make_app):
    app = make_app(target=1)
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # A wins the frame and the match
    before = app.match.events
    s = feed(app, ButtonPress("A", 3.0), ButtonPress("B", 4.0))  # both confirm (issue 34)
    assert s["confirmation"]["closed"] == "confirmed" and "setup" not in s
    s = feed(app, ButtonPress("A", 5.0))
    assert s["phase"] == "match-over" and s["setup"]["mode"] == "menu"
    assert app.match.events == before


def test_status_prints_what_a_restart_would_show(make_app, tmp_path, capsys):
    import json

    from scoreboard.cli import main

    app = make_app()
    shown = feed(app, ButtonPress("A", 1.0), Pot(2, 2.0), ButtonPress("B", 20.0))
    assert main(["status", "--state-dir", str(tmp_path), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed.pop("table_key") is None  # an App alone makes none: the Appliance does
    assert printed == shown


def test_history_lists_and_exports_archived_matches(make_app, tmp_path, capsys):
    import csv
    import io
    import json

    from scoreboard.cli import main

    app = make_app(target=2, player_a="Olena", player_b="Taras")
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0), ButtonPress("B", 10.0), ButtonPress("foul", 20.0))
    feed(app, ButtonPress("A", 30.0), Pot(1, 40.0))  # A plays on and wins 2:0
    feed(app, ButtonHold("undo", 50.0), ButtonPress("undo", 51.0))
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    (match,) = json.loads(capsys.readouterr().out)
    assert match["finished"] and match["winner"] == "A" and match["frame_scores"] == [[2, 0]]
    assert match["fouls"]["B"] == {"other": 1} and match["longest_run"]["A"] == 1
    assert main(["history", "--state-dir", str(tmp_path), "--csv"]) == 0
    (row,) = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert row["player_a"] == "Olena" and row["winner"] == "Olena" and row["fouls_b"] == "other:1"
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    assert "Olena 1:0 Taras  (2:0)" in capsys.readouterr().out


def test_history_shows_the_match_just_finished_as_not_yet_archived(make_app, tmp_path, capsys):
    import csv
    import io
    import json

    from scoreboard.cli import main

    app = make_app(target=1, player_a="Olena", player_b="Taras")
    feed(app, ButtonHold("undo", 5.0), ButtonPress("undo", 6.0))  # an abandoned one, archived
    feed(app, ButtonPress("B", 10.0), Pot(4, 11.0))  # Taras breaks, pots: frame and match
    assert app.match.phase == "match-over" and len(list_archive(tmp_path)) == 1
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    archived, finished = json.loads(capsys.readouterr().out)
    assert archived["archived"] is True and archived["finished"] is False
    assert finished["archived"] is False and finished["number"] is None
    assert finished["finished"] and finished["winner"] == "B" and finished["frames"]["B"] == 1
    assert finished["ended"] >= finished["started"]
    assert main(["history", "--state-dir", str(tmp_path), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["archived"], r["finished"], r["winner"]) for r in rows] == [
        ("yes", "no", ""),
        ("no", "yes", "Taras"),
    ]
    assert main(["history", "--state-dir", str(tmp_path)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert "Olena 0:1 Taras  (0:1)" in last and last.endswith("just finished, not yet archived")
    assert last.lstrip().startswith("-")
    feed(app, ButtonHold("undo", 20.0), ButtonPress("undo", 21.0))  # a new match archives it
    assert main(["history", "--state-dir", str(tmp_path), "--json"]) == 0
    assert [m["archived"] for m in json.loads(capsys.readouterr().out)] == [True, True]


def test_a_board_pot_is_acked_only_once_durable_and_a_resent_one_counts_once(make_app, tmp_path):
    acked = []

    def acknowledge(serial, store):
        assert f"# board pot {store}:{serial}" in read_journal(tmp_path).lines  # durable first
        acked.append(serial)

    app = make_app()
    app.ledger.ack = acknowledge
    feed(app, ButtonPress("A", 1.0), Pot(2, 2.0, "board", 41, 7))
    s = feed(app, Pot(2, 2.5, "board", 41, 7))  # the board did not hear our ack: resent
    assert s["score"] == {"A": 1, "B": 0} and acked == [41, 41]
    app.close()
    again = make_app()  # the host restarted before the ack reached the board
    again.ledger.ack = lambda serial, store: acked.append(serial)
    s = feed(again, Pot(2, 3.0, "board", 41, 7), Pot(3, 3.2, "board", 42, 7))
    assert s["score"] == {"A": 2, "B": 0} and acked[-2:] == [41, 42]


def test_a_penalty_ball_from_the_board_is_journaled_so_a_resend_cannot_score(make_app, tmp_path):
    app = make_app()
    feed(app, ButtonPress("A", 1.0), ButtonPress("B", 5.0), ButtonPress("foul", 10.0))
    feed(app, Pot(1, 12.0, "board", 5, 9))  # D-1: the penalty ball dropped in a pocket
    s = feed(app, ButtonPress("A", 20.0), Pot(1, 21.0, "board", 5, 9))  # A plays; resent
    assert s["phase"] == "play" and s["score"] == {"A": 1, "B": 0}


def test_systemd_ready_after_the_first_frame_and_watchdog_from_the_loop(tmp_path, monkeypatch):
    import socket

    from scoreboard.table.service import systemd_notifier

    sock_path = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", sock_path)
    monkeypatch.setenv("WATCHDOG_USEC", "10000000")  # 10 s: ping every 5 s
    state = tmp_path / "state"
    screen = JournalCheckingScreen(state)
    clock = ManualClock(0.0)
    app = App(
        configuration.default(),
        state_dir=state,
        screens=[screen],
        clock=clock,
        notifier=systemd_notifier(),  # as `scoreboard run` makes it
        log=lambda m: None,
    )
    app.start()
    messages = []

    def drain():
        while True:
            try:
                messages.append(listener.recv(100).decode())
            except BlockingIOError:
                return

    drain()
    assert screen.frames and messages[:2] == ["READY=1", "WATCHDOG=1"]
    for _ in range(3):
        clock.advance(5.0)
        app.loop.run_pending()
    drain()
    assert messages.count("WATCHDOG=1") == 4
    app.close()
    listener.close()


def test_ready_refused_by_a_full_notify_queue_is_sent_again_until_systemd_takes_it(
    tmp_path, monkeypatch
):
    # systemd's notify queue holds net.unix.max_dgram_qlen datagrams; a full one refuses a
    # send. A lost READY=1 would have systemd stop the table at TimeoutStartSec.
    import socket

    from scoreboard.table.service import RESEND_SECONDS, systemd_notifier

    sock_path = str(tmp_path / "notify.sock")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(sock_path)
    listener.setblocking(False)
    fillers = []
    while True:  # fill it until a fresh socket is refused: the queue, not a send buffer
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        probe.connect(sock_path)
        probe.setblocking(False)
        fillers.append(probe)
        try:
            while True:
                probe.send(b"FILLER")
        except BlockingIOError:
            pass
        fresh = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        fresh.setblocking(False)
        try:
            fresh.sendto(b"FILLER", sock_path)
        except BlockingIOError:
            break
        finally:
            fresh.close()
    monkeypatch.setenv("NOTIFY_SOCKET", sock_path)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    clock = ManualClock(0.0)
    app = App(
        configuration.default(),
        state_dir=tmp_path / "state",
        screens=[JournalCheckingScreen(tmp_path / "state")],
        clock=clock,
        notifier=systemd_notifier(),
        log=lambda m: None,
    )
    app.start()  # READY=1 refused: the queue is full

    def drain():
        got = []
        while True:
            try:
                got.append(listener.recv(100))
            except BlockingIOError:
                return got

    assert b"READY=1" not in drain()  # systemd reads: room again
    clock.advance(RESEND_SECONDS)
    app.loop.run_pending()
    assert drain() == [b"READY=1"]
    clock.advance(10 * RESEND_SECONDS)
    app.loop.run_pending()
    assert drain() == []  # once taken, sent no more
    app.close()
    for s in fillers + [listener]:
        s.close()


def test_board_pots_are_remembered_across_a_new_match_and_a_cut_right_after_it(make_app, tmp_path):
    app = make_app()
    feed(app, ButtonPress("A", 1.0), Pot(2, 2.0, "board", 8, 3))
    feed(app, ButtonHold("undo", 10.0), ButtonPress("undo", 11.0))  # a new match
    s = feed(app, ButtonPress("A", 20.0), Pot(2, 21.0, "board", 8, 3))  # resent: not a point
    assert s["score"] == {"A": 0, "B": 0}
    app.storage.archive({"cut": "after the archive, before the new match's first record"})
    app.close()
    again = make_app()
    s = feed(again, ButtonPress("A", 30.0), Pot(2, 31.0, "board", 8, 3))
    assert s["score"] == {"A": 0, "B": 0} and s["phase"] == "break"


@pytest.fixture
def failing_disk(monkeypatch, tmp_path):
    """While `disk["error"]` is set, every write under tmp_path fails with that errno."""
    real = os.write
    disk = {"error": None}

    def write(fd, data):
        if disk["error"] and os.readlink(f"/proc/self/fd/{fd}").startswith(str(tmp_path)):
            raise OSError(disk["error"], os.strerror(disk["error"]))
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)
    return disk


def not_saved(app):
    return [f for f in app.screen.frames[-1][1] if f["kind"] == "not-saved"]


def test_a_full_disk_shows_play_marked_not_saved_and_writes_it_all_once_it_clears(
    make_app, tmp_path, failing_disk
):
    app = make_app()
    acked = []
    app.ledger.ack = lambda serial, store: acked.append(serial)
    feed(app, ButtonPress("A", 1.0))
    failing_disk["error"] = errno.ENOSPC
    s = feed(app, Pot(1, 10.0, "board", 1, 4))
    assert s["score"] == {"A": 1, "B": 0} and acked == []  # shown, not acked: the board keeps it
    assert not_saved(app)[0]["problem"] == "full"
    s = feed(app, Pot(1, 10.2, "board", 1, 4), Pot(2, 11.0, "board", 2, 4))  # resent, then one more
    assert s["score"] == {"A": 2, "B": 0} and acked == []
    assert s["stats"]["A"]["shots"] == 1  # one stroke with two balls, not split in two
    assert app.faults.pocket_pots == [1, 1, 0, 0, 0, 0]  # the resent ball counted once
    app.clock.advance(60)
    app.loop.run_pending()  # the timer tries the disk again: still full
    assert not_saved(app) and acked == []
    failing_disk["error"] = None
    app.clock.advance(2.0)
    app.loop.run_pending()
    assert not not_saved(app) and acked == [1, 2]
    assert replay(read_journal(tmp_path).lines).snapshot() == app.screen.frames[-1][0]


def test_a_new_match_on_a_failing_disk_is_the_configured_one_and_is_written_later(
    make_app, tmp_path, failing_disk
):
    app = make_app(player_a="Olena", player_b="Taras")
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))
    failing_disk["error"] = errno.EIO
    s = feed(app, ButtonHold("undo", 10.0), ButtonPress("undo", 11.0))
    assert s["phase"] == "lag" and s["players"] == {"A": "Olena", "B": "Taras"}
    assert not_saved(app)[0]["problem"] == "broken"
    s = feed(app, ButtonPress("B", 20.0))  # play goes on in the new match
    failing_disk["error"] = None
    s = feed(app, Pot(3, 30.0))  # the next event writes what waits first
    assert s["score"] == {"A": 0, "B": 1} and not not_saved(app)
    (archived,) = list_archive(tmp_path)
    assert replay(archived.lines()).snapshot()["score"] == {"A": 1, "B": 0}
    assert replay(read_journal(tmp_path).lines).snapshot() == s


def test_a_journal_that_does_not_replay_from_its_first_line_still_starts(tmp_path):
    from scoreboard.store.journal import Journal

    with Journal(tmp_path) as journal:
        journal.append(["shot pots=1"])  # a shot before anyone broke: refused by the rules
    app = App(configuration.default(), state_dir=tmp_path, screens=[], log=lambda m: None)
    s = app.match.snapshot()
    assert s["phase"] == "lag" and s["players"]["A"] == "Гравець 1"
    assert list_archive(tmp_path)[0].meta["unreplayable"].startswith("line 1")
    app.close()


def test_history_leaves_out_a_damaged_archive_file_with_a_warning(make_app, tmp_path, capsys):
    from scoreboard.cli import main

    app = make_app(player_a="Olena", player_b="Taras")
    for t in (10.0, 20.0, 30.0):
        feed(app, ButtonHold("undo", t), ButtonPress("undo", t + 1))  # three matches archived
    (tmp_path / "archive" / "0001.json").write_text('{"players": {"A": "Olena"}}')
    (tmp_path / "archive" / "0002.json").write_text("{not json")
    assert main(["history", "--state-dir", str(tmp_path), "--csv"]) == 0
    out, err = capsys.readouterr()
    assert out.count("Olena") == 1  # the one intact match
    assert "0001.json is damaged" in err and "0002.json is missing or unreadable" in err


def test_CV_1_an_old_journal_with_play_after_a_lapse_that_reached_the_target_resumes_at_it(
    tmp_path,
):
    """docs/decisions.md, CV-1: before issue 19 such a lapse left the frame going; a journal
    from then resumes with the frame ended at the lapse, the whole of it archived."""
    from scoreboard.store.journal import Journal

    old = [
        "players A B", "race 2", "target 5", "option penalty=american", "break A",
        "shot pots=2", "shot foul=push", "choose pass", "shot pots=3", "lapse", "shot pots=1",
    ]  # fmt: skip
    with Journal(tmp_path) as journal:
        journal.append(old)
    app = App(configuration.default(), state_dir=tmp_path, screens=[], log=lambda m: None)
    s = app.match.snapshot()
    assert s["phase"] == "frame-over" and s["score"] == {"A": 5, "B": 0}
    (archived,) = list_archive(tmp_path)
    assert archived.meta["unreplayable"].startswith("line 11")
    assert archived.lines()[-1] == "shot pots=1"
    app.close()


def test_what_the_network_side_gets_is_the_matchs_data_not_the_screens_own():
    """Issue 20: the socket, SSE and MQTT get no setup, page or shot clock, nor which page of
    a fault a small screen shows (a long fault turning pages published every 2 s)."""
    from scoreboard.table.presenter import SCREEN_ONLY, Shown

    snapshot = {"phase": "frame-over", "page": "stats", "shot_clock": {"left": 3}, "setup": {}}
    shown = Shown(snapshot, ({"kind": "not-saved", "problem": "full", "page": 2},), None)
    data, faults = shown.data()
    assert data == {"phase": "frame-over"} and not set(data) & set(SCREEN_ONLY)
    assert faults == [{"kind": "not-saved", "problem": "full"}]
    assert shown.snapshot["page"] == "stats"  # the screens' picture keeps it
