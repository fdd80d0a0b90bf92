"""Phones through the table's real socket (issue 12): UNDO held, then FOUL, asks the net
process for a code, the code it sends is shown as a QR code on the OLED, and a phone's UNDO waits for a
press at the table while the table's own clients' UNDO does not."""

import pytest
import zxingcpp
from bridge_helpers import LineClient, table
from helpers import press, settle

from scoreboard.bridge import socket_path

URL = "http://192.168.1.20:8080/pair#code=042917"


@pytest.fixture
def a(tmp_path):
    appliance = table(tmp_path)
    yield appliance
    appliance.close()


def command(client, a, id, cmd, **args) -> dict:
    client.send({"type": "command", "id": id, "cmd": cmd, **args})
    return client.next(pump=a.loop.run_pending, kind="reply")


def qr_on_the_oled(a) -> list[str]:
    return [r.text for r in zxingcpp.read_barcodes(a.app.screens[0].image.convert("L"))]


def test_holding_UNDO_then_FOUL_asks_the_net_process_which_has_the_code_shown(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    press(a, a.config.pins.player_a)  # A breaks
    press(a, a.config.pins.undo, seconds=a.config.timings.undo_hold_time + 0.1)
    press(a, a.config.pins.foul)  # the question's other answer: a phone
    assert client.next(pump=a.loop.run_pending, kind="pairing-asked") == {"type": "pairing-asked"}
    reply = command(client, a, "p1", "pairing-code", code="042917", url=URL, seconds=120)
    assert reply["ok"] and qr_on_the_oled(a) == [URL]
    assert command(client, a, "p2", "pairing-done", phone="ab12cd")["ok"]
    assert qr_on_the_oled(a) == []


def test_a_phones_undo_waits_for_a_press_at_the_table(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    press(a, a.config.pins.player_a)
    assert a.app.match.snapshot()["phase"] == "break"
    reply = command(client, a, "u1", "undo", phone="ab12cd")
    assert reply["ok"] and reply["message"] == "waiting for OK at the table"
    assert a.app.match.snapshot()["phase"] == "break" and a.app.hint == "phone-undo"
    press(a, a.config.pins.player_b)  # OK at the table
    assert a.app.match.snapshot()["phase"] == "lag"


def test_the_undo_of_a_client_that_is_no_phone_acts_at_once(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    press(a, a.config.pins.player_a)
    assert command(client, a, "u1", "undo")["message"] == "Undone: who breaks"


def test_a_phone_sets_up_the_next_match_without_a_press(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    reply = command(client, a, "s1", "setup", phone="ab12cd", players=["Olena", "Taras"], race=3)
    assert reply["ok"] and reply["message"] == "this match"  # nothing played yet
    s = a.app.match.snapshot()
    assert s["players"] == {"A": "Olena", "B": "Taras"} and s["race"] == 3
    press(a, a.config.pins.player_a)  # A breaks
    settle(a, 1.0)
    press(a, a.config.pins.player_b)  # and misses: the match is in play
    assert a.app.match.snapshot()["phase"] == "play"
    reply = command(client, a, "s2", "setup", phone="ab12cd", players=["Ira", "Petro"])
    assert reply["ok"] and reply["message"] == "next match"
    assert a.app.match.snapshot()["players"] == {"A": "Olena", "B": "Taras"}


def test_settings_the_table_cannot_take_are_refused_with_the_reason(a, tmp_path):
    client = LineClient(socket_path(tmp_path))
    client.next()
    reply = command(client, a, "s1", "setup", phone="ab12cd", race=0)
    assert not reply["ok"] and "race" in reply["message"]
    reply = command(client, a, "s2", "setup", phone="ab12cd", colour="red")
    assert not reply["ok"] and "colour" in reply["message"]


def test_a_phone_edits_the_roster_the_setup_screen_offers_and_it_is_kept(a, tmp_path):
    from scoreboard.store.setup_store import SetupStore

    client = LineClient(socket_path(tmp_path))
    client.next()
    reply = command(client, a, "r1", "roster", phone="ab12cd", roster=["Olena", " Taras  Bulba "])
    assert reply == {"type": "reply", "id": "r1", "ok": True, "message": "2 names"}
    assert a.app.desk.roster()[:2] == ("Olena", "Taras Bulba")
    assert SetupStore(tmp_path).load().roster == ("Olena", "Taras Bulba")  # durable


@pytest.mark.parametrize(
    ("roster", "why"),
    [("Olena", "list"), (["Olena", "olena"], "twice"), (["a=b"], "="), ([""], "empty")],
)
def test_a_roster_the_table_cannot_take_is_refused_with_the_reason(a, tmp_path, roster, why):
    client = LineClient(socket_path(tmp_path))
    client.next()
    before = a.app.desk.roster()
    reply = command(client, a, "r1", "roster", phone="ab12cd", roster=roster)
    assert not reply["ok"] and why in reply["message"]
    assert a.app.desk.roster() == before


def test_the_club_names_itself_as_the_sender_and_a_phone_cannot(tmp_path):
    logged = []
    a = table(tmp_path, log=logged.append)
    try:
        client = LineClient(socket_path(tmp_path))
        client.next()
        assert command(client, a, "s1", "setup", source="club", race=2)["ok"]
        assert command(client, a, "s2", "setup", phone="ab12cd", source="club", race=3)["ok"]
        assert [m for m in logged if m.startswith("setup from")] == [
            "setup from club: this match",
            "setup from phone: this match",
        ]
    finally:
        a.close()
