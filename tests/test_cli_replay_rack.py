"""The `scoreboard replay` and `scoreboard rack` commands as a user runs them."""

import io
import json
import os
from pathlib import Path

import pytest

from scoreboard.cli import main

LOG = "players Olena Taras\nrace 2\nbreak A\nshot pots=3\nshot foul=push\n"


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode())))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json_has_the_documented_keys(tmp_path, capsys):
    path = tmp_path / "match.log"
    path.write_text(LOG)
    code, out, _ = run(capsys, "replay", str(path), "--json")
    s = json.loads(out)
    assert code == 0
    for key in (
        "phase",
        "frame",
        "breaker",
        "striker",
        "decider",
        "score",
        "frames",
        "balls_on_table",
        "winner",
    ):
        assert key in s
    assert s["phase"] == "foul" and s["decider"] == "B" and s["score"] == {"A": 3, "B": 1}


def test_replay_reads_stdin_and_prints_a_summary(capsys, monkeypatch):
    code, out, _ = run(capsys, "replay", "-", stdin=LOG, monkeypatch=monkeypatch)
    assert code == 0 and "Olena 3 : 1 Taras" in out and "foul by Olena (push)" in out


def test_replay_refuses_a_bad_log_with_status_2_and_prints_no_result(capsys, monkeypatch):
    code, out, err = run(
        capsys, "replay", "-", "--json", stdin=LOG + "next\n", monkeypatch=monkeypatch
    )
    assert code == 2 and out == ""
    assert "line 6: the frame is not over yet" in err


def test_replay_of_a_missing_file_is_a_clear_error(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.log"))
    assert code == 2 and "cannot read" in err


def test_rack_json_and_picture(capsys):
    code, out, _ = run(capsys, "rack", "12", "--json")
    assert code == 0 and json.loads(out) == [[0], [1, 1], [1, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1, 0]]
    code, out, _ = run(capsys, "rack", "4")
    assert out.splitlines() == ["  ●", " ● ●", "· ● ·"]


@pytest.mark.parametrize("bad", ["0", "16", "seven", "-3"])
def test_rack_refuses_anything_but_1_to_15(capsys, bad):
    code, out, err = run(capsys, "rack", bad)
    assert code == 2 and out == "" and "1 to 15" in err


def test_lifecycle_diagram_in_docs_is_generated_from_the_code():
    import subprocess
    import sys
    from pathlib import Path

    generated = subprocess.run(
        [sys.executable, "-m", "scoreboard.core.lifecycle"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(__file__).parent.parent.joinpath("docs/lifecycle.md").read_text() == generated


def test_lifecycle_diagram_in_docs_is_every_transition_of_the_machine():
    from pathlib import Path

    from scoreboard.core.lifecycle import markdown

    # In-process too, so a change to TRANSITIONS that `make diagram` was not run for fails
    # here whatever copy of the package a subprocess would import.
    assert Path(__file__).parent.parent.joinpath("docs/lifecycle.md").read_text() == markdown()


def test_the_lifecycle_diagram_is_drawn_by_the_mermaid_engine_it_asks_for(caplog):
    # Not by a fallback: `transitions` warns on each engine it cannot import on the way
    # there (pygraphviz, then graphviz), and `make diagram` must say nothing but the diagram.
    from scoreboard.core.lifecycle import diagram

    with caplog.at_level("WARNING"):
        assert diagram().startswith("---\nFrame lifecycle\n---\nstateDiagram-v2")
    assert caplog.records == []


def test_replay_png_writes_the_final_screen_at_the_devices_resolution(tmp_path, capsys):
    from PIL import Image

    log = tmp_path / "match.log"
    log.write_text(LOG)
    for display, size in [("ssd1306", (128, 64)), ("ssd1322", (256, 64)), ("max7219", (32, 8))]:
        png = tmp_path / f"{display}.png"
        assert main(["replay", str(log), "--png", str(png), "--display", display]) == 0
        assert Image.open(png).size == size


def test_replay_streams_stdin_and_undo_in_the_log_still_works(capsys, monkeypatch):
    log = LOG + "undo\nundo\nshot\n"
    code, out, _ = run(capsys, "replay", "-", "--json", stdin=log, monkeypatch=monkeypatch)
    s = json.loads(out)
    assert code == 0 and s["events"] == 4 and s["score"] == {"A": 0, "B": 0}
    assert s["phase"] == "play" and s["striker"] == "B"  # the miss after the break


def test_replay_names_the_line_that_is_not_utf8(tmp_path, capsys):
    path = tmp_path / "match.log"
    path.write_bytes(LOG.encode() + b"shot \xff\n")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert "line 6 is not UTF-8" in err and "Traceback" not in err


def _read_only_dir(tmp_path):
    place = tmp_path / "read-only"
    place.mkdir()
    place.chmod(0o555)
    # root writes anywhere it has permission bits for; sysfs refuses even root
    return place if not os.access(place, os.W_OK) else Path("/sys")


@pytest.mark.parametrize("where", ["a directory", "a missing folder", "a read-only place"])
def test_replay_png_to_a_bad_path_says_so(tmp_path, capsys, where):
    log = tmp_path / "match.log"
    log.write_text(LOG)
    png = {
        "a directory": lambda: tmp_path,
        "a missing folder": lambda: tmp_path / "no" / "such" / "final.png",
        "a read-only place": lambda: _read_only_dir(tmp_path) / "final.png",
    }[where]()
    code, out, err = run(capsys, "replay", str(log), "--png", str(png))
    assert code == 2 and out == ""
    assert f"cannot write the picture to {png}" in err
