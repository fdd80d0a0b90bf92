"""The next match's settings as a command on the app's one queue (table/setup/command.py):
what the phone page and the club's MQTT `assign` send through the local socket."""

from functools import partial

import helpers
import pytest

from scoreboard import config as configuration
from scoreboard.core.matchlog import replay
from scoreboard.core.settings import MatchSettings, SettingsError
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import read_journal
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock
from scoreboard.table.setup.command import SetupNext, from_payload


class Screen:
    lang = "uk"

    def __init__(self):
        self.frames = []

    def show(self, snapshot, *, faults=(), hint=None):
        self.frames.append((snapshot, hint, self.lang))


@pytest.fixture
def table(tmp_path):
    apps = []

    def start(text='[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\nrace = 3\ntarget = 2\n'):
        screen = Screen()
        app = App(
            configuration.loads(text),
            state_dir=tmp_path,
            screens=[screen],
            clock=ManualClock(1000.0),
            log=lambda m: None,
        )
        app.start()
        app.screen = screen
        apps.append(app)
        return app

    yield start
    for app in apps:
        app.close()


# All the inputs on the loop, then one run: the snapshot shown after.
feed = partial(helpers.feed, each=False, last=helpers.last_snapshot)


def send(app, payload: dict) -> tuple[bool, str]:
    replies = []
    app.loop.put(from_payload(payload, reply=lambda ok, message: replies.append((ok, message))))
    app.loop.run_pending()
    (reply,) = replies
    return reply


def durable(tmp_path) -> dict:
    return replay(read_journal(tmp_path).lines).snapshot()


def test_settings_sent_before_the_first_shot_are_this_matchs_and_journaled(table, tmp_path):
    app = table()
    assert send(app, {"players": ["Ія", "Петро"], "race": 2}) == (True, "this match")
    s = app.screen.frames[-1][0]
    assert s["players"] == {"A": "Ія", "B": "Петро"} and s["race"] == 2 and s["target"] == 2
    assert durable(tmp_path)["players"] == s["players"]
    s = feed(app, ButtonPress("undo", 5.0))  # UNDO never takes back the settings
    assert (
        s["players"] == {"A": "Ія", "B": "Петро"} and app.screen.frames[-1][1] == "nothing-to-undo"
    )


def test_a_chosen_breaker_is_journaled_and_undo_takes_back_only_the_break(table, tmp_path):
    app = table()
    assert send(app, {"players": ["Ія", "Петро"], "breaker": "B"})[0]
    s = app.screen.frames[-1][0]
    assert s["phase"] == "break" and s["breaker"] == "B" and durable(tmp_path)["breaker"] == "B"
    s = feed(app, ButtonPress("undo", 5.0))
    assert s["phase"] == "lag" and s["players"] == {"A": "Ія", "B": "Петро"}
    assert send(app, {"breaker": "A"})[0]  # a break chosen again replaces it, still before play
    assert app.screen.frames[-1][0]["breaker"] == "A"
    assert send(app, {"breaker": "lag"})[0]  # and the lag again takes the break back
    s = app.screen.frames[-1][0]
    assert s["phase"] == "lag" and s["breaker"] is None and durable(tmp_path)["phase"] == "lag"


def test_settings_sent_during_play_wait_for_the_next_match_across_a_restart(table, tmp_path):
    app = table()
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # play has begun
    assert send(app, {"players": ["Ія", "Петро"]}) == (True, "next match")
    s = app.screen.frames[-1][0]
    assert s["players"] == {"A": "Олена", "B": "Тарас"} and s["score"] == {"A": 1, "B": 0}
    assert app.screen.frames[-1][1] == "setup-next-match"
    app.close()
    app = table()  # a power cut: the waiting settings are kept in the state folder
    s = feed(app, ButtonHold("undo", 40.0), ButtonPress("undo", 41.0))  # a new match
    assert s["players"] == {"A": "Ія", "B": "Петро"} and s["race"] == 3 and s["phase"] == "lag"


def test_settings_sent_after_the_match_start_the_next_and_undo_brings_the_old_back(table):
    app = table()
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0), Pot(2, 3.0))  # 2:0, frame over
    for n in range(2):
        feed(app, ButtonPress("A", 10.0 + 20 * n), ButtonPress("A", 11.0 + 20 * n))
        feed(app, Pot(1, 14.5 + 20 * n), Pot(2, 15.0 + 20 * n))  # past the miss's 3 s
    assert app.screen.frames[-1][0]["phase"] == "match-over"
    # Sent while the players confirm the result: the next match, taken once they have (issue 34)
    assert send(app, {"players": ["Ія", "Петро"], "race": 1}) == (True, "next match")
    assert app.screen.frames[-1][0]["phase"] == "match-over"
    s = feed(app, ButtonPress("A", 80.0), ButtonPress("B", 81.0))
    assert s["phase"] == "lag" and s["players"] == {"A": "Ія", "B": "Петро"} and s["race"] == 1
    s = feed(app, ButtonPress("undo", 90.0))
    assert s["phase"] == "match-over" and s["players"] == {"A": "Олена", "B": "Тарас"}


