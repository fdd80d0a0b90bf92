"""Storage faults against the real `scoreboard run`: the table is never blank, nothing is lost.

Each test starts `scoreboard run` as systemd would (gpiozero's mock pins, the simulated sensor
board on a pseudo-terminal, luma.emulator's capture display writing each frame to a PNG the
test reads) against a state directory that is really broken: a small tmpfs that is full or
mounted read-only, a folder or a file where the other should be, an immutable journal
(chattr +i), a journal root cannot read once the process has no CAP_DAC_OVERRIDE (setpriv).
It checks that the process stays up (READY=1, no traceback), that the display shows the
score with the "not saved" fault, and that once the fault is cleared everything shown is on
disk, the board's pots are acked and the fault is gone. The process runs in real time, so
every wait is for something observable, with generous timeouts; nothing sleeps a fixed time.

Mounting a tmpfs, chattr and setpriv need root: CI runs as root; elsewhere they are skipped.
"""

import errno
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import helpers
import pytest
from helpers import PATIENCE
from PIL import Image, ImageChops

from scoreboard import config as configuration
from scoreboard.core.matchlog import replay
from scoreboard.display.devices import panel_for
from scoreboard.display.render import render
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store.journal import Journal, list_archive, read_journal
from scoreboard.table.recorder import setup_lines

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0, reason="tmpfs mounts, chattr and setpriv need root (CI runs as root)"
)

SCREEN = {"driver": "emulator-capture", "emulates": "ssd1306"}
CONFIG = """
[match]
player_a = "Olena"
player_b = "Taras"
[display]
language = "en"
[[display.screen]]
driver = "emulator-capture"
emulates = "ssd1306"
[sensors]
source = "board"
port = "{port}"
[service]
state_dir = "{state}"
"""
MATCH = ["players Olena Taras", "race 1", "target 8", "option jumped-ball=foul", "break A"]
DROP_PRIVILEGE = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


# Polling an outside process every 50 ms: the wait is bounded by the condition.
wait_for = partial(helpers.wait_for, every=0.05)


