"""A real terminal for a test: a command in a tmux session of a given size, keys typed into it,
and what it shows read back, as text and as the colours of luma's half blocks.

tmux is apt's (`make test` and `.ci/run` install it where it is missing); `tmux()` skips the
test, saying so, only where it cannot be found.
"""

import re
import shlex
import shutil
import subprocess
import time

import pytest
from helpers import PATIENCE

HALF_BLOCK = (
    "▄"  # luma's asciiblock: the cell's background is the upper pixel, the foreground the lower
)
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def tmux_path() -> str:
    path = shutil.which("tmux")
    if path is None:
        pytest.skip("tmux is not installed (make test installs it as root: apt-get install tmux)")
    return path


class Tmux:
    def __init__(self, socket, command: list[str], *, columns: int, lines: int, cwd) -> None:
        self.base = [tmux_path(), "-S", str(socket), "-f", "/dev/null"]
        script = f"cd {shlex.quote(str(cwd))} && exec {shlex.join(command)}"
        self._run("new-session", "-d", "-x", str(columns), "-y", str(lines), script)

    def _run(self, *args: str) -> str:
        done = subprocess.run([*self.base, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"tmux {' '.join(args)}: {done.stderr}"
        return done.stdout

    def keys(self, keys: str) -> None:
        self._run("send-keys", "-l", keys)  # literally, one key a character

    def resize(self, columns: int, lines: int) -> None:
        self._run("resize-window", "-x", str(columns), "-y", str(lines))

    def text(self) -> str:
        return self._run("capture-pane", "-p")

    def cells(self) -> list[list[tuple | None]]:
        """Each row's cells: (foreground, background) of a half block, None for anything else."""
        rows = []
        for line in self._run("capture-pane", "-p", "-e").splitlines():
            fg = bg = None
            row = []
            position = 0
            for match in SGR.finditer(line + "\x1b[m"):
                for char in line[position : match.start()]:
                    row.append((fg, bg) if char == HALF_BLOCK else None)
                position = match.end()
                fg, bg = _sgr(match.group(1), fg, bg)
            rows.append(row)
        return rows

    def picture(self) -> list[list[tuple]]:
        """The rectangle of half blocks (the emulated display), row by row."""
        rows = [[cell for cell in row if cell is not None] for row in self.cells()]
        return [row for row in rows if row]

    def wait_for(self, check, what: str, timeout: float = PATIENCE):
        """Until `check()` holds, returning what it returned: the program runs in real time,
        so a test waits for what it shows rather than for a fixed time."""
        deadline = time.monotonic() + timeout
        while not (result := check()):
            assert time.monotonic() < deadline, f"{what} never shown; the screen:\n{self.text()}"
            time.sleep(0.1)
        return result

    def wait_for_text(self, *parts: str, timeout: float = PATIENCE) -> str:
        """Until every one of `parts` is on the screen; the screen's text."""

        def shown():
            text = self.text()
            return text if all(part in text for part in parts) else None

        return self.wait_for(shown, " and ".join(map(repr, parts)), timeout)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=120)


def _sgr(params: str, fg, bg):
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            fg = bg = None
        elif code in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
            if code == 38:
                fg = codes[i + 2]
            else:
                bg = codes[i + 2]
            i += 2
        elif code == 39:
            fg = None
        elif code == 49:
            bg = None
        i += 1
    return fg, bg
