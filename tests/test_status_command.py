"""`scoreboard status` and `history`: the state directory `run` uses, and a clear message where
this user may not read it (the admin, before the scoreboard group applies)."""

import os
import sys

import pytest

from scoreboard.cli import main

COMMANDS = {"status": "no match in progress in", "history": "no finished matches in"}


@pytest.fixture
def config(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_text(f'[service]\nstate_dir = "{tmp_path / "state"}"\n')
    (tmp_path / "state").mkdir()
    return path


@pytest.mark.parametrize("command", COMMANDS)
def test_the_state_dir_is_the_one_the_config_names(config, tmp_path, capsys, command):
    assert main([command, "--config", str(config)]) == 0
    assert capsys.readouterr().out.strip() == f"{COMMANDS[command]} {tmp_path / 'state'}"
    # --state-dir still overrides it, as for `run`
    assert main([command, "--config", str(config), "--state-dir", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == f"{COMMANDS[command]} {tmp_path}"


@pytest.mark.parametrize("command", COMMANDS)
def test_a_config_that_does_not_load_says_so(tmp_path, capsys, command):
    assert main([command, "--config", str(tmp_path / "missing.toml")]) == 2
    err = capsys.readouterr().err
    assert "missing.toml" in err and "--state-dir" in err and "Traceback" not in err


def locked_out(argv: list[str], state) -> tuple[int, str]:
    """main(argv) run by nobody, who may not enter ``state`` (like the admin before the
    scoreboard group applies); (exit status, stderr). The child becomes nobody after
    everything is imported, so it needs no access to the clone, wherever that lives."""
    state.chmod(0o700)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 99
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            sys.stderr = os.fdopen(write, "w")
            status = main(argv)
            sys.stderr.flush()
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as out:
        err = out.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), err


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")
@pytest.mark.parametrize("command", COMMANDS)
def test_a_state_dir_closed_to_this_user_says_what_to_do(config, tmp_path, command):
    status, err = locked_out([command, "--state-dir", str(tmp_path / "state")], tmp_path / "state")
    assert status == 2 and "Traceback" not in err
    assert f"cannot read {tmp_path / 'state'}" in err
    assert "scoreboard group" in err and "log out and in again" in err
    assert "sudo usermod -aG scoreboard" in err
