"""The systemd unit (verify, security score, directives) and the install/uninstall scripts."""

import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scoreboard.config import SensorsConfig
from scoreboard.inputs.sensorboard import PICO_USB_ID

REPO = Path(__file__).resolve().parent.parent
UNIT = REPO / "systemd" / "scoreboard.service"
RULES = REPO / "systemd" / "99-scoreboard.rules"
INSTALL = REPO / "systemd" / "install.sh"
UNINSTALL = REPO / "systemd" / "uninstall.sh"
EXAMPLE = REPO / "scoreboard" / "config.example.toml"
EXEC = "/opt/scoreboard/venv/bin/scoreboard"
ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
needs_analyze = pytest.mark.skipif(
    not os.access(ANALYZE, os.X_OK), reason="systemd-analyze is not installed here"
)


def directives(path: Path = UNIT) -> dict[str, list[str]]:
    """`Section.Key` -> every value given, in order (unit files repeat keys)."""
    found, section = {}, ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found.setdefault(f"{section}.{key}", []).append(value)
    return found


@needs_analyze
def test_systemd_analyze_verify_prints_nothing(tmp_path):
    # verify insists that ExecStart's program exists; point only that at a stand-in.
    program = tmp_path / "scoreboard"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    text = UNIT.read_text()
    assert text.count(EXEC) == 1
    unit = tmp_path / "scoreboard.service"
    unit.write_text(text.replace(EXEC, str(program)))
    done = subprocess.run(
        [ANALYZE, "verify", str(unit)], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@needs_analyze
def test_security_exposure_is_at_most_2_0():
    done = subprocess.run(
        [ANALYZE, "security", "--offline=yes", str(UNIT)],
        capture_output=True,
        text=True,
        check=False,
    )
    match = re.search(r"Overall exposure level for scoreboard\.service: ([\d.]+)", done.stdout)
    assert match, done.stdout + done.stderr
    assert float(match.group(1)) <= 2.0
    # and the devices stay reachable: the score is not bought by hiding them
    assert re.search(r"✗ PrivateDevices=", done.stdout)
    assert re.search(r"✗ PrivateUsers=", done.stdout)
    # nor by hiding /proc/cpuinfo and /proc/device-tree, without which no Pi is recognised
    assert re.search(r"✗ ProcSubset=", done.stdout)


# Where gpiozero and lgpio learn which board they run on (gpiozero.pins.local reads the
# revision from /proc/device-tree/system/linux,revision or /proc/cpuinfo; /proc/device-tree
# is a link to /sys/firmware/devicetree/base). A sandbox that hides them makes the service
# fail and restart on every Pi.
BOARD_FILES = (
    "/proc/cpuinfo",
    "/proc/device-tree/model",
    "/proc/device-tree/system/linux,revision",
    "/sys/firmware/devicetree/base/model",
)


def _covers(path: str, file: str) -> bool:
    path = "/" + path.lstrip("-+").strip("/")
    return file == path or file.startswith(path.rstrip("/") + "/")


def hidden_board_files(d: dict[str, list[str]]) -> list[str]:
    """Each board file the unit's sandbox would hide from the service, with the directive."""
    hidden = []
    for file in BOARD_FILES:
        if "pid" in d.get("Service.ProcSubset", []) and file.startswith("/proc/"):
            hidden.append(f"{file}: ProcSubset=pid")
        for key in ("RootDirectory", "RootImage"):
            if d.get(f"Service.{key}"):
                hidden.append(f"{file}: {key}=")
        for key, target in (
            ("InaccessiblePaths", lambda item: item),
            ("TemporaryFileSystem", lambda item: item.split(":")[0]),
            ("BindPaths", lambda item: item.split(":")[1 if ":" in item else 0]),
            ("BindReadOnlyPaths", lambda item: item.split(":")[1 if ":" in item else 0]),
        ):
            for value in d.get(f"Service.{key}", []):
                hidden += [f"{file}: {key}={i}" for i in value.split() if _covers(target(i), file)]
    return hidden


def test_the_sandbox_lets_the_service_see_which_board_it_is_on():
    assert hidden_board_files(directives()) == []


@pytest.mark.parametrize(
    "directive",
    [
        "ProcSubset=pid",
        "InaccessiblePaths=/proc/cpuinfo",
        "InaccessiblePaths=-/sys/firmware",
        "TemporaryFileSystem=/proc/device-tree:ro",
        "BindReadOnlyPaths=/dev/null:/proc/cpuinfo",
        "RootDirectory=/srv/scoreboard",
    ],
)
def test_the_board_check_sees_each_way_a_unit_can_hide_the_board(tmp_path, directive):
    unit = tmp_path / "scoreboard.service"
    unit.write_text(UNIT.read_text().replace("[Install]", f"{directive}\n\n[Install]"))
    assert hidden_board_files(directives(unit))


def test_the_unit_reaches_its_devices():
    d = directives()
    assert d["Service.DevicePolicy"] == ["closed"]
    allowed = set(d["Service.DeviceAllow"])
    assert {"char-i2c rw", "char-spi rw", "char-gpiochip rw", "char-ttyACM rw"} <= allowed
    # A board on a USB-UART adapter ([sensors] port = "/dev/ttyUSB0"; the link opens it at
    # 115200 for this): refused by the device policy, the table never heard it (image-test).
    assert "char-ttyUSB rw" in allowed
    assert "char-*gpiomem rw" in allowed  # bcm2835-gpiomem (Pi 4) and rpi-gpiomem (Pi 5)
    assert "Service.PrivateDevices" not in d and "Service.PrivateUsers" not in d
    assert d["Service.User"] == ["scoreboard"]
    assert set(d["Service.SupplementaryGroups"][0].split()) == {"gpio", "i2c", "spi", "dialout"}


def test_the_unit_is_a_watched_notify_service_that_never_gives_up():
    d = directives()
    assert d["Service.Type"] == ["notify"]
    assert d["Service.ExecStart"] == [f"{EXEC} run --config /etc/scoreboard/scoreboard.toml"]
    assert d["Service.WatchdogSec"] and d["Service.RestartSec"]
    assert d["Service.Restart"] == ["always"]
    assert d["Unit.StartLimitIntervalSec"] == ["0"]  # no start limit: never ends in `failed`
    assert d["Service.StateDirectory"] == ["scoreboard"]
    assert d["Service.ConfigurationDirectory"] == ["scoreboard"]
    assert "Service.StandardOutput" not in d and "Service.StandardError" not in d  # the journal
    assert d["Install.WantedBy"] == ["multi-user.target"]


def test_the_udev_rule_names_the_sensor_board():
    [rule] = [line for line in RULES.read_text().splitlines() if line and line[0] != "#"]
    assert 'SUBSYSTEM=="tty"' in rule
    # the Pico running MicroPython (firmware/PROTOCOL.md), not any Raspberry Pi USB device
    assert 'ATTRS{idVendor}=="2e8a"' in rule and 'ATTRS{idProduct}=="0005"' in rule
    assert (0x2E8A, 0x0005) == PICO_USB_ID == (SensorsConfig().usb_vid, SensorsConfig().usb_pid)
    assert 'SYMLINK+="pyramid-sensors"' in rule
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule  # ModemManager keeps off the board


# Stand-ins for the OS commands the scripts run: each logs its arguments and does to the
# temporary root what the real one would do to /.
STUBS = {
    "groupadd": 'g="${@: -1}"; echo "$g:x:990:" >> "$ROOT/etc/group"',
    "useradd": 'u="${@: -1}"; echo "$u:x:990:990::/var/lib/scoreboard:/usr/sbin/nologin"'
    ' >> "$ROOT/etc/passwd"; echo "$u:x:990:" >> "$ROOT/etc/group"',
    "usermod": 'u="${@: -1}"; groups="${@: -2:1}"; for g in ${groups//,/ }; do'
    ' sed -i -E "s/^($g:[^:]*:[^:]*:)(.+)$/\\1\\2,$u/; s/^($g:[^:]*:[^:]*:)$/\\1$u/"'
    ' "$ROOT/etc/group"; done',
    "userdel": 'u="${@: -1}"; sed -i "/^$u:/d" "$ROOT/etc/passwd"',
    "systemctl": "",
    "udevadm": "",
    # Makes the venv (a python that logs its pip calls); anything else runs the real Python.
    "python3": f'[ "$1 $2" = "-m venv" ] || exec {sys.executable} "$@"; venv="${{@: -1}}";'
    ' mkdir -p "$venv/bin"; printf "#!/bin/sh\\necho pip \\"\\$@\\" >> $CALLS\\n"'
    ' > "$venv/bin/python"; chmod +x "$venv/bin/python"',
}

BOOT_CONFIG = """\
# For more options and information see http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on

[pi4]
arm_boost=1

[all]
"""


@pytest.fixture
def target(tmp_path):
    """A temporary root that looks like a fresh Raspberry Pi OS, and stub OS commands."""
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "passwd").write_text(
        "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000::/home/pi:/bin/bash\n"
    )
    (root / "etc" / "group").write_text("root:x:0:\ndialout:x:20:pi\ni2c:x:998:pi\ngpio:x:997:pi\n")
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOT_CONFIG)
    stubs = tmp_path / "bin"
    stubs.mkdir()
    for name, body in STUBS.items():
        script = stubs / name
        log = f'echo "{name} $*" >> "$CALLS"'
        if name == "python3":  # only the venv is an OS-level step worth logging
            log = f'[ "$1 $2" != "-m venv" ] || {log}'
        script.write_text(f"#!/bin/bash\n{log}\n{body}\n")
        script.chmod(0o755)
    return root


