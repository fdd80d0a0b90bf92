"""`scoreboard run` as systemd starts it: config, logging to stderr, SIGTERM, exit codes."""

import contextlib
import os
import signal
import socket
import subprocess
import sys

from helpers import PATIENCE

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


def start(tmp_path, level="info", text=CONFIG, notify=None, **environ):
    path = tmp_path / "scoreboard.toml"
    path.write_text(text.format(state=tmp_path / "state", level=level))
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", **environ}  # gpiozero's mock pins
    if notify:
        env["NOTIFY_SOCKET"] = notify
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
    assert proc.wait(timeout=PATIENCE) == 0
    assert (tmp_path / "state" / "journal.log").read_text().count("players Олена Тарас") == 1


def test_run_with_log_level_warning_says_nothing_when_all_is_well(tmp_path):
    # Wait for READY=1 (sent after the first frame, so after the start-up INFO line would
    # have been written): a log_level that did nothing would show that line here.
    sock_path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(sock_path)
        sock.settimeout(PATIENCE)
        proc = start(tmp_path, level="warning", notify=sock_path)
        while b"READY=1" not in sock.recv(4096):
            pass
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=PATIENCE) == 0
    assert proc.stderr.read() == ""


def test_run_with_a_value_out_of_range_names_the_key_and_line_and_exits_2(tmp_path):
    proc = start(
        tmp_path, text=CONFIG.replace('player_b = "Тарас"', 'player_b = "Тарас"\nrace = 0')
    )
    assert proc.wait(timeout=PATIENCE) == 2
    err = proc.stderr.read()
    assert "match.race: must be 1 to 99, got 0" in err and ":5:" in err
    assert "Traceback" not in err
    assert not (tmp_path / "state" / "journal.log").exists()  # nothing started


def full_notify_socket(path: str) -> socket.socket:
    """A notify socket whose reader is behind: its queue (net.unix.max_dgram_qlen) is full.

    A writer's EAGAIN alone does not prove that: it also comes from the writer's own send
    buffer (a small one stopped after 6 messages, and a fresh socket then sent 5 more). So
    fill from new sockets until a new socket's first send is refused: only the reader's full
    queue refuses a socket that has sent nothing."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    while True:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as writer:
            writer.connect(path)
            writer.setblocking(False)
            try:
                writer.send(b"STATUS=queued by the test")
            except BlockingIOError:
                return sock  # full
            with contextlib.suppress(BlockingIOError):
                while True:
                    writer.send(b"STATUS=queued by the test")


def notify_messages(sock: socket.socket):
    """What the notify socket holds now, then each message as it comes (a bound on a hang)."""
    sock.setblocking(False)
    with contextlib.suppress(BlockingIOError):
        while True:
            yield sock.recv(4096)
    sock.settimeout(PATIENCE)
    while True:
        yield sock.recv(4096)


def test_a_full_notify_queue_never_holds_the_loop_and_sigterm_still_stops_it(tmp_path):
    """systemd's notify socket read late: READY=1 and the watchdog pings find its queue full.
    A blocking send stopped the loop there for good (no reload, no page turn), and a SIGTERM
    ran its handler but could not end the loop; now a ping that does not fit is dropped, and
    once systemd reads again the pings go on."""
    sock_path = str(tmp_path / "notify")
    with full_notify_socket(sock_path) as sock:
        proc = start(tmp_path, notify=sock_path, WATCHDOG_USEC="200000")  # a ping each 0.1 s
        try:
            # The handlers are in place once it says it runs; READY=1 follows the first frame.
            assert proc.stderr.readline().startswith("INFO scoreboard running, state in")
            config, journal = tmp_path / "scoreboard.toml", tmp_path / "state" / "journal.log"
            config.write_text(config.read_text().replace("Тарас", "Петро"))
            proc.send_signal(signal.SIGHUP)
            assert wait_for(journal, "players Олена Петро", proc)  # the loop goes on past READY
            # systemd reads again: the queue was full until now, so any ping in it is new.
            # (READY=1 may come too, late: it is not dropped, it waits until the queue has room.)
            assert b"WATCHDOG=1" in notify_messages(sock)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=PATIENCE) == 0
        finally:
            if proc.poll() is None:  # a failed test leaves no table running
                proc.kill()
                proc.wait()


def wait_for(path, text, proc, timeout=PATIENCE):
    """The journal or the log holding `text`: a bound on a hang, not on speed."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and text in path.read_text():
            return True
        time.sleep(0.05)
    return False


def test_sighup_reloads_the_config_without_a_restart_and_a_broken_one_is_refused(tmp_path):
    # issue 11: `systemctl reload scoreboard` (ExecReload sends SIGHUP).
    sock_path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(sock_path)
        sock.settimeout(PATIENCE)
        proc = start(tmp_path, notify=sock_path)
        while b"READY=1" not in sock.recv(4096):
            pass
    config, journal = tmp_path / "scoreboard.toml", tmp_path / "state" / "journal.log"
    config.write_text(config.read_text().replace("Тарас", "Петро"))
    proc.send_signal(signal.SIGHUP)
    # Nothing played yet: the match takes the new names at once, in its journal.
    assert wait_for(journal, "players Олена Петро", proc)
    config.write_text(config.read_text() + "\n[match]\nrace = 0\n")  # broken
    proc.send_signal(signal.SIGHUP)
    said = read_until(proc, "config not reloaded, the running one stays")
    assert "this match has the new players and settings" in said
    assert proc.poll() is None  # still running
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=PATIENCE) == 0
    assert "Traceback" not in said + proc.stderr.read()


def read_until(proc, text, timeout=PATIENCE):
    """stderr up to the line holding `text` (a bound on a hang, not on speed). Read from the
    pipe itself: a buffered readline can take two lines off the pipe and return one, and
    select() then never says the second is there."""
    import select
    import time

    said, deadline = b"", time.monotonic() + timeout
    while text.encode() not in said and time.monotonic() < deadline:
        if select.select([proc.stderr], [], [], 1.0)[0]:
            said += os.read(proc.stderr.fileno(), 65536)
    return said.decode(errors="replace")
