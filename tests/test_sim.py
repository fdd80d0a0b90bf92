"""`scoreboard sim` end to end: keys in, mock pins and the simulated board over a pty, text out.

The simulator runs in real time (it is the appliance, after all), so this test waits for
each state to appear on the output, never for a fixed time.
"""

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

from helpers import PATIENCE

from scoreboard.cli import main
from scoreboard.core.matchlog import replay
from scoreboard.store.journal import read_journal


class Sim:
    def __init__(self, state_dir, *more):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(state_dir), *more],
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

    def wait_for(self, text: str, timeout: float = PATIENCE) -> str:
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
        return self.proc.wait(timeout=PATIENCE)


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
        timeout=PATIENCE,
    )
    assert done.returncode == 0
    s = replay(read_journal(tmp_path).lines).snapshot()
    assert s["phase"] == "break-foul" and s["foul"]["to_spot"] == 1


def test_the_language_to_start_in_and_the_language_key(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(tmp_path), "--lang", "en"],
        input=b"ll",
        capture_output=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 0, done.stderr.decode()
    shown = [line for line in done.stdout.decode().splitlines() if "display language" in line]
    # The first state in the language asked for, then each press of l the next one, in order.
    assert shown == ["display language en", "display language uk", "display language ru"]


def test_without_the_sim_extra_sim_says_what_to_install(tmp_path, monkeypatch, capsys):
    # As after `pip install .` without [sim]: luma.emulator cannot be imported.
    monkeypatch.setitem(sys.modules, "luma.emulator", None)
    monkeypatch.setitem(sys.modules, "luma.emulator.device", None)
    assert main(["sim", "--state-dir", str(tmp_path / "state")]) == 2
    err = capsys.readouterr().err
    assert "luma.emulator, which is not installed" in err
    assert "pip install 'pyramid-scoreboard[sim]'" in err and "make sim" in err
    assert not (tmp_path / "state").exists()  # said before anything was started


def test_a_second_sim_on_the_same_state_says_so_and_the_first_plays_on(tmp_path):
    first = Sim(tmp_path)
    first.wait_for("phase lag")
    second = subprocess.run(
        [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(tmp_path)],
        input=b"a",
        capture_output=True,
        timeout=PATIENCE,
    )
    err = second.stderr.decode()
    assert second.returncode == 2, err
    assert "Traceback" not in err
    assert f"scoreboard sim: {tmp_path} is in use by another scoreboard process" in err
    assert "Quit it (q), or start this one with its own --state-dir" in err
    first.key("a")  # the second one pressed nothing; the first one still plays
    first.wait_for("phase break")
    assert first.quit() == 0
    assert replay(read_journal(tmp_path).lines).snapshot()["breaker"] == "A"


def test_make_sim_takes_the_language_as_sim_lang_or_lang():
    root = Path(__file__).resolve().parent.parent
    for variable in ("SIM_LANG=ru", "LANG=ru"):
        done = subprocess.run(
            ["make", "-n", "--no-print-directory", "sim", variable],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
        command = [line for line in done.stdout.splitlines() if " sim" in line][-1]
        assert command.endswith("/scoreboard sim --web --lang ru"), command
        # LANG is the locale: as a make variable it is not left in the simulator's environment.
        assert command.startswith("env -u LANG ") == variable.startswith("LANG")


def test_the_setup_screen_through_the_sims_keys(tmp_path):
    """F (FOUL held) at the lag opens the setup; b b b to the race, f, b: 2 frames, f keeps
    it; a a a back up to Start, f starts this match with it (issue 11)."""
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(tmp_path)],
        input=b"Fbbbfbfaaaf",
        capture_output=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 0, done.stderr.decode()
    out = done.stdout.decode()
    assert "setup (menu start)" in out and "setup (value race)" in out
    s = replay(read_journal(tmp_path).lines).snapshot()
    assert s["phase"] == "lag" and s["race"] == 2
    assert out.rstrip().endswith("--") and "setup (" not in out.split("--")[-2]


def test_the_sims_terminal_names_the_configured_holds(monkeypatch):
    """The emulated display in the terminal gets the config's [timings], as the real
    displays do: "hold 2.5 s", not the default "1 s"."""
    import pty

    from scoreboard import config as configuration
    from scoreboard.display.render import render
    from scoreboard.sim.session import screens_for
    from scoreboard.texts.words import Timings

    _, terminal_side = pty.openpty()  # a terminal of no size: the picture is kept, not drawn
    monkeypatch.setattr(sys, "stdout", os.fdopen(terminal_side, "w"))
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    cfg = configuration.loads("[timings]\nhold_time = 2.5\nundo_hold_time = 7.0\n")
    screens, terminal = screens_for(cfg, interactive=True, emulates="ssd1306")
    over = replay(["players A B", "break A", "shot foul=other"]).snapshot()  # "hold: re-rack"
    terminal.picture.show(over)
    configured = render(over, terminal.panel, timings=Timings(hold=2.5, undo_hold=7.0))
    assert terminal.picture.picture.tobytes() == configured.tobytes()
    assert configured.tobytes() != render(over, terminal.panel).tobytes()


def test_the_sims_text_says_each_message_in_words_not_as_a_key(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "sim", "--state-dir", str(tmp_path), "--lang", "en"],
        input=b"a3u",  # A breaks, a ball, UNDO: "Undone: 1 ball of Player 1"-like, with a name
        capture_output=True,
        timeout=PATIENCE,
    )
    assert done.returncode == 0, done.stderr.decode()
    said = [line for line in done.stdout.decode().splitlines() if line.startswith("> ")]
    assert said and said[-1].startswith("> Undone:"), said
    assert not any("(" in line or "undone-" in line for line in said), said


def test_the_language_chosen_with_l_is_kept_across_a_restart(tmp_path):
    """Issue 20: the language key changed the screens only; a restart went back."""
    sim = Sim(tmp_path, "--lang", "en")
    sim.wait_for("display language en")
    sim.key("l")
    sim.wait_for("display language uk")
    assert sim.quit() == 0
    again = Sim(tmp_path)  # the config's language is uk... so ask for ru, then restart
    again.wait_for("display language uk")
    again.key("l")
    again.wait_for("display language ru")
    assert again.quit() == 0
    third = Sim(tmp_path)
    out = third.wait_for("display language")
    assert third.quit() == 0
    assert "display language ru" in out and "display language uk" not in out
    fourth = Sim(tmp_path, "--lang", "en")  # asked for now: it wins, and is kept
    out = fourth.wait_for("display language")
    assert fourth.quit() == 0
    assert "display language en" in out and "display language ru" not in out