class Scoreboard:
    """`scoreboard run` in a subprocess, its sensor board, its display's frames and its log."""

    def __init__(self, tmp_path: Path, state: Path, *, prefix=()):
        self.state = state
        self.closed = False
        self.shots = tmp_path / "shots"
        self.shots.mkdir(exist_ok=True)
        self.board, port = SimulatedBoard.open_pty(time.monotonic)
        self.board.start()
        config = tmp_path / "scoreboard.toml"
        config.write_text(CONFIG.format(port=port, state=state))
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(str(tmp_path / "notify.sock"))
        self.notify.settimeout(0.2)  # only how soon the reader sees the socket closed
        env = {
            **os.environ,
            "GPIOZERO_PIN_FACTORY": "mock",
            "NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
            "WATCHDOG_USEC": "2000000",
            "PYTHONPATH": os.pathsep.join(sys.path),
        }
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "scoreboard", "run", "--config", str(config)],
            cwd=self.shots,  # where the capture display writes its frames
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        self.logger = threading.Thread(target=self._read_log, name="log", daemon=True)
        self.logger.start()
        self.config = configuration.load(config)
        # Read as systemd reads it, at once: its queue holds 10 messages, and one read late
        # (as this test once did, one per poll) drops the pings that do not fit.
        self.notified: list[bytes] = []
        self.reader = threading.Thread(target=self._read_notify, name="notify", daemon=True)
        self.reader.start()
        # After the first frame systemd is told READY, then WATCHDOG from the loop. A test that
        # fails here never gets this object: it leaves no process, board or reader behind.
        try:
            wait_for(lambda: b"READY=1" in self._notified(), what="READY=1 (the service is up)")
        except BaseException:
            self.close()
            raise

    def _read_notify(self):
        while self.notify.fileno() >= 0:
            try:
                self.notified.append(self.notify.recv(100))
            except TimeoutError:
                continue
            except OSError:  # closed
                return

    def _notified(self) -> list[bytes]:
        assert self.alive(), "the scoreboard ended:\n" + "".join(self.log)
        return self.notified

    def pings(self) -> int:
        return self._notified().count(b"WATCHDOG=1")

    def _read_log(self):
        for line in self.proc.stderr:
            self.log.append(line)

    def frame(self) -> Image.Image | None:
        """The last frame the display showed."""
        shots = sorted(self.shots.glob("scoreboard_*.png"))
        for shot in reversed(shots[-2:]):  # the newest may be half written
            try:
                return Image.open(shot).convert("RGB")
            except (OSError, SyntaxError):
                continue
        return None

    def shows(self, snapshot: dict, faults=()) -> bool:
        frame = self.frame()
        if frame is None:
            return False
        expected = render(snapshot, panel_for(SCREEN), lang="en", faults=faults)
        return ImageChops.difference(frame, expected.convert("RGB")).getbbox() is None

    def wait_shows(self, what: str, snapshot: dict, fault_pages=((),)):
        """Until the display shows `snapshot` with one of `fault_pages` (a fault's pages turn)."""
        wait_for(lambda: any(self.shows(snapshot, f) for f in fault_pages), what=what)
        assert self.alive()

    def wait_log(self, text: str) -> str:
        return wait_for(
            lambda: next((s for s in self.log if text in s), None), what=f"{text!r} in the log"
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self):
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            assert self.proc.wait(timeout=PATIENCE) == 0
        self.close()
        assert not any("Traceback" in line for line in self.log), "".join(self.log)

    def close(self):
        """Whatever happened: no process, board, notify socket or reader thread left over."""
        if self.closed:
            return  # a descriptor closed twice could be someone else's by then
        self.closed = True
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        self.board.close()
        self.notify.close()  # the reader sees it closed within its 0.2 s timeout
        for thread in (self.reader, self.logger):  # the log ends with the process
            thread.join(timeout=PATIENCE)
            assert not thread.is_alive(), f"the {thread.name} reader never ended"
        self.proc.stderr.close()


def not_saved(problem: str, *paths) -> list[tuple]:
    """Every page the not-saved fault can be showing: what, where, what to do."""
    return [
        ({"kind": "not-saved", "problem": problem, "path": str(path), "page": page},)
        for path in paths
        for page in range(4)
    ]


def snapshot(lines) -> dict:
    return replay(lines).snapshot()


def padded_journal(state: Path, lines=MATCH, *, end_at=4091):
    """A journal whose end is a few bytes short of a page: the next record needs a new block
    of the filesystem, which a full tmpfs refuses (a record inside the last page would fit)."""
    with Journal(state) as journal:
        journal.append(lines)
        size = journal.path.stat().st_size
        journal.append(["# padding " + "x" * (end_at - size - 10 - 13)])
    assert (state / "journal.log").stat().st_size in range(end_at - 3, end_at + 1)


def fill(folder: Path) -> Path:
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while f.write(b"\0" * 4096):
                pass
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


@pytest.fixture
def tmp_path(tmp_path, tmp_path_was_given):
    """A folder on the disk, not in the RAM where tests/conftest.py puts the others: tmpfs lets
    a file opened before `chattr +i` be written on, so the immutable journal would never fail.
    An explicit TMPDIR or --basetemp is followed (on tmpfs, `immutable` then skips and says why)."""
    if tmp_path_was_given:
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="scoreboard-storage-", dir="/var/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def tmpfs(tmp_path):
    mounts = []

    def mount(path: Path, size="256k") -> Path:
        path.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
            capture_output=True,
            text=True,
        )
        if done.returncode:  # root in a container without CAP_SYS_ADMIN
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        mounts.append(path)
        return path

    yield mount
    for path in reversed(mounts):
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.fixture
def immutable(tmp_path):
    paths = []

    def chattr(path: Path, on: bool):
        if on and on_tmpfs(path):
            pytest.skip(f"{path} is on tmpfs, where a file open before chattr +i is still written")
        done = subprocess.run(
            ["chattr", "+i" if on else "-i", str(path)], capture_output=True, text=True
        )
        if done.returncode and on:  # a filesystem without the immutable flag
            pytest.skip(f"cannot make {path} immutable here: {done.stderr.strip()}")
        assert done.returncode == 0, done.stderr
        paths.append(path)

    yield chattr
    for path in paths:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def on_tmpfs(path: Path) -> bool:
    kind = subprocess.run(["stat", "-f", "-c", "%T", str(path)], capture_output=True, text=True)
    return kind.stdout.strip() == "tmpfs"


