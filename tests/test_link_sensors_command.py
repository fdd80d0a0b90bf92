"""`scoreboard sensors`: the installer's monitor, against the simulated board."""

import json
import os
import random

import pytest

from scoreboard.cli import main
from scoreboard.commands.sensors import Monitor
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.table.loop import ManualClock


def watch(monitor, board, clock, seconds, step=0.01):
    for _ in range(round(seconds / step)):
        clock.now += step
        board.step()
        monitor.step()


@pytest.fixture
def setup():
    clock, lines = ManualClock(500.0), []
    board, path = SimulatedBoard.open_pty(clock, seed=3)
    monitor = Monitor(port=path, as_json=True, write=lines.append, clock=clock, read_timeout=0)
    yield monitor, board, clock, lines
    monitor.link.close()
    board.close()


def test_json_lines_show_link_hello_pots_and_faults(setup):
    monitor, board, clock, lines = setup
    watch(monitor, board, clock, 0.3)
    board.drop_ball(3)
    board.stick(6)
    watch(monitor, board, clock, 3.0)
    objects = [json.loads(line) for line in lines]
    kinds = [o["event"] for o in objects]
    assert kinds[:3] == ["link", "link", "hello"]
    # The stuck beam's leading edge was counted, then taken back once it was stuck.
    assert [o["pocket"] for o in objects if o["event"] == "pot"] == [3, 6]
    assert [o["pocket"] for o in objects if o["event"] == "retract"] == [6]
    assert [o["pocket"] for o in objects if o["event"] == "stuck"] == [6]
    assert {"event": "beams", "blocked": [6]} in objects


def test_keeps_running_through_garbage(setup):
    monitor, board, clock, lines = setup
    watch(monitor, board, clock, 0.3)
    rng = random.Random(11)
    for _ in range(50):
        os.write(board.fd, bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 60))))
        watch(monitor, board, clock, 0.02)
    board.drop_ball(1)
    watch(monitor, board, clock, 0.5)
    objects = [json.loads(line) for line in lines]
    assert any(o["event"] == "noise" for o in objects)
    assert [o["pocket"] for o in objects if o["event"] == "pot"] == [1]
    assert not any(o["event"] == "lost" for o in objects)


def test_text_lines_for_people(setup):
    monitor, board, clock, lines = setup
    monitor.as_json = False
    watch(monitor, board, clock, 0.3)
    board.drop_ball(2)
    watch(monitor, board, clock, 0.3)
    assert any(line.endswith("POT pocket 2") for line in lines)
    assert any("hello: pocketboard" in line for line in lines)


def test_command_line_with_simulated_board(capsys):
    assert main(["sensors", "--simulate", "--json", "--every", "0.1", "--duration", "0.8"]) == 0
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(o["event"] == "hello" for o in objects)
    assert [o["pocket"] for o in objects if o["event"] == "pot"][:2] == [1, 2]


def test_bad_option_is_a_usage_error(capsys):
    assert main(["sensors", "--simulate", "--every", "0"]) == 2
    assert "--every" in capsys.readouterr().err


@pytest.mark.parametrize("as_json", [False, True])
def test_the_boards_text_is_printed_escaped_never_raw(as_json):
    """A board (or a stray device on the port) that sends escape sequences must not
    clear or retitle the installer's terminal."""
    clock, lines = ManualClock(500.0), []
    version = "v1\x1b[2J\x1b]0;owned\x07\r\n\x9b31m\x7f"
    board, path = SimulatedBoard.open_pty(clock, seed=3, version=version)
    monitor = Monitor(port=path, as_json=as_json, write=lines.append, clock=clock, read_timeout=0)
    try:
        watch(monitor, board, clock, 0.3)
    finally:
        monitor.link.close()
        board.close()
    hello = [line for line in lines if "hello" in line]
    assert hello and all(line.isprintable() for line in lines), lines
    if as_json:
        assert json.loads(hello[0])["version"] == version
    else:
        assert "v1\\x1b[2J\\x1b]0;owned\\x07\\r\\n\\x9b31m\\x7f" in hello[0]


def test_it_says_which_port_it_waits_on_and_what_to_check(tmp_path, capsys):
    missing = tmp_path / "ttyACM9"
    assert main(["sensors", "--port", str(missing), "--duration", "0.2"]) == 0
    out = capsys.readouterr().out
    assert f"waiting for the sensor board on {missing} (" in out
    assert "No such file" in out  # why the port could not be opened
    assert "USB cable" in out and "firmware" in out and "dialout" in out


def test_without_a_port_it_names_the_by_id_pattern_and_the_usb_id(tmp_path):
    clock, lines = ManualClock(0.0), []
    monitor = Monitor(
        as_json=True, write=lines.append, clock=clock, by_id=str(tmp_path / "usb-MicroPython*")
    )
    monitor.step()
    (said,) = [json.loads(line) for line in lines]
    assert said["event"] == "link" and said["state"] == "searching"
    assert said["waiting_for"].startswith(str(tmp_path / "usb-MicroPython*"))
    assert "2e8a:0005" in said["waiting_for"] and said["error"] is None


def test_a_port_that_never_says_hello_is_named_with_what_to_do(tmp_path):
    master, slave = os.openpty()  # a port with nothing behind it that speaks our protocol
    port = os.ttyname(slave)
    try:
        clock, lines = ManualClock(0.0), []
        monitor = Monitor(port=port, write=lines.append, clock=clock, read_timeout=0)
        for _ in range(3):
            clock.advance(0.5)
            monitor.step()
        monitor.link.close()
    finally:
        os.close(master)
        os.close(slave)
    (said,) = [line for line in lines if "link" in line]  # said once, not every try
    assert f"link waiting ({port}): the port is open, the board has not answered" in said
    assert "flash it again" in said and "--port" in said


def test_stop_firmware_with_no_board_gives_up_and_says_what_it_looked_for(
    tmp_path, capsys, monkeypatch
):
    """Issue 20: `sensors --stop-firmware` with no board waited for ever."""
    from scoreboard.commands import sensors

    monkeypatch.setattr(sensors, "STOP_FIRMWARE_WAIT", 0.3)  # 10 s in use: a bound, not a speed
    missing = tmp_path / "ttyACM9"
    assert main(["sensors", "--port", str(missing), "--stop-firmware"]) == 2
    err = capsys.readouterr().err
    assert f"no sensor board answered on {missing} within 0.3 s: nothing was stopped" in err
    assert "USB cable" in err


def test_stop_firmware_stops_a_board_that_answers(capsys):
    assert main(["sensors", "--simulate", "--stop-firmware"]) == 0
    assert "link up" in capsys.readouterr().out