def run(script: Path, root: Path, **env) -> list[str]:
    """Run an install script against ``root``; returns the OS commands it ran."""
    calls = root.parent / "calls.log"
    calls.write_text("")
    environ = {
        "PATH": f"{root.parent / 'bin'}:{os.environ['PATH']}",
        "ROOT": str(root),
        "CALLS": str(calls),
        **env,
    }
    done = subprocess.run(
        ["bash", str(script)], env=environ, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return calls.read_text().splitlines()


def tree(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_install_builds_the_whole_appliance_in_a_fresh_root(target):
    calls = run(INSTALL, target)
    root = f"--root={target}"
    assert f"groupadd {root} --system spi" in calls
    assert not any(c.startswith(("groupadd", "useradd")) and "gpio" in c for c in calls)
    assert any(c.startswith(f"useradd {root} --system --user-group") for c in calls)
    assert f"usermod {root} --append --groups gpio,i2c,spi,dialout scoreboard" in calls
    venv = target / "opt/scoreboard/venv"
    assert f"python3 -m venv --system-site-packages {venv}" in calls
    assert f"pip -m pip install --quiet --upgrade {REPO}[pi]" in calls
    assert calls[-1] == f"systemctl {root} enable scoreboard.service"

    assert (target / "etc/scoreboard/scoreboard.toml").read_text() == EXAMPLE.read_text()
    assert (target / "etc/systemd/system/scoreboard.service").read_text() == UNIT.read_text()
    assert (target / "etc/udev/rules.d/99-scoreboard.rules").read_text() == RULES.read_text()
    modules = (target / "etc/modules-load.d/scoreboard.conf").read_text().split()
    assert "i2c-dev" in modules and "cdc_acm" in modules and "usbserial" in modules
    group = (target / "etc/group").read_text()
    for name in ("gpio", "i2c", "spi", "dialout"):
        assert re.search(rf"^{name}:[^:]*:[^:]*:(.*,)?scoreboard$", group, re.M), name
    boot = (target / "boot/firmware/config.txt").read_text()
    switched_on = BOOT_CONFIG.replace("#dtparam=i2c_arm=on", "dtparam=i2c_arm=on")
    switched_on = switched_on.replace("#dtparam=spi=on", "dtparam=spi=on")
    # and I2C at 400 kHz; no SPI1, which the example config's I2C OLED does not need
    assert boot == switched_on + "\n[all]\ndtparam=i2c_arm_baudrate=400000\n"
    # `scoreboard` on the admin's PATH
    assert os.readlink(target / "usr/local/bin/scoreboard") == EXEC


def test_install_again_changes_nothing_but_the_program(target):
    run(INSTALL, target)
    (target / "etc/scoreboard/scoreboard.toml").write_text('[match]\nplayer_a = "Olena"\n')
    before = tree(target)
    calls = run(INSTALL, target)
    assert tree(target) == before  # the club's config is kept; nothing else drifts
    assert not any(c.startswith(("useradd", "groupadd", "usermod", "python3")) for c in calls)
    assert any(c.startswith("pip ") for c in calls)  # the program itself is updated


def test_install_appends_bus_switches_where_the_boot_config_has_none(target):
    config = target / "boot/firmware/config.txt"
    config.write_text("[pi4]\narm_boost=1\ndtparam=spi=off\ndtparam=i2c_arm_baudrate=100000\n")
    run(INSTALL, target)
    run(INSTALL, target)
    assert config.read_text() == (
        "[pi4]\narm_boost=1\ndtparam=spi=on\ndtparam=i2c_arm_baudrate=400000\n"
        "\n[all]\ndtparam=i2c_arm=on\n"
    )


SPI1_DISPLAYS = """
[[display.screen]]
driver = "ssd1322"
port = 1
spi_device = 1

[[display.screen]]
driver = "max7219"
port = 1
"""


def test_install_switches_on_spi1_for_a_display_on_it_and_leaves_other_overlays(target):
    boot = target / "boot/firmware/config.txt"
    boot.write_text(BOOT_CONFIG + "dtoverlay=vc4-kms-v3d\n")
    run(INSTALL, target)
    assert "spi1" not in boot.read_text()  # the example config's I2C OLED needs no SPI1
    (target / "etc/scoreboard/scoreboard.toml").write_text(SPI1_DISPLAYS)
    run(INSTALL, target)
    run(INSTALL, target)
    text = boot.read_text()
    assert text.endswith("\n[all]\ndtoverlay=spi1-2cs\n")  # CE0 and CE1 of SPI1
    assert "dtoverlay=vc4-kms-v3d\n" in text and text.count("spi1") == 1


def test_install_uses_the_older_boot_config_where_there_is_no_firmware_one(target):
    (target / "boot/firmware/config.txt").rename(target / "boot/config.txt")
    run(INSTALL, target)
    text = (target / "boot/config.txt").read_text()
    assert "\ndtparam=i2c_arm=on\n" in text and "dtparam=i2c_arm_baudrate=400000" in text
    assert not (target / "boot/firmware/config.txt").exists()


def test_install_adds_the_admin_who_ran_it_to_the_scoreboard_group(target):
    calls = run(INSTALL, target, SUDO_USER="pi")
    assert f"usermod --root={target} --append --groups scoreboard pi" in calls
    group = (target / "etc/group").read_text()
    assert re.search(r"^scoreboard:[^:]*:[^:]*:pi$", group, re.M)
    again = run(INSTALL, target, SUDO_USER="pi")
    assert not any(c.startswith("usermod") for c in again)
    # root itself, or a name this system does not have, is left alone
    for user in ("root", "nobody-here"):
        assert not any(c.startswith("usermod") for c in run(INSTALL, target, SUDO_USER=user))


def test_install_sets_its_own_umask(target):
    # An admin's umask of 077 must not leave the program or config unreadable to the service.
    done = subprocess.run(
        ["bash", "-c", f'umask 077; exec bash "{INSTALL}"'],
        env={
            "PATH": f"{target.parent / 'bin'}:{os.environ['PATH']}",
            "ROOT": str(target),
            "CALLS": str(target.parent / "calls.log"),
        },
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for path in ("etc/modules-load.d/scoreboard.conf", "etc/scoreboard/scoreboard.toml"):
        assert (target / path).stat().st_mode & 0o777 == 0o644, path
    assert (target / "opt/scoreboard/venv/bin").stat().st_mode & 0o777 == 0o755


def test_install_without_a_boot_config_or_systemctl_still_installs(target):
    (target / "boot/firmware/config.txt").unlink()
    calls = run(INSTALL, target, NO_SYSTEMCTL="1")
    assert not any(c.startswith(("systemctl", "udevadm")) for c in calls)
    assert (target / "etc/systemd/system/scoreboard.service").exists()
    assert not (target / "boot/firmware/config.txt").exists()


def test_uninstall_keeps_the_config_and_matches_unless_purged(target):
    run(INSTALL, target)
    state = target / "var/lib/scoreboard/archive"
    state.mkdir(parents=True)
    (state / "0001.log").write_text("race 1\n=00000000\n")
    calls = run(UNINSTALL, target)
    assert calls == [f"systemctl --root={target} disable scoreboard.service"]
    for gone in (
        "etc/systemd/system/scoreboard.service",
        "etc/udev/rules.d/99-scoreboard.rules",
        "etc/modules-load.d/scoreboard.conf",
        "opt/scoreboard",
        "usr/local/bin/scoreboard",
    ):
        assert not (target / gone).is_symlink() and not (target / gone).exists(), gone
    assert (target / "etc/scoreboard/scoreboard.toml").exists()
    assert (state / "0001.log").exists()
    assert run(UNINSTALL, target) == calls  # again: nothing left to do, no error

    calls = run(UNINSTALL, target, PURGE="1")
    assert f"userdel --root={target} scoreboard" in calls
    assert not (target / "etc/scoreboard").exists()
    assert not (target / "var/lib/scoreboard").exists()
    assert "scoreboard:" not in (target / "etc/passwd").read_text()
    run(UNINSTALL, target, PURGE="1")


def test_install_reuses_a_scoreboard_group_left_behind(target):
    with open(target / "etc/group", "a") as group:
        group.write("scoreboard:x:990:\n")
    calls = run(INSTALL, target)
    assert any(c.startswith(f"useradd --root={target} --system --gid=scoreboard") for c in calls)
    assert "scoreboard:" in (target / "etc/passwd").read_text()


def test_the_scripts_refuse_to_touch_the_live_system_without_root():
    # As root (CI), drop to nobody for the call, so the check is tested and nothing installs.
    as_user = []
    if os.geteuid() == 0:
        if not shutil.which("setpriv"):
            pytest.skip("running as root without setpriv to become another user")
        as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    for script in (INSTALL, UNINSTALL):
        # The script's text is handed over, so that the check does not depend on whether
        # that user can enter the directory the clone lives in (a 0700 `mktemp -d`, a home).
        done = subprocess.run(
            [*as_user, "bash", "-c", script.read_text(), str(script)],
            cwd="/",
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 1 and "run as root" in done.stderr, done.stderr


@pytest.mark.skipif(not shutil.which("systemctl"), reason="systemctl is not installed here")
def test_the_real_systemctl_enables_and_disables_the_unit_in_the_root(target):
    (target.parent / "bin" / "systemctl").unlink()  # use the real one: --root works offline
    wants = target / "etc/systemd/system/multi-user.target.wants/scoreboard.service"
    run(INSTALL, target)
    assert wants.is_symlink()
    assert os.readlink(wants) == "/etc/systemd/system/scoreboard.service"
    run(UNINSTALL, target)
    assert not wants.is_symlink()