@pytest.fixture
def running(tmp_path):
    started = []

    def start(state: Path, **kw) -> Scoreboard:
        started.append(Scoreboard(tmp_path, state, **kw))
        return started[-1]

    yield start
    for board in started:  # a process, board and reader left by a test that failed on the way
        board.close()


def open_ptys() -> int:
    return sum(os.readlink(f"/proc/self/fd/{n}") == "/dev/ptmx" for n in fds())


def fds() -> list[str]:
    return [n for n in os.listdir("/proc/self/fd") if os.path.exists(f"/proc/self/fd/{n}")]


def test_a_scoreboard_that_never_says_ready_leaves_nothing_behind(tmp_path, monkeypatch):
    """A test failing while it waits for READY=1 never gets its Scoreboard, so only __init__
    can end the process, the board and the notify reader (which else polled all session)."""
    real_wait = wait_for
    monkeypatch.setattr(
        sys.modules[__name__], "wait_for", lambda c, *, what: real_wait(c, what=what, patience=1.0)
    )
    pid_file, ptys = tmp_path / "pid", open_ptys()
    threads = set(threading.enumerate())
    hung = ["sh", "-c", f'echo $$ > "{pid_file}"; exec sleep {PATIENCE}', "--"]  # never ready
    with pytest.raises(AssertionError, match="never: READY=1"):
        Scoreboard(tmp_path, tmp_path / "state", prefix=hung)
    assert not Path(f"/proc/{pid_file.read_text().strip()}").exists()  # killed and reaped
    assert [t.name for t in set(threading.enumerate()) - threads if t.is_alive()] == []
    assert open_ptys() == ptys


def play_two_balls(run: Scoreboard, fault_pages):
    """Two balls of one stroke while not saved: shown as one shot of two, marked not saved."""
    run.board.drop_ball(3)
    run.board.drop_ball(5)
    two = snapshot(MATCH + ["shot pots=2"])
    run.wait_shows("two balls, one shot, not saved", two, fault_pages)
    assert run.board.board.outbox, "acked before it was on disk"
    return two


