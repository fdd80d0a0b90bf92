"""The table's Wi-Fi from the settings' [wifi] (issue 23): checked as every key is, and
written for wpa_supplicant with nothing to quote."""

import stat

import pytest

from scoreboard import config as configuration
from scoreboard.cli import main
from scoreboard.config import WifiConfig
from scoreboard.wifi import psk, wpa_conf, write


def test_the_key_is_the_one_wpa_passphrase_computes():
    # IEEE 802.11i-2004, H.4.3: passphrase "password", SSID "IEEE".
    assert (
        psk("IEEE", "password")
        == "f42c6fc52df0ebef9ebb4b90b38a5f902e83fe1b135a70e23aed762e9710a12e"
    )


def test_a_network_is_written_as_hex_and_key_and_none_removes_the_file(tmp_path):
    to = tmp_path / "wifi" / "wpa_supplicant-wlan0.conf"
    w = WifiConfig(ssid='Club "Піраміда"', password="secret password", country="UA")
    assert write(w, to)
    text = to.read_text()
    assert "country=UA\n" in text
    assert f"\tssid={w.ssid.encode().hex()}\n" in text
    assert f"\tpsk={psk(w.ssid, w.password)}\n" in text and "secret" not in text
    assert stat.S_IMODE(to.stat().st_mode) == 0o600
    assert "key_mgmt=NONE" in wpa_conf(WifiConfig(ssid="Open"))
    assert not write(WifiConfig(), to) and not to.exists()


@pytest.mark.parametrize(
    ("section", "key", "words"),
    [
        ('ssid = "Club"\npassword = "short"', "wifi.password", "8 to 63"),
        ('password = "long enough"', "wifi.password", "needs wifi.ssid"),
        ('ssid = "Club"\ncountry = "ua"', "wifi.country", "two capital letters"),
        ('ssid = "' + "x" * 33 + '"', "wifi.ssid", ""),
    ],
)
def test_a_wrong_wifi_is_a_settings_mistake_with_its_line(section, key, words):
    text = "[wifi]\n" + section + "\n"
    with pytest.raises(configuration.ConfigError) as e:
        configuration.loads(text, path="scoreboard.toml")
    assert e.value.key == key and words in e.value.reason
    assert e.value.line is not None and e.value.line >= 2


def test_the_command_writes_the_files_wifi(tmp_path, capsys):
    config = tmp_path / "scoreboard.toml"
    config.write_text('[wifi]\nssid = "Club"\npassword = "12345678"\ncountry = "PL"\n')
    to = tmp_path / "wpa.conf"
    assert main(["wifi", "--config", str(config), "--to", str(to)]) == 0
    assert "country=PL" in to.read_text()
    assert "Wi-Fi 'Club' (PL)" in capsys.readouterr().out


CHANGES = {"wifi.ssid": '"Club"', "wifi.password": '"12345678"', "wifi.country": '"PL"'}


def test_every_documented_wifi_key_changes_what_is_written():
    from tests.test_config_keys_act import example_keys

    assert sorted(k for k in example_keys() if k.startswith("wifi.")) == sorted(CHANGES)
    base = 'ssid = "Home"\n'
    before = wpa_conf(configuration.loads("[wifi]\n" + base).wifi)
    for key, value in CHANGES.items():
        name = key.split(".")[1]
        text = "[wifi]\n" + (base if name != "ssid" else "") + f"{name} = {value}\n"
        assert wpa_conf(configuration.loads(text).wifi) != before, f"{key} changed nothing"
