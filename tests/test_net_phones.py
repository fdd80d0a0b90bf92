"""Paired phones (issue 12, docs/threat-model.md): tokens kept hashed, durable, 30 days, revocable."""

import os
import stat

from scoreboard.net.phones import LIFETIME, Phones
from scoreboard.table.loop import ManualClock


def test_a_paired_phone_is_found_by_its_token_and_no_other(tmp_path):
    phones = Phones(tmp_path, clock=ManualClock(1e9))
    token, phone = phones.add("Olena's phone")
    assert phones.find(token) == phone
    assert phones.find(token + "x") is None
    assert phones.find("") is None and phones.find(None) is None
    assert phone.name == "Olena's phone"


def test_the_file_keeps_no_token_only_its_hash_and_only_for_this_user(tmp_path):
    phones = Phones(tmp_path, clock=ManualClock(1e9))
    token, _ = phones.add("x")
    text = (tmp_path / "phones.json").read_text()
    assert token not in text
    assert stat.S_IMODE(os.stat(tmp_path / "phones.json").st_mode) == 0o600


def test_pairing_survives_a_restart(tmp_path):
    clock = ManualClock(1e9)
    token, phone = Phones(tmp_path, clock=clock).add("x")
    assert Phones(tmp_path, clock=clock).find(token) == phone


def test_a_pairing_is_good_for_30_days(tmp_path):
    clock = ManualClock(1e9)
    phones = Phones(tmp_path, clock=clock)
    token, _ = phones.add("x")
    clock.advance(LIFETIME - 1)
    assert phones.find(token) is not None
    clock.advance(1)
    assert phones.find(token) is None
    assert phones.list() == []


def test_a_revoked_phone_is_let_in_no_more_here_or_in_another_process(tmp_path):
    clock = ManualClock(1e9)
    server, command_line = Phones(tmp_path, clock=clock), Phones(tmp_path, clock=clock)
    kept, _ = server.add("kept")
    token, phone = server.add("lost")
    assert server.find(token) is not None  # the server has read the file
    assert command_line.revoke(phone.id)
    assert server.find(token) is None
    assert server.find(kept) is not None
    assert not command_line.revoke(phone.id)  # gone already


def test_the_list_shows_names_and_ids_never_hashes(tmp_path):
    clock = ManualClock(1e9)
    phones = Phones(tmp_path, clock=clock)
    phones.add("first")
    clock.advance(1)
    phones.add("\x1b[2Jsecond\n")
    listed = [p.public() for p in phones.list()]
    assert [p["name"] for p in listed] == ["first", "[2Jsecond"]
    assert all("token_sha256" not in p for p in listed)


def test_a_damaged_list_lets_nobody_in(tmp_path):
    phones = Phones(tmp_path, clock=ManualClock(1e9))
    token, _ = phones.add("x")
    (tmp_path / "phones.json").write_text("{not json")
    assert phones.find(token) is None
    again, _ = phones.add("y")  # pairing again starts a new list
    assert phones.find(again) is not None and phones.find(token) is None


def test_the_phones_command_lists_and_revokes(tmp_path, capsys):
    from scoreboard.cli import main

    token, phone = Phones(tmp_path).add("Olena's phone")
    assert main(["phones", "--state-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert phone.id in out and "Olena's phone" in out and token not in out
    assert main(["phones", "--state-dir", str(tmp_path), "--revoke", phone.id]) == 0
    assert Phones(tmp_path).find(token) is None
    assert main(["phones", "--state-dir", str(tmp_path), "--revoke", phone.id]) == 2
    assert "no paired phone" in capsys.readouterr().err
    assert main(["phones", "--state-dir", str(tmp_path)]) == 0  # none: it says how to pair
    assert "hold UNDO, then press FOUL" in capsys.readouterr().out


def test_a_phone_paired_with_another_table_is_not_paired_here(tmp_path):
    clock = ManualClock(1e9)
    token, _ = Phones(tmp_path / "table-1", clock=clock).add("x")
    assert Phones(tmp_path / "table-2", clock=clock).find(token) is None


def test_root_leaves_the_list_to_the_services_user(tmp_path):
    if os.geteuid() != 0:
        import pytest

        pytest.skip("only root can give a file away")
    os.chown(tmp_path, 4242, 4242)
    Phones(tmp_path).add("x")  # as `sudo scoreboard phones --revoke` writes it
    for name in ("phones.json", "phones.lock"):
        st = os.stat(tmp_path / name)
        assert (st.st_uid, st.st_gid) == (4242, 4242), name
