"""`scoreboard run` as systemd starts it: config, logging to stderr, SIGTERM, exit codes."""

import os
import signal
import subprocess
import sys

CONFIG = """
[match]
player_a = "Олена"
player_b = "Тарас"
[[display.screen]]
driver = "dummy"
[sensors]
source = "none"
[service]
state_dir = "{state}"
log_level = "{level}"
"""


def start(tmp_path, level="info", text=CONFIG):
    path = tmp_path / "scoreboard.toml"
    path.write_text(text.format(state=tmp_path / "state", level=level))
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}  # gpiozero's own mock pins
    return subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "run", "--config", str(path)],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def test_run_starts_logs_to_stderr_and_stops_cleanly_on_sigterm(tmp_path):
    proc = start(tmp_path)
    line = proc.stderr.readline()
    assert line.startswith("INFO scoreboard running, state in")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0
    assert (tmp_path / "state" / "journal.log").read_text().count("players Олена Тарас") == 1


def test_run_with_log_level_warning_says_nothing_when_all_is_well(tmp_path):
    proc = start(tmp_path, level="warning")
    proc.send_signal(signal.SIGTERM)  # whenever it is; the handler or the default ends it
    proc.wait(timeout=10)
    assert proc.stderr.read() == ""


def test_run_with_a_broken_config_says_where_and_exits_2(tmp_path):
    proc = start(tmp_path, text=CONFIG + "\n[match]\nrace = 0\n")
    assert proc.wait(timeout=10) == 2
    err = proc.stderr.read()
    assert "scoreboard run:" in err and "Traceback" not in err
