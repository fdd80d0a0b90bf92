"""The appliance under the kill test: plays seeded random inputs, announcing each step.

Before each disk step of the journal (a write, an fsync, a rename) and after each frame it
shows, it writes one line to stdout (a single write, so a kill cannot cut it). At the step
the test kills it at, the first from ``wait_from`` on that the test's aim picks (`aimed_at`,
which the test asks too), it waits on stdin: the test kills it while it waits, so where the
kill lands is chosen, never a race. A line is JSON: ``[step, what, detail, lines, archived, snapshot]``:
- ``what`` is ``"write"``, ``"fsync"``, ``"rename"`` or ``"show"``;
- ``detail`` names the file written (``journal.log``, ``0001.json.tmp`` ...) and, for a write,
  whether it is the second half of a record (every write is made in two halves, so a kill
  between them leaves the torn tail a power cut can leave);
- ``lines`` and ``archived`` are the journal's committed lines and the archive's size;
- ``snapshot`` is the state shown (``"show"`` only).
The inputs depend only on the seed, so a run is the same every time.

``kill_child.py zygote`` imports all this once and forks each run from itself (`zygote`): a
run then starts in milliseconds instead of a Python start-up and the app's imports, which
were most of the kill test's time. A forked run is the same process a fresh one would be.
"""

import json
import os
import random
import signal
import socket
import sys
import traceback

import scoreboard.store.durable
import scoreboard.store.journal
from scoreboard import config as configuration
from scoreboard.inputs.events import ButtonHold, ButtonPress, Pot
from scoreboard.store.journal import list_archive
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock
from scoreboard.table.presenter import SCREEN_ONLY

GIVE_UP_AFTER = 1500  # steps: an aim not met by then is killed where the child stands


def aimed_at(aim: str, step: list, phase: str | None, repairing: bool) -> bool:
    """Whether ``step`` is where a kill aimed at ``aim`` lands (the test asks the same)."""
    _, what, detail, *_ = step
    if repairing:  # the last kill left a torn tail: kill while it is saved and cut
        return what == "write" and detail[0].endswith(".tail.tmp") or what == "rename"
    if aim == "any":
        return True
    if aim in ("foul", "break-foul"):  # the step that answers the foul: the penalty choice
        return phase == aim and what != "show"
    if aim == "torn":
        return what == "write" and detail == ["journal.log", True]
    return what == "rename" and detail[0] == "journal.log"  # "archive"


class Steps:
    """Announces each step; waits for the test's go-ahead at each step it may be killed at
    (the aim's, from ``wait_from`` on), so a busy machine costs few round trips."""

    def __init__(self, state_dir, wait_from, aim, repairing):
        self.state_dir = state_dir
        self.wait_from, self.aim, self.repairing = wait_from, aim, repairing
        self.app = None
        self.count = 0
        self.phase = None  # as last shown

    def __call__(self, what, detail=None, snapshot=None):
        self.count += 1
        lines = len(self.app.storage.lines) if self.app else -1
        archived = len(list_archive(self.state_dir)) if what == "show" else None
        line = [self.count, what, detail, lines, archived, snapshot]
        if snapshot is not None:
            self.phase = snapshot["phase"]
        try:
            os.write(1, (json.dumps(line) + "\n").encode())
        except BrokenPipeError:
            os._exit(0)  # the test is gone (and the app would take this for a disk error)
        killed_here = self.count >= GIVE_UP_AFTER or (
            self.count >= self.wait_from and aimed_at(self.aim, line, self.phase, self.repairing)
        )
        if killed_here and not sys.stdin.readline():
            os._exit(0)  # (the test kills it while it waits here)


class AnnouncingOs:
    """The `os` the journal module sees: its disk steps are announced; writes go in halves."""

    def __init__(self, step):
        self.step = step
        self.second_half = False

    def __getattr__(self, name):
        return getattr(os, name)

    @staticmethod
    def _name(fd):
        return os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))

    def write(self, fd, data):
        name = self._name(fd)
        if not self.second_half and len(data) > 1:
            self.step("write", [name, False])
            self.second_half = True
            return os.write(fd, data[: len(data) // 2])
        self.step("write", [name, self.second_half])
        self.second_half = False
        return os.write(fd, data)

    def fsync(self, fd):
        self.step("fsync", [self._name(fd)])
        os.fsync(fd)

    def rename(self, src, dst):
        self.step("rename", [os.path.basename(src), os.path.basename(dst)])
        os.rename(src, dst)


class AnnouncingScreen:
    def __init__(self, step):
        self.step = step

    def show(self, snapshot, *, faults=(), hint=None):
        # The match as shown; the page between frames is the display's own (stats_pages.py).
        self.step("show", snapshot={k: v for k, v in snapshot.items() if k not in SCREEN_ONLY})


def next_input(rng: random.Random, phase: str, asked: bool, t: float):
    """What the hands at the table do next: mostly anything, sometimes what moves the match on."""
    roll = rng.random()
    if phase == "match-over" and (asked or roll < 0.5):
        return ButtonPress("undo", t) if asked else ButtonHold("undo", t)  # a new match
    if phase == "break" and roll < 0.25:
        return ButtonPress("foul", t)  # a foul on the break
    roll = rng.random()
    if roll < 0.3:
        return Pot(rng.randint(1, 6), t)
    if roll < 0.65:
        return ButtonPress(rng.choice("AB"), t)
    if roll < 0.75:
        return ButtonHold(rng.choice("AB"), t)
    if roll < 0.87:
        return ButtonPress("foul", t)
    if roll < 0.99:
        return ButtonPress("undo", t)
    return ButtonHold("undo", t)


def main(state_dir: str, seed: int, wait_from: int, aim: str, repairing: bool) -> None:
    step = Steps(state_dir, wait_from, aim, repairing)
    # The journal's own writes and the archive's whole-file writes (scoreboard.store.durable).
    scoreboard.store.journal.os = scoreboard.store.durable.os = AnnouncingOs(step)
    rng = random.Random(seed)
    clock = ManualClock()
    app = App(
        configuration.default(),
        state_dir=state_dir,
        screens=[AnnouncingScreen(step)],
        clock=clock,
        log=lambda message: None,
    )
    step.app = app
    app.start()
    event = None
    while True:
        asked = isinstance(event, ButtonHold) and event.button == "undo"
        clock.advance(0.5 if asked else rng.uniform(0.1, 8.0))
        event = next_input(rng, app.match.phase, asked, clock())
        app.loop.put(event)
        app.loop.run_pending()


def zygote() -> None:
    """Forks one run per request on the socket that is its stdin: a request is the run's
    arguments with its stdin and stdout (two pipe ends, passed along); the answer is a pidfd
    of the run, which the test kills it by and waits on (no pid that could be reused)."""
    control = socket.socket(fileno=os.dup(0))
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the runs
    while True:
        request, fds, _, _ = socket.recv_fds(control, 4096, 2)
        if not request:
            return  # the test is done
        args = request.decode().split()
        pid = os.fork()
        if pid == 0:
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                control.close()
                os.dup2(fds[0], 0)
                os.dup2(fds[1], 1)
                for fd in fds:
                    os.close(fd)
                main(args[0], int(args[1]), int(args[2]), args[3], args[4] == "repairing")
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(1)  # never back into the zygote's loop
        for fd in fds:
            os.close(fd)
        pidfd = os.pidfd_open(pid)
        socket.send_fds(control, [b"run"], [pidfd])
        os.close(pidfd)


if __name__ == "__main__":
    if sys.argv[1:] == ["zygote"]:
        zygote()
    else:
        main(
            sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5] == "repairing"
        )
