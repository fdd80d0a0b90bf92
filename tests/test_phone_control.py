"""The table's side of phones (issue 12, docs/threat-model.md): the pairing code on the OLEDs
(never in the state sent out), and a phone's UNDO waiting for an OK press at the table."""

from functools import partial

import helpers
import pytest
import zxingcpp

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock
from scoreboard.table.phone_control import CODE_SECONDS, REQUEST_SECONDS

URL = "http://192.168.1.20:8080/pair#code=042917"


class NetProcess:
    """Stands where the bridge stands among the app's observers: it hears the ask."""

    def __init__(self):
        self.asked = 0

    def pairing_asked(self):
        self.asked += 1

    def written(self, lines, first):
        pass

    def shown(self, shown):
        pass


@pytest.fixture
def table(tmp_path):
    clock = ManualClock(1000.0)
    screens = create_displays(
        [{"driver": "dummy", "emulates": "ssd1306"}, {"driver": "dummy", "emulates": "max7219"}]
    )
    app = App(
        configuration.default(),
        state_dir=tmp_path,
        screens=screens,
        clock=clock,
        log=lambda m: None,
    )
    app.net = NetProcess()
    app.watch(app.net)
    app.start()
    app.clock = clock
    yield app
    app.close()


# All the inputs on the loop, then one run: the match's snapshot after.
feed = partial(helpers.feed, each=False, last=lambda app: app.match.snapshot())


def in_play(app):
    feed(app, ButtonPress("A", 1.0), Pot(1, 2.0))  # A breaks and pots
    assert app.match.snapshot()["score"]["A"] == 1


def oled_text(app) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(app.screens[0].image.convert("L"))]


def test_holding_UNDO_then_pressing_FOUL_asks_the_net_process_for_a_code(table):
    in_play(table)
    lines = list(table.storage.lines)
    feed(table, ButtonHold("undo", 3.0))
    assert table.hint == "confirm-new-match" and table.net.asked == 0  # the question first
    feed(table, ButtonPress("foul", 4.0))
    assert table.net.asked == 1 and table.hint == "phone-code-asked"
    assert table.storage.lines == lines  # the match is untouched


def test_with_no_net_process_the_table_says_the_network_is_off(table):
    table.unwatch(table.net)
    feed(table, ButtonPress("A", 1.0), ButtonHold("undo", 3.0), ButtonPress("foul", 4.0))
    assert table.hint == "phone-no-network"


def test_FP_7_holding_FOUL_after_a_foul_still_takes_the_point_back_and_never_pairs(table):
    feed(table, ButtonPress("A", 1.0), ButtonPress("foul", 2.0), ButtonPress("B", 3.0))
    feed(table, ButtonHold("foul", 10.0))
    assert table.net.asked == 0 and table.match.snapshot()["foul"]["lapsed"]
    feed(table, ButtonHold("foul", 20.0))  # no point left to take back: only a hint
    assert table.net.asked == 0 and table.hint == "no-lapse"


def test_the_code_and_qr_code_are_on_the_oled_and_nowhere_else(table):
    in_play(table)
    table.phone.show_code("042917", URL, CODE_SECONDS)
    feed(table)
    assert oled_text(table) == [URL]
    assert "042917" not in repr((table.shown, table.screens[1].picture))  # state, LED digits


def test_a_press_closes_the_code_and_does_nothing_else(table):
    in_play(table)
    table.phone.show_code("042917", URL)
    before = table.match.snapshot()
    assert feed(table, ButtonPress("B", 5.0)) == before
    assert table.phone.code is None and oled_text(table) == []


def test_the_code_goes_after_its_time_and_when_the_phone_paired(table):
    table.phone.show_code("042917", URL, 120)
    table.clock.advance(119.9)
    feed(table)
    assert oled_text(table) == [URL]
    table.clock.advance(0.1)
    feed(table)
    assert table.phone.code is None and oled_text(table) == []
    table.phone.show_code("042917", URL, 120)
    table.phone.paired()
    assert table.phone.code is None and table.hint == "phone-paired"


def test_a_ball_while_the_code_is_shown_still_counts(table):
    in_play(table)
    table.phone.show_code("042917", URL)
    assert feed(table, Pot(2, 5.0))["score"]["A"] == 2


@pytest.mark.parametrize("code", ["12345", "abcdef", "1234567", None])
def test_only_six_digits_are_shown(table, code):
    with pytest.raises(ValueError):
        table.phone.show_code(code, URL)


# -- an OK at the table --------------------------------------------------------------------------
class Change:
    def __init__(self):
        self.done = 0

    def __call__(self):
        self.done += 1
        return True, "done"


def test_a_phones_change_waits_for_a_press_of_A_or_B(table):
    in_play(table)
    change = Change()
    table.phone.ask_ok("undo", "ab12cd", change)
    assert table.hint == "phone-undo" and change.done == 0
    before = table.match.snapshot()
    assert feed(table, ButtonPress("B", 5.0)) == before  # the OK press does nothing else
    assert change.done == 1 and table.phone.request is None


@pytest.mark.parametrize("button", ["foul", "undo"])
def test_FOUL_or_UNDO_refuses_a_phones_change(table, button):
    in_play(table)
    change = Change()
    table.phone.ask_ok("undo", "ab12cd", change)
    before = table.match.snapshot()
    assert feed(table, ButtonPress(button, 5.0)) == before
    assert change.done == 0 and table.hint == "phone-refused"


def test_a_ball_drops_a_phones_change_and_counts(table):
    in_play(table)
    change = Change()
    table.phone.ask_ok("undo", "ab12cd", change)
    assert feed(table, Pot(3, 5.0))["score"]["A"] == 2
    feed(table, ButtonPress("A", 6.0))  # too late: no longer an OK
    assert change.done == 0


def test_a_phones_change_nobody_agrees_to_goes_after_30_seconds(table):
    in_play(table)
    change = Change()
    table.phone.ask_ok("undo", "ab12cd", change)
    table.clock.advance(REQUEST_SECONDS - 0.1)
    feed(table)
    assert table.hint == "phone-undo"
    table.clock.advance(0.1)
    feed(table)
    assert table.phone.request is None and table.hint is None
    feed(table, ButtonPress("B", 40.0))
    assert change.done == 0


def test_holding_FOUL_never_asks_for_a_code_in_the_lag_it_opens_the_setup(table):
    feed(table, ButtonHold("foul", 1.0))  # the lag: the setup screen (issue 11), no code
    assert table.net.asked == 0 and table.desk.is_open
    feed(table, ButtonPress("undo", 2.0))  # closes the setup
    assert not table.desk.is_open
    feed(table, ButtonPress("A", 3.0))
    for i in range(8):  # A pots the frame's eight points by hand
        feed(table, ButtonHold("A", 10.0 + 10 * i))
    assert table.match.snapshot()["phase"] in ("frame-over", "match-over")
    feed(table, ButtonHold("foul", 200.0))
    assert table.net.asked == 0 and table.hint == "no-lapse"
    feed(table, ButtonHold("undo", 210.0), ButtonPress("foul", 211.0))
    assert table.net.asked == 1


def test_holding_UNDO_in_the_setup_closes_it_and_then_FOUL_asks_for_a_code(table):
    feed(table, ButtonHold("foul", 1.0))  # the lag: the setup screen
    assert table.desk.is_open
    feed(table, ButtonHold("undo", 2.0))  # closes it and asks the question
    assert not table.desk.is_open and table.hint == "confirm-new-match"
    feed(table, ButtonPress("foul", 3.0))
    assert table.net.asked == 1 and not table.desk.is_open