def test_bad_settings_are_refused_with_the_reason_and_change_nothing(table, tmp_path):
    app = table()
    before = read_journal(tmp_path).lines
    ok, message = send(app, {"players": ["Ія", "ія"]})
    assert not ok and "different names" in message
    ok, message = send(app, {"race": 0})
    assert not ok and "race is 1 to 99" in message
    ok, message = send(app, {"options": {"jumped-ball": "maybe"}})
    assert not ok and "jumped-ball" in message
    assert read_journal(tmp_path).lines == before
    with pytest.raises(SettingsError, match="unknown setting 'colour'"):
        from_payload({"type": "command", "id": "1", "cmd": "setup", "colour": "red"})


def test_a_match_set_up_in_another_language_keeps_it_across_a_restart(table):
    app = table()
    assert send(app, {"lang": "en"})[0]
    assert app.screen.lang == "en"
    app.close()
    app = table()
    assert app.screen.lang == "en"  # the journal's setup record says so
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))
    app.new_match(MatchSettings(players=("Ія", "Петро")))  # back to the config's language
    assert app.screen.lang == "uk"
    app.new_match(MatchSettings(players=("Ія", "Петро"), lang="ru"))
    assert app.screen.lang == "ru"
    app.close()
    app = table()
    assert app.screen.lang == "ru"


def test_a_command_event_with_settings_needs_no_payload(table):
    app = table()
    replies = []
    settings = MatchSettings(players=("Ія", "Петро"), target=5, breaker="A")
    app.loop.put(SetupNext(settings, reply=lambda ok, m: replies.append(ok), source="test"))
    app.loop.run_pending()
    s = app.screen.frames[-1][0]
    assert replies == [True] and s["target"] == 5 and s["striker"] == "A"


def test_a_damaged_setup_file_is_set_aside_and_the_table_goes_on_from_the_config(table, tmp_path):
    (tmp_path / "setup.json").write_text('{"last": {"race": "many"}}')
    app = table()
    assert (tmp_path / "setup.json.bad").exists()
    assert app.screen.frames[-1][0]["players"] == {"A": "Олена", "B": "Тарас"}
    assert send(app, {"race": 2}) == (True, "this match")


def test_the_same_settings_sent_again_write_nothing(table, tmp_path):
    """Issue 21: each `setup` rewrote setup.json and, before the first shot, journaled the
    settings again (6 lines and an fsync a command): a phone or the club sending the same
    settings again and again must change neither file."""
    app = table()

    def files():
        return len(read_journal(tmp_path).lines), (tmp_path / "setup.json").stat().st_ino

    assert send(app, {"players": ["Ія", "Петро"], "race": 2}) == (True, "this match")
    before = files()
    assert send(app, {"players": ["Ія", "Петро"], "race": 2}) == (True, "this match")
    assert send(app, {"race": 2, "breaker": "lag"}) == (True, "this match")
    assert files() == before
    assert send(app, {"breaker": "B"}) == (True, "this match")  # a change is written
    chosen = files()
    assert chosen[0] > before[0] and durable(tmp_path)["breaker"] == "B"
    assert send(app, {"breaker": "B"}) == (True, "this match") and files() == chosen
    feed(app, ButtonPress("B", 5.0), Pot(1, 6.0))  # play has begun
    assert send(app, {"players": ["Ія", "Петро"], "race": 3}) == (True, "next match")
    waiting = files()
    assert send(app, {"players": ["Ія", "Петро"], "race": 3}) == (True, "next match")
    assert files() == waiting


def test_settings_the_disk_refused_are_written_when_sent_again(tmp_path, monkeypatch):
    """Not writing what the file holds must not skip what it may not hold: a write that
    failed after its rename (the folder's fsync refused) may have left the new file."""
    from scoreboard.store import setup_store
    from scoreboard.store.setup_store import Kept, SetupStore

    store, warned = SetupStore(tmp_path, warn=lambda m: warned.append(m)), []
    first, second = Kept(recent=("Ія",)), Kept(recent=("Петро",))
    assert store.save(first)
    real = setup_store.replace_file

    def renamed_then_failed(*args, **kwargs):
        real(*args, **kwargs)
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(setup_store, "replace_file", renamed_then_failed)
    assert store.save(second) is False and warned
    monkeypatch.setattr(setup_store, "replace_file", real)
    assert store.save(first) is True
    assert SetupStore(tmp_path).load() == first


