"""Nothing lost: kill -9 the running appliance at chosen steps; each restart resumes exactly.

The child (`kill_child.py`) announces every disk step and every frame shown, and stops at the
step the test kills it at (the first one its aim picks, which both work out the same way), so
each kill lands where the test chose: no timer, no race.
The schedule is random from a fixed seed, and every kind of step is aimed at: any step, a step
taken while a foul or a foul on the break waits for its penalty choice, the second half of a
journal record (a torn tail), the repair of that tail on the next start, and the archive of a
finished match.
"""

import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import PATIENCE
from kill_child import GIVE_UP_AFTER, aimed_at

from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.matchlog import replay
from scoreboard.store.journal import list_archive, read_journal
from scoreboard.table.outcome import SETUP

CHILD = Path(__file__).with_name("kill_child.py")
KILLS = 60
AIMS = ["any", "foul", "break-foul", "torn", "archive"]


class Zygote:
    """`kill_child.py zygote`: the child's imports done once; each run is forked from it."""

    def __init__(self):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        self.control, theirs = socket.socketpair()
        self.proc = subprocess.Popen([sys.executable, str(CHILD), "zygote"], stdin=theirs, env=env)
        theirs.close()

    def close(self) -> None:
        self.control.close()  # it returns at the end of its requests
        assert self.proc.wait(timeout=PATIENCE) == 0


class Child:
    def __init__(
        self, zygote: Zygote, state_dir: Path, seed: int, wait_from: int, aim: str, repairing: bool
    ):
        repair = "repairing" if repairing else "-"
        stdin, self._to_child = os.pipe()
        self._from_child, stdout = os.pipe()
        request = f"{state_dir} {seed} {wait_from} {aim} {repair}".encode()
        socket.send_fds(zygote.control, [request], [stdin, stdout])
        os.close(stdin)
        os.close(stdout)
        _, (self.pidfd,), _, _ = socket.recv_fds(zygote.control, 16, 1)
        self.stdout = os.fdopen(self._from_child, "rb")

    def next_step(self) -> list:
        line = self.stdout.readline()
        assert line, "the child ended on its own"
        return json.loads(line)

    def kill(self) -> None:
        signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        # The pidfd reads ready once the child has exited, its files (and the lock) closed.
        assert select.select([self.pidfd], [], [], PATIENCE)[0], "the child outlived SIGKILL"
        os.close(self.pidfd)
        os.close(self._to_child)
        self.stdout.close()


def state(lines: list[str]) -> dict:
    """What the table shows for the journal `lines`: the match, and once it is over who has
    confirmed its result (issue 34: each press durable before it is shown)."""
    snapshot = replay(lines).snapshot()
    if snapshot["phase"] == "match-over":
        snapshot["confirmation"] = confirmation_of(lines).view()
    return snapshot


@pytest.fixture
def zygote():
    z = Zygote()
    yield z
    z.close()


def test_kill_9_at_chosen_steps_resumes_exactly(tmp_path, zygote):
    rng = random.Random(2026)
    shown = None  # [lines, archived, snapshot] last shown, over all runs
    expect_resumed = None  # what the next start must show first
    torn_before = False
    landed = []  # (aim, phase shown at the kill, what was killed)
    for kill in range(KILLS):
        aim, not_before = rng.choice(AIMS), rng.randint(1, 120)
        repairing = torn_before and rng.random() < 0.5
        child = Child(zygote, tmp_path, kill, not_before, aim, repairing)
        whole_records = 0  # journal records wholly written since the last frame shown
        truncated = False  # the torn tail of the last run has been cut off
        phase = None  # as shown by this run (what the child aims by too)
        while True:
            step = child.next_step()
            number, what, detail, lines, archived, snapshot = step
            if what == "show":
                if expect_resumed is not None:
                    assert snapshot == expect_resumed, f"kill {kill - 1}: resumed elsewhere"
                    expect_resumed = None
                shown, whole_records = [lines, archived, snapshot], 0
                phase = snapshot["phase"]
            if (number >= not_before and aimed_at(aim, step, phase, repairing)) or (
                number >= GIVE_UP_AFTER
            ):
                child.kill()  # it waits at this step, and only at such a step
                break
            whole_records += what == "write" and detail == ["journal.log", True]
            truncated |= what == "fsync" and detail == ["journal.log"]
        landed.append((aim, phase, what))

        journal = read_journal(tmp_path)
        half_a_record = what == "write" and detail == ["journal.log", True]
        torn_before = half_a_record or (torn_before and not truncated)
        assert (journal.torn is not None) == torn_before, f"kill {kill}: {journal.torn}"
        now = state(journal.lines) if journal.lines else None
        if shown is None:  # killed before the very first frame: at most the setup is there
            assert whole_records <= 1, f"kill {kill}"
            continue
        lines_then, archived_then, last = shown
        if len(list_archive(tmp_path)) > archived_then:
            # A new match was being started: the old one is archived whole, and the journal
            # holds the new match's setup, or nothing yet (a start then begins it anew).
            assert state(list_archive(tmp_path)[-1].lines()) == last, f"kill {kill}"
            # (4 events with the config's settings, more with options chosen on the setup
            # screen, which a result's A and B now open once the players have confirmed it)
            new_setup = now is not None and all(
                isinstance(e, SETUP) for e in replay(journal.lines).events
            )
            assert now is None or (now["phase"] == "lag" and new_setup), f"kill {kill}"
            expect_resumed = now
        elif whole_records == 0:
            # Nothing durable that was not shown: the journal holds exactly what was shown.
            assert now == last, f"kill {kill}: killed at {step}"
            expect_resumed = last
        else:
            # One step was made durable but not yet shown: it is shown on the restart.
            assert whole_records == 1, f"kill {kill}: more than one unshown record"
            assert len(journal.lines) > lines_then, f"kill {kill}"
            assert state(journal.lines[:lines_then]) == last, f"kill {kill}"
            expect_resumed = now

    phases = {phase for _, phase, _ in landed}
    print(f"{KILLS} kills; phases at the kill: {sorted(phases, key=str)}")
    assert {"play", "foul", "break-foul"} <= phases
    for aim in AIMS:  # every aim was met at least once (not given up on)
        assert any(a == aim and _met(a, p, w) for a, p, w in landed), aim


def _met(aim: str, phase: str | None, what: str) -> bool:
    if aim in ("foul", "break-foul"):
        return phase == aim
    if aim == "archive":
        return what == "rename"
    return True
