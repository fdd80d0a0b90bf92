"""scoreboard-net.service (issue 12): verified, hardened like the main unit, and installed by
install.sh only when the config switches the web face on."""

import re
import subprocess

from tests.test_systemd import (
    ANALYZE,
    EXEC,
    INSTALL,
    REPO,
    UNINSTALL,
    directives,
    needs_analyze,
    run,
    target,  # noqa: F401 (a fixture)
)

NET_UNIT = REPO / "systemd" / "scoreboard-net.service"


@needs_analyze
def test_the_net_unit_verifies_and_its_exposure_is_at_most_2_0(tmp_path):
    program = tmp_path / "scoreboard"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    unit = tmp_path / "scoreboard-net.service"
    unit.write_text(NET_UNIT.read_text().replace(EXEC, str(program)))
    done = subprocess.run([ANALYZE, "verify", str(unit)], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", str(NET_UNIT)], capture_output=True, text=True
    )
    found = re.search(r"Overall exposure level for scoreboard-net\.service: ([\d.]+)", done.stdout)
    assert found and float(found.group(1)) <= 2.0, done.stdout


def test_the_net_unit_runs_scoreboard_net_apart_with_no_device_and_only_the_state_writable():
    d = directives(NET_UNIT)
    assert d["Service.ExecStart"] == [f"{EXEC} net --config /etc/scoreboard/scoreboard.toml"]
    assert d["Service.ExecCondition"] == [
        f"{EXEC} net --config /etc/scoreboard/scoreboard.toml --enabled"
    ]
    assert d["Service.User"] == ["scoreboard"] and d["Service.ProtectSystem"] == ["strict"]
    assert d["Service.ReadWritePaths"] == ["/var/lib/scoreboard"]  # phones.json, the socket
    assert d["Service.PrivateDevices"] == ["yes"]  # no GPIO, no display, no serial
    assert "Service.DeviceAllow" not in d


def test_install_adds_the_net_unit_only_when_the_web_is_enabled(target):  # noqa: F811
    calls = run(INSTALL, target)
    assert not (target / "etc/systemd/system/scoreboard-net.service").exists()
    assert not any("scoreboard-net" in c for c in calls)
    config = target / "etc/scoreboard/scoreboard.toml"
    config.write_text(config.read_text().replace("enabled = false", "enabled = true"))
    calls = run(INSTALL, target)
    installed = target / "etc/systemd/system/scoreboard-net.service"
    assert installed.read_text() == NET_UNIT.read_text()
    assert f"pip -m pip install --quiet --upgrade {REPO}[pi,web]" in calls
    assert calls[-1] == f"systemctl --root={target} enable scoreboard-net.service"
    calls = run(UNINSTALL, target)
    assert f"systemctl --root={target} disable scoreboard-net.service" in calls
    assert not installed.exists()


def test_install_with_net_adds_the_net_unit_before_the_web_is_enabled(target):  # noqa: F811
    # The card image: its config is edited later, on the boot partition, from a PC.
    calls = run(INSTALL, target, WITH_NET="1")
    assert (
        target / "etc/systemd/system/scoreboard-net.service"
    ).read_text() == NET_UNIT.read_text()
    assert f"pip -m pip install --quiet --upgrade {REPO}[pi,web]" in calls
    assert calls[-1] == f"systemctl --root={target} enable scoreboard-net.service"


def test_net_enabled_answers_whether_web_or_mqtt_is_on(tmp_path):
    from scoreboard.cli import main

    config = tmp_path / "scoreboard.toml"
    config.write_text("[web]\nenabled = false\n")
    assert main(["net", "--config", str(config), "--enabled"]) == 1
    config.write_text("[web]\nenabled = true\n")
    assert main(["net", "--config", str(config), "--enabled"]) == 0
    config.write_text('[mqtt]\nenabled = true\nhost = "broker"\ntable = "t1"\n')
    assert main(["net", "--config", str(config), "--enabled"]) == 0