def test_settings_that_say_nothing_of_the_break_keep_the_breaker_chosen_at_the_table(
    table, tmp_path
):
    """Issue 22: a phone's setup quietly reset "Олена breaks" to "Who breaks first?"."""
    app = table()
    feed(app, ButtonPress("A", 1.0))  # the lag: Олена breaks
    assert send(app, {"race": 5}) == (True, "this match")
    s = app.screen.frames[-1][0]
    assert s["race"] == 5 and s["phase"] == "break" and s["breaker"] == "A"
    assert durable(tmp_path)["breaker"] == "A" and durable(tmp_path)["race"] == 5
    assert send(app, {"breaker": "lag"}) == (True, "this match")  # said: the lag again
    assert app.screen.frames[-1][0]["phase"] == "lag"
    feed(app, ButtonPress("A", 9.0))  # Олена breaks again; then two other players are sent
    assert send(app, {"players": ["Ія", "Петро"]}) == (True, "this match")
    assert app.screen.frames[-1][0]["phase"] == "lag"  # they lag for the break themselves


def test_a_match_set_up_for_the_clubs_assign_carries_its_id_to_its_result(table, tmp_path):
    """Issue 22: the club's tournament moves on when a table's result says which of its
    matches it was: the assign's id is journaled with the settings and read back."""
    from scoreboard.store.history_rows import just_finished

    app = table()
    tagged = {"players": ["Ія", "Петро"], "race": 1, "assign": "t3-W1-2"}
    assert send(app, tagged) == (True, "this match")
    assert "# setup for=t3-W1-2" in read_journal(tmp_path).lines
    before = len(read_journal(tmp_path).lines)
    assert send(app, tagged) == (True, "this match")  # the same again: nothing written
    assert len(read_journal(tmp_path).lines) == before
    assert send(app, {**tagged, "assign": "t3-W1-3"}) == (True, "this match")  # moved
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # the break, then play
    assert send(app, {"players": ["Ія", "Олена"], "assign": "t3-W2-1"}) == (True, "next match")
    feed(app, Pot(2, 3.0))  # Ія wins 2 : 0 (target 2)
    assert just_finished(tmp_path)["assign"] == "t3-W1-3"  # not the one waiting
    s = feed(app, ButtonHold("undo", 40.0), ButtonPress("undo", 41.0))  # the next match
    assert s["players"] == {"A": "Ія", "B": "Олена"}
    from scoreboard.core.settings import assign_of

    assert assign_of(read_journal(tmp_path).lines) == "t3-W2-1"


def test_settings_without_an_assign_never_take_the_last_ones(table):
    from scoreboard.core.settings import MatchSettings, SettingsError

    last = MatchSettings(players=("Ія", "Петро"), assign="t1-GF")
    assert "# setup for=t1-GF" in last.lines()
    assert MatchSettings.from_dict({"race": 2}, defaults=last).assign == ""
    with pytest.raises(SettingsError, match="assign is an id"):
        MatchSettings.from_dict({"assign": "a b"})


def test_the_clubs_tag_never_outlives_its_game(table, tmp_path):
    """A review found the assign's id kept in the last settings (a rematch from the setup
    screen was tagged as the tournament's game again) and not cleared by other settings."""
    from scoreboard.core.settings import assign_of
    from scoreboard.store.setup_store import SetupStore
    from scoreboard.table.phone_commands import setup

    app = table()
    assert send(app, {"players": ["Ія", "Петро"], "assign": "T1-W1-1"}) == (True, "this match")
    assert SetupStore(tmp_path).load().last.assign == ""  # the next match starts untagged
    assert send(app, {"players": ["Олена", "Тарас"]}) == (True, "this match")  # others now
    assert assign_of(read_journal(tmp_path).lines) is None
    assert send(app, {"players": ["Ія", "Петро"], "assign": "T1-W1-1"})[0]
    assert send(app, {"players": ["Ія", "Петро"]}) == (True, "this match")  # the same: kept
    assert assign_of(read_journal(tmp_path).lines) == "T1-W1-1"
    assert setup(None, {"phone": "ab12cd", "assign": "T1-W1-1"}) == (
        False,
        "a phone cannot set the club's assign",
    )


def test_the_lag_screen_says_which_of_the_clubs_games_it_is(table, monkeypatch):
    """Issue 22: the table shows who plays whom, the race (the button row's "0 (3) 0") and the
    round: the club's assign id (T3-W2-1: tournament 3, winners' round 2) on the lag screen;
    settings without an assign show none."""
    from scoreboard.display.canvas import Canvas
    from scoreboard.display.render import canvas, panel

    app = table()
    assert send(app, {"players": ["Ія", "Петро"], "race": 3, "assign": "T3-W2-1"})[0]
    tagged = app.screen.frames[-1][0]
    assert tagged["phase"] == "lag" and tagged["game"] == "T3-W2-1"
    drawn = []
    original = Canvas.text
    monkeypatch.setattr(
        Canvas, "text", lambda self, x, y, s, **kw: drawn.append(s) or original(self, x, y, s, **kw)
    )
    for display in ("ssd1306", "ssd1322"):
        drawn.clear()
        canvas(tagged, panel(display), lang="en")
        assert any(s.startswith("T3-W2-1 · ") for s in drawn), (display, drawn)
    assert send(app, {"players": ["Ія", "Олена"], "race": 3})[0]  # other settings: untagged
    assert "game" not in app.screen.frames[-1][0]
