"""`scoreboard status` and `history`: the state directory `run` uses, and a clear message where
this user may not read it (the admin, before the scoreboard group applies)."""

import contextlib
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

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


def as_nobody(argv: list[str], *, groups=()) -> tuple[int, str, str]:
    """main(argv) run by nobody in ``groups``; (exit status, stdout, stderr). The child
    becomes nobody after everything is imported, so it needs no access to the clone,
    wherever that lives, nor to the Python's own library."""
    # First as root, here: every module the command needs (argparse's gettext imports locale
    # lazily) is imported before the child becomes nobody, who may not read the clone (a
    # private folder) nor the Python it runs (a pyenv under root's 0700 home).
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(argv)
    read, write = os.pipe()
    read_out, write_out = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 99
        try:
            os.close(read)
            os.close(read_out)
            os.setgroups(list(groups))
            os.setgid(65534)
            os.setuid(65534)
            sys.stderr, sys.stdout = os.fdopen(write, "w"), os.fdopen(write_out, "w")
            status = main(argv)
            sys.stderr.flush()
            sys.stdout.flush()
        finally:
            os._exit(status)
    os.close(write)
    os.close(write_out)
    with os.fdopen(read) as err, os.fdopen(read_out) as out:
        err_text, out_text = err.read(), out.read()
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]), out_text, err_text


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become another user")


@pytest.fixture
def service_state():
    """A state directory as the unit makes it: 0750, its group may read; reachable by all."""
    # In /tmp itself: $TMPDIR may lie in a private clone (`make mutate` sets it there).
    top = Path(tempfile.mkdtemp(prefix="scoreboard-state-", dir="/tmp"))
    top.chmod(0o755)
    state = top / "state"
    state.mkdir(mode=0o750)
    os.chown(state, 0, GROUP)
    (state / "journal.log").write_text("")
    os.chown(state / "journal.log", 0, GROUP)
    (state / "journal.log").chmod(0o640)
    yield state
    shutil.rmtree(top)


GROUP = 4242  # stands for the scoreboard group


@needs_root
@pytest.mark.parametrize("command", COMMANDS)
def test_the_admin_in_the_scoreboard_group_reads_it_without_a_false_fault(service_state, command):
    status, out, err = as_nobody([command, "--state-dir", str(service_state)], groups=[GROUP])
    assert (status, err) == (0, "")  # no "storage: ... not saved": the admin cannot write, rightly
    assert out.strip() == f"{COMMANDS[command]} {service_state}"


@needs_root
@pytest.mark.parametrize("command", COMMANDS)
def test_a_state_dir_closed_to_this_user_says_what_to_do(service_state, command):
    status, _, err = as_nobody([command, "--state-dir", str(service_state)])
    assert status == 2 and "Traceback" not in err
    assert f"cannot read {service_state}" in err
    assert "scoreboard group" in err and "log out and in again" in err
    assert "sudo usermod -aG scoreboard" in err


@pytest.mark.parametrize("command", COMMANDS)
def test_a_state_dir_that_does_not_exist_is_said_not_taken_for_no_match(
    tmp_path, monkeypatch, capsys, command
):
    """Issue 20: `--state-dir /nonexistent` said "no match in progress" with status 0; and
    after `make sim` the plain command read the service's folder, not the simulator's."""
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "mistyped"
    assert main([command, "--state-dir", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"there is no {missing}" in err and "simulator" not in err
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "journal.log").write_text("")  # where `make sim` plays
    assert main([command, "--state-dir", str(missing)]) == 2
    assert f"--state-dir {tmp_path / 'state'}" in capsys.readouterr().err
