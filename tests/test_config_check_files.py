"""`scoreboard config check` on files that are odd rather than wrong: run as a user runs it.

Each case starts the real command in its own process, so a hang, a RecursionError or a
traceback shows as it would on the Pi.
"""

import os
import subprocess
import sys
import unicodedata

import pytest
from helpers import PATIENCE

from scoreboard import config
from scoreboard.store.journal import encode
from scoreboard.table.recorder import setup_lines


def check(path, timeout=PATIENCE):
    """(exit status, stdout, stderr) of `scoreboard config check PATH`; the timeout only
    turns a hang into a failure, it times nothing."""
    done = subprocess.run(
        [sys.executable, "-m", "scoreboard", "config", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "escape, what",
    [
        (r"\u007f", "DEL"),
        (r"\u001b[2J", "ESC (a terminal escape)"),
        (r"\u0085", "NEL (C1)"),
        (r"\u009b2J", "CSI (C1)"),
        (r"\u0000", "NUL"),
        (r"\u202e", "RIGHT-TO-LEFT OVERRIDE (format: the name shown reversed)"),
        (r"\u200b", "ZERO WIDTH SPACE (format)"),
    ],
)
def test_a_control_or_format_character_in_a_name_is_refused(tmp_path, escape, what):
    path = tmp_path / "scoreboard.toml"
    path.write_text(f'[match]\nplayer_b = "Ta{escape}ras"\n', encoding="utf-8")
    code, out, err = check(path)
    assert code == 2 and out == "", what
    assert f"{path}:2: match.player_b: must not hold control or format characters" in err, what


# Every character of the categories Cc, Zl and Zp. Unicode's stability policy fixes Cc for
# good (U+0000-001F, U+007F-009F), and Zl and Zp have held one character each since 1.1: listed,
# not found by scanning all 1.1 million code points in each test process (a second and a half).
CONTROLS = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)]


def test_the_controls_listed_are_those_categories():
    assert {unicodedata.category(c) for c in CONTROLS} == {"Cc", "Zl", "Zp"}
    assert unicodedata.category(chr(0x1F)) == unicodedata.category(chr(0x9F)) == "Cc"
    assert "Cc" not in {unicodedata.category(chr(c)) for c in (0x20, 0x7E, 0xA0)}


@pytest.mark.parametrize("char", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_name_that_config_accepts_the_journal_can_hold(char):
    """What `run` would die on is what check refuses: the first journal record of a match
    with this name either cannot be configured or can be written."""
    text = f'[match]\nplayer_a = "Ol{char.encode("unicode_escape").decode()}ena"\n'
    text = text.replace("\\x", "\\u00")
    try:
        loaded = config.loads(text)
    except config.ConfigError:
        return
    encode(setup_lines(loaded))  # raises ValueError for a line the journal cannot hold


def test_a_utf8_bom_is_read_as_a_bom(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_bytes(b"\xef\xbb\xbf[match]\nrace = 3\n\n[pins]\nfoul = 6\n")
    code, _, err = check(path)
    assert code == 2 and f"{path}:5: pins.foul: GPIO 6 is already used" in err  # lines still right
    path.write_bytes(b"\xef\xbb\xbf[match]\nrace = 3\n")
    code, out, _ = check(path)
    assert code == 0 and "race to 3" in out


@pytest.mark.parametrize("content", [b"", b"\n  \n\t\n"])
def test_an_empty_file_is_refused(tmp_path, content):
    path = tmp_path / "scoreboard.toml"
    path.write_bytes(content)
    code, out, err = check(path)
    assert code == 2 and out == "" and f"{path}: the file is empty" in err


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    path = tmp_path / "scoreboard.toml"
    os.mkfifo(path)
    code, out, err = check(path)
    assert code == 2 and out == "" and f"{path}: a FIFO (named pipe), not a config file" in err


def test_a_directory_is_refused(tmp_path):
    code, _, err = check(tmp_path)
    assert code == 2 and f"{tmp_path}: a directory, not a config file" in err


@pytest.mark.parametrize(
    "value", ["[" * 100_000 + "]" * 100_000, "{ a = " * 100_000 + "1" + " }" * 100_000]
)
def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path, value):
    path = tmp_path / "scoreboard.toml"
    path.write_text(f"[match]\nrace = {value}\n")
    code, out, err = check(path)
    assert code == 2 and out == ""
    assert "not valid TOML: arrays or tables nested too deeply" in err


def test_nesting_that_tomllib_can_read_still_gets_the_normal_answer(tmp_path):
    path = tmp_path / "scoreboard.toml"
    path.write_text("[match]\nrace = " + "[" * 50 + "]" * 50 + "\n")
    code, _, err = check(path)
    assert code == 2 and f"{path}:2: match.race: must be a whole number" in err


def test_config_check_says_every_mistake_in_the_order_of_the_lines(tmp_path):
    """Issue 20: it said one mistake at a time, not in file order."""
    path = tmp_path / "scoreboard.toml"
    path.write_text(
        '[timings]\nhold_time = "1"\n\n[match]\nrace = 0\nrase = 2\n\n[dispaly]\nx = 1\n',
        encoding="utf-8",
    )
    code, out, err = check(path)
    assert code == 2 and out == ""
    said = [line.removeprefix("scoreboard config: ") for line in err.splitlines()]
    assert said == [
        f"{path}:2: timings.hold_time: must be a number, got '1'",
        f"{path}:5: match.race: must be 1 to 99, got 0",
        f"{path}:6: match.rase: unknown key (known: " + said[2].split("(known: ")[1],
        f"{path}:8: dispaly: unknown section (known: " + said[3].split("(known: ")[1],
    ]