def status_says_what_the_log_says(run: Scoreboard) -> None:
    line = run.wait_log("storage: ")
    status = subprocess.run(
        [sys.executable, "-m", "scoreboard", "status", "--state-dir", str(run.state)],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    assert line.split("WARNING ", 1)[1].strip() in status.stdout, (line, status.stdout)


def all_saved(run: Scoreboard, shown: dict):
    """Everything shown is on disk, the board's pots are acked, the fault is gone."""
    pings = run.pings()
    wait_for(lambda: run.pings() >= pings + 2, what="watchdog pings go on")
    run.wait_shows("the same score, saved, no fault", shown)
    wait_for(lambda: not run.board.board.outbox, what="the board's pots acked")
    assert snapshot(read_journal(run.state).lines) == shown
    assert run.alive()


# -- at start ------------------------------------------------------------------------------------


def test_a_full_disk_during_play_keeps_the_score_with_no_false_silent_pocket_or_split_shot(
    tmp_path, tmpfs, running
):
    state = tmpfs(tmp_path / "state")
    padded_journal(state)
    run = running(state)
    run.wait_shows("the match", snapshot(MATCH))
    filler = fill(state)
    journal = state / "journal.log"
    two = play_two_balls(run, not_saved("full", journal))
    run.wait_log("storage: the disk is full")
    status_says_what_the_log_says(run)
    # The board resends the balls while they are not acked; each counts once, so no pocket
    # turns "silent" (a second fault would show as "+1") and the shot stays one.
    resent = run.board.board.outbox[0][3]
    wait_for(lambda: run.board.board.outbox[0][3] != resent, what="the board resent them")
    run.wait_shows("still two, one fault only", two, not_saved("full", journal))
    # One row says it all in turn: not saved, what is wrong, what to do, and where.
    for page, what in enumerate(["not saved", "disk full", "free space", "the path"]):
        run.wait_shows(f"the fault's page: {what}", two, [not_saved("full", journal)[page]])
    filler.unlink()
    all_saved(run, two)
    assert snapshot(read_journal(state).lines)["stats"]["A"]["shots"] == 1
    run.stop()


def test_the_journal_path_is_a_folder(tmp_path, running):
    state = tmp_path / "state"
    (state / "journal.log").mkdir(parents=True)
    run = running(state)
    new = snapshot(setup_lines(run.config))
    run.wait_shows("a new match, not saved", new, not_saved("folder", state / "journal.log"))
    status_says_what_the_log_says(run)
    run.board.drop_ball(2)  # in lag: a hint, but a board pot all the same
    (state / "journal.log").rmdir()
    all_saved(run, new)
    run.stop()


def test_the_state_folder_is_a_file(tmp_path, running):
    state = tmp_path / "state"
    state.write_text("not a folder")
    run = running(state)
    new = snapshot(setup_lines(run.config))
    run.wait_shows("a new match, not saved", new, not_saved("not-a-folder", state))
    status_says_what_the_log_says(run)
    state.unlink()
    all_saved(run, new)
    run.stop()


def test_the_state_folder_is_read_only(tmp_path, tmpfs, running):
    state = tmpfs(tmp_path / "state")
    padded_journal(state)
    subprocess.run(["mount", "-o", "remount,ro", str(state)], check=True)
    run = running(state)
    two = play_two_balls(run, not_saved("read-only", state / "journal.log"))
    status_says_what_the_log_says(run)
    subprocess.run(["mount", "-o", "remount,rw", str(state)], check=True)
    all_saved(run, two)
    run.stop()


def test_an_immutable_journal(tmp_path, immutable, running):
    state = tmp_path / "state"
    padded_journal(state)
    immutable(state / "journal.log", True)
    run = running(state)
    two = play_two_balls(run, not_saved("denied", state / "journal.log"))
    status_says_what_the_log_says(run)
    immutable(state / "journal.log", False)
    all_saved(run, two)
    run.stop()


def test_an_unreadable_journal(tmp_path, running):
    state = tmp_path / "state"
    padded_journal(state)
    (state / "journal.log").chmod(0)
    run = running(state, prefix=DROP_PRIVILEGE)  # root without CAP_DAC_OVERRIDE obeys modes
    new = snapshot(setup_lines(run.config))
    run.wait_shows("a new match, not saved", new, not_saved("denied", state / "journal.log"))
    (state / "journal.log").chmod(0o644)
    all_saved(run, new)
    # What the journal held that the scoreboard could not read is kept, not overwritten.
    (set_aside,) = list_archive(state)
    assert set_aside.lines()[: len(MATCH)] == MATCH and "set_aside" in set_aside.meta
    run.stop()


def test_a_torn_tail_on_a_full_disk(tmp_path, tmpfs, running):
    state = tmpfs(tmp_path / "state")
    padded_journal(state)
    with open(state / "journal.log", "ab") as f:
        f.write(b"shot po")  # a record cut by a power cut
    filler = fill(state)
    run = running(state)
    paths = [state / "journal.log", state / "torn", state / "torn" / "0001.tail.tmp"]
    two = play_two_balls(run, not_saved("full", *paths))
    filler.unlink()
    all_saved(run, two)
    assert (state / "torn" / "0001.tail").read_bytes() == b"shot po"
    run.stop()


# -- during play -----------------------------------------------------------------------------------


def test_a_failed_cut_after_a_failed_write_does_not_wedge_the_journal(tmp_path, immutable, running):
    """An immutable journal refuses the write and then the cut: today's code gave up on the
    journal until a restart; now the records wait and go in once the journal may change."""
    state = tmp_path / "state"
    padded_journal(state)
    run = running(state)
    run.wait_shows("the match", snapshot(MATCH))
    immutable(state / "journal.log", True)
    two = play_two_balls(run, not_saved("denied", state / "journal.log"))
    immutable(state / "journal.log", False)
    all_saved(run, two)
    run.stop()


def test_a_second_run_is_refused_before_it_touches_the_display(tmp_path, running):
    state = tmp_path / "state"
    first = running(state)
    first.wait_shows("the first one's match", snapshot(setup_lines(first.config)))
    for name in os.listdir(state):
        if name.endswith(".lock"):
            os.remove(state / name)  # a lock file deleted does not let a second one in
    config = tmp_path / "second.toml"
    config.write_text(
        CONFIG.format(port="/dev/null", state=state).replace(
            "emulator-capture", "emulator-terminal"
        )
    )
    second = subprocess.run(
        [sys.executable, "-m", "scoreboard", "run", "--config", str(config)],
        env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"},
        capture_output=True,
        timeout=PATIENCE,
    )
    assert second.returncode == 2 and b"in use" in second.stderr
    assert b"\x1b[" not in second.stdout  # the terminal display was never opened (cleared)
    assert first.alive()
    first.stop()


def test_a_new_match_on_a_full_disk_is_the_configured_one_and_is_saved_once_space_is_freed(
    tmp_path, tmpfs
):
    """A new match needs UNDO held, and `scoreboard run`'s buttons are mock pins inside its own
    process; `scoreboard sim` is the same appliance with those pins pressed from its keys, so it
    stands in here. Today's code showed default names or a match from the archive."""
    state = tmpfs(tmp_path / "state")
    names = tmp_path / "names.toml"
    names.write_text('[match]\nplayer_a = "Olena"\nplayer_b = "Taras"\n')
    sim = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "scoreboard",
            "sim",
            "--state-dir",
            str(state),
            "--config",
            str(names),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    blocks: list[str] = []

    def read():
        block = []
        for line in sim.stdout:
            if line == b"--\n":
                blocks.append(b"".join(block).decode())
                block = []
            else:
                block.append(line)

    threading.Thread(target=read, daemon=True).start()

    def key(keys: str):
        sim.stdin.write(keys.encode())
        sim.stdin.flush()

    def last_block_has(*texts: str, without: str | None = None):
        def check():
            assert sim.poll() is None, sim.stderr.read().decode()
            last = blocks[-1] if blocks else ""
            return all(t in last for t in texts) and not (without and without in last)

        return check

    key("a3")
    wait_for(last_block_has("Olena 1 : 0 Taras", without="not-saved"), what="1:0 on disk")
    filler = fill(state)
    key("Uu")  # hold UNDO, then press it: a new match
    wait_for(
        last_block_has("Olena 0 : 0 Taras", "phase lag", "! not-saved"),
        what="the configured new match, not saved",
    )
    filler.unlink()
    wait_for(last_block_has("Olena 0 : 0 Taras", "phase lag", without="not-saved"), what="saved")
    key("q")
    sim.stdin.close()
    assert sim.wait(timeout=PATIENCE) == 0
    assert b"Traceback" not in sim.stderr.read()
    (archived,) = list_archive(state)
    assert snapshot(archived.lines())["score"] == {"A": 1, "B": 0}
    now = snapshot(read_journal(state).lines)
    assert now["phase"] == "lag" and now["players"] == {"A": "Olena", "B": "Taras"}
