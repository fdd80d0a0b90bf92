"""`scoreboard sim` end to end: keys in, mock pins and the simulated board over a pty, text out.

The simulator runs in real time (it is the appliance, after all), so this test waits for
each state to appear on the output, never for a fixed time.
"""

import os
import selectors
import subprocess
import sys
import time

from scoreboard.journal import read_journal
from scoreboard.matchlog import replay


class Sim:
    def __init__(self, state_dir):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(state_dir)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.out = b""
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)

    def key(self, keys: str) -> None:
        self.proc.stdin.write(keys.encode())
        self.proc.stdin.flush()

    def wait_for(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while text.encode() not in self.out:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never shown; output so far:\n{self.out.decode()}"
            if self.selector.select(left):
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                assert chunk, f"the simulator ended; output:\n{self.out.decode()}"
                self.out += chunk
        return self.out.decode()

    def quit(self) -> int:
        self.key("q")
        self.proc.stdin.close()
        return self.proc.wait(timeout=15)


def test_keys_drive_the_real_appliance_and_a_restart_resumes(tmp_path):
    sim = Sim(tmp_path)
    sim.wait_for("phase lag")
    sim.key("a")  # A presses: A breaks
    sim.wait_for("phase break")
    sim.key("3")  # a ball through pocket 3's beam on the simulated board
    sim.wait_for("1 : 0")
    sim.key("f")  # FOUL: that ball is taken back, B gets the penalty point
    sim.wait_for("phase break-foul")
    assert sim.quit() == 0
    s = replay(read_journal(tmp_path).lines).snapshot()
    assert s["phase"] == "break-foul" and s["score"] == {"A": 0, "B": 1}
    assert s["foul"]["to_spot"] == 1

    again = Sim(tmp_path)  # resumes from the journal
    again.wait_for("phase break-foul")
    assert again.quit() == 0


def test_a_script_of_keys_is_played_in_order_to_the_end(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(tmp_path)],
        input=b"a3f",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0
    s = replay(read_journal(tmp_path).lines).snapshot()
    assert s["phase"] == "break-foul" and s["foul"]["to_spot"] == 1
