"""The setup screen through the real appliance: gpiozero MockFactory buttons, luma's dummy
display, simulated time (scoreboard/table/setup/, issue 11)."""

import dataclasses
import json
from functools import partial

import helpers
import pytest
from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.core.matchlog import replay
from scoreboard.display import create_displays
from scoreboard.store.journal import list_archive, read_journal
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance

CONFIG = (
    '[match]\nplayer_a = "Олена"\nplayer_b = "Тарас"\ntarget = 1\nroster = ["Ірина", "Богдан"]\n'
)


@pytest.fixture
def table(tmp_path):
    made = []

    def start(text=CONFIG):
        cfg = configuration.loads(text)
        cfg = dataclasses.replace(cfg, sensors=dataclasses.replace(cfg.sensors, source="gpio"))
        clock = ManualClock(100.0)
        factory = MockFactory()
        screens = create_displays([{"driver": "dummy", "emulates": "ssd1306"}], lang="uk")
        a = Appliance(
            cfg, state_dir=tmp_path, screens=screens, pin_factory=factory, clock=clock, log=print
        )
        a.app.start()
        a.clock, a.factory, a.screen = clock, factory, screens[0]
        made.append(a)
        return a

    yield start
    for a in made:
        a.close()


settle = partial(helpers.settle, step=0.01)  # steps of 10 ms of simulated time


PINS = {"a": "player_a", "b": "player_b", "f": "foul", "u": "undo"}


def keys(a, text: str) -> None:
    """Presses as the sim's keys: a b f u press, A B F U hold (past the configured hold)."""
    for key in text:
        if key == " ":
            continue
        pin = a.factory.pin(getattr(a.config.pins, PINS[key.lower()]))
        timings = a.config.timings
        hold = timings.undo_hold_time if key.lower() == "u" else timings.hold_time
        pin.drive_low()
        settle(a, hold + 0.3 if key.isupper() else 0.1)
        pin.drive_high()
        settle(a, 0.1)


def ball(a, pocket=0):
    pin = a.factory.pin(a.config.pins.pockets[pocket])
    pin.drive_low()
    settle(a, 0.04)
    pin.drive_high()
    settle(a, 0.05)


def type_sign(a, sign: str) -> None:
    """B pressed until the letter strip shows `sign`, then FOUL."""
    view = setup(a)
    steps = (view["ring"].index(sign) - view["at"]) % len(view["ring"])
    keys(a, "b" * steps + "f")


def shown(a) -> dict:
    return a.app.shown.snapshot


def setup(a) -> dict | None:
    return shown(a).get("setup")


def win_the_match(a):
    keys(a, "a")  # A breaks
    ball(a)  # and wins (target 1)
    assert shown(a)["phase"] == "match-over"


def confirm(a):
    """Both players confirm the result, each with his own button (issue 34)."""
    keys(a, "a")
    settle(a, 0.6)  # past "one button at a time"
    keys(a, "b")
    assert shown(a)["confirmation"]["closed"] == "confirmed"


def test_a_rematch_is_two_presses_after_the_result(table, tmp_path):
    a = table()
    win_the_match(a)
    confirm(a)
    keys(a, "a")  # the result is closed: the setup opens, on Start, the last settings
    assert setup(a)["mode"] == "menu" and setup(a)["row"] == "start"
    keys(a, "f")  # Start
    s = shown(a)
    assert s["phase"] == "lag" and "setup" not in s
    assert s["players"] == {"A": "Олена", "B": "Тарас"} and s["target"] == 1
    (archived,) = list_archive(tmp_path)
    assert archived.meta["finished"] and archived.meta["winner"] == "A"


def test_the_setup_opens_by_itself_once_the_result_has_been_shown(table):
    a = table()
    win_the_match(a)
    settle(a, 60)  # not while the players have not confirmed the result (issue 34)
    assert setup(a) is None
    confirm(a)
    assert a.app.setup.result_seconds == 32.0  # each of the 4 statistics pages for 8 s
    settle(a, a.app.setup.result_seconds - 1)
    assert setup(a) is None
    settle(a, 2)
    assert setup(a)["mode"] == "menu"
    settle(a, 3)  # past the moment it opened (a press then was meant for the result)
    keys(a, "u")  # UNDO goes back: the result again, the match untouched
    assert setup(a) is None and shown(a)["phase"] == "match-over"
    keys(a, "u")  # and UNDO does not take the confirmed result back: it is final
    assert shown(a)["phase"] == "match-over" and shown(a)["score"] == {"A": 1, "B": 0}


