"""Benchmark: idle CPU of `scoreboard sim` (issue 10; target <= 0.5 % of a core). Prints it;
asserts nothing.

The simulator as a person runs it: in a terminal (an 80x24 pseudo-terminal here), the
display emulated in it, the simulated sensor board linked over its own pseudo-terminal.
Once the first frame and the legend are drawn and the link has settled, the CPU time of
its process over N seconds with nobody pressing a key, as a share of one core.

Run: .venv/bin/python bench/sim_idle.py [--seconds 30]
"""

import argparse
import fcntl
import os
import pty
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTLE_SECONDS = 3.0  # the link's hello and the first heartbeats, then the table is quiet


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(seconds: float) -> float:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    shown = bytearray()
    drawn = threading.Event()

    def drain():  # the terminal: takes what the simulator draws
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            shown.extend(data)
            if b"q quit" in shown:
                drawn.set()

    with tempfile.TemporaryDirectory() as state:
        proc = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "sim", "--state-dir", state],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        os.close(slave)
        threading.Thread(target=drain, daemon=True).start()
        try:
            if not drawn.wait(60):
                sys.exit(f"the simulator drew no legend in 60 s:\n{bytes(shown[-2000:])!r}")
            time.sleep(SETTLE_SECONDS)
            cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            cpu1, t1 = cpu_seconds(proc.pid), time.monotonic()
            os.write(master, b"q")
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            os.close(master)
    return (cpu1 - cpu0) / (t1 - t0) * 100, t1 - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    share, over = measure(args.seconds)
    print(f"sim idle CPU over {over:.0f} s: {share:.2f} % of a core (target <= 0.5 %)")


if __name__ == "__main__":
    main()
