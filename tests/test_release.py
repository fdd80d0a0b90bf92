"""The version a table reports: the card image's release where there is one (issue 23)."""

from scoreboard import __version__, release
from scoreboard.config import Config, MqttConfig
from scoreboard.mqtt.publisher import info_for


def test_a_card_image_reports_its_release_and_anything_else_the_package(tmp_path, monkeypatch):
    file = tmp_path / "scoreboard-release"
    assert release.version(file) == __version__  # no file: installed with install.sh
    file.write_text("VERSION=0.2.0\nCOMMIT=abc1234\nBUILT=2026-12-04T15:00Z\n")
    assert release.version(file) == "0.2.0"
    assert release.fields(file)["COMMIT"] == "abc1234"
    file.write_bytes(b"\xff\xfe")
    assert release.version(file) == __version__
    file.write_text("VERSION=0.3.0\n")
    monkeypatch.setattr(release, "RELEASE", file)
    monkeypatch.setattr(release.version, "__defaults__", (file,))
    config = Config(mqtt=MqttConfig(enabled=True, host="broker", table="t1"))
    assert info_for(config)["version"] == "0.3.0"