def test_a_long_foul_press_at_the_lag_sets_up_this_match_and_undo_never_takes_it_back(
    table, tmp_path
):
    a = table()
    keys(a, "F")  # held FOUL at "Who breaks first?"
    assert setup(a)["row"] == "start"
    keys(a, "bbb f b b f")  # to "race", change it: 1 -> 3, keep it
    keys(a, "b f bb f")  # "target": 1 -> 3
    keys(a, "b f b f")  # "who breaks": the lag -> A
    keys(a, "aaaaa f")  # back up to Start, start
    s = shown(a)
    assert s["phase"] == "break" and s["race"] == 3 and s["target"] == 3 and s["breaker"] == "A"
    assert replay(read_journal(tmp_path).lines).snapshot()["race"] == 3  # journaled
    assert list_archive(tmp_path) == []  # nothing played: this match took them
    keys(a, "u")  # UNDO takes back the chosen break (play), never the settings
    keys(a, "u")
    s = shown(a)
    assert s["phase"] == "lag" and s["race"] == 3 and s["target"] == 3


def test_a_new_name_by_letters_is_remembered_first_among_the_recent_names(table, tmp_path):
    a = table()
    keys(a, "F b f")  # the setup, player A, the list of names
    view = setup(a)
    assert view["mode"] == "pick" and view["names"] == [
        "Олена",
        "Ірина",
        "Богдан",
        "Тарас",
        "<new>",
    ]
    keys(a, "a f")  # "New name…" (the list wraps round from the top)
    assert setup(a)["mode"] == "letters" and setup(a)["alphabet"] == "uk"
    keys(a, "bbb f")  # the ring starts with done, delete, the next alphabet: "А"
    type_sign(a, "Л")
    keys(a, "u")  # UNDO deletes the last letter
    type_sign(a, "Я")  # a small letter after the first
    assert setup(a)["typed"] == "Ая"
    type_sign(a, "<done>")
    view = setup(a)
    assert view["mode"] == "menu" and view["settings"]["players"] == ["Ая", "Тарас"]
    keys(a, "a f")  # up to Start, start: this match, nothing played yet
    assert shown(a)["players"] == {"A": "Ая", "B": "Тарас"}
    kept = json.loads((tmp_path / "setup.json").read_text(encoding="utf-8"))
    assert kept["recent"][:2] == ["Ая", "Тарас"]
    a.close()
    a = table()  # across a restart the table offers the roster, then the recent names
    keys(a, "F bb f")  # player B's list
    assert setup(a)["names"] == ["Тарас", "Ірина", "Богдан", "Ая", "<new>"]


def test_the_same_name_twice_is_refused_at_the_table(table):
    a = table()
    keys(a, "F b f")  # player A's list: Олена, Ірина, Богдан, Тарас (whom B already is)
    keys(a, "bbb f")
    assert a.app.hint == "setup-same-name" and setup(a)["mode"] == "pick"
    assert setup(a)["settings"]["players"] == ["Олена", "Тарас"]


def test_undo_while_changing_a_value_puts_it_back(table):
    a = table()
    keys(a, "F bbb f bb")  # race 1 -> 3, not yet kept
    assert setup(a)["mode"] == "value" and setup(a)["settings"]["race"] == 3
    keys(a, "u")
    assert setup(a)["mode"] == "menu" and setup(a)["settings"]["race"] == 1
    keys(a, "u")  # and UNDO on the menu leaves the setup, changing nothing
    assert setup(a) is None and shown(a)["race"] == 1


def test_a_power_cut_mid_setup_comes_back_to_the_same_screen(table):
    a = table()
    keys(a, "F b f a f bbb f")  # typing player A's new name: "А"
    before = setup(a)
    assert before["mode"] == "letters" and before["typed"] == "А"
    a.close()  # the power is cut
    a = table()
    assert setup(a) == before
    keys(a, "bbb f")  # and goes on from there
    assert setup(a)["typed"] == "Аг"


def test_the_language_chosen_at_the_table_is_the_screens(table):
    a = table()
    keys(a, "F a f b f")  # up from Start to "language" (the last row): uk -> ru
    assert setup(a)["settings"]["lang"] == "ru"
    keys(a, "b f")  # down to Start (it wraps round), start
    assert a.screen.lang == "ru" and "setup" not in shown(a)


def test_an_undo_hold_in_the_setup_still_asks_for_a_new_match(table, tmp_path):
    a = table()
    win_the_match(a)
    confirm(a)
    keys(a, "b")  # the setup opens
    assert setup(a) is not None
    keys(a, "U u")  # the old habit: UNDO held, UNDO: a new match, never an undone shot
    s = shown(a)
    assert s["phase"] == "lag" and "setup" not in s and len(list_archive(tmp_path)) == 1


def test_foul_after_the_result_turns_a_page_and_never_opens_the_setup(table):
    a = table()
    win_the_match(a)
    confirm(a)
    keys(a, "f f f")  # issue 34: pages, never the setup's Start
    assert setup(a) is None and shown(a)["phase"] == "match-over"
    assert shown(a)["page"] != "result"
