"""`scoreboard net` publishes the table when [mqtt] is enabled (or --mqtt HOST:PORT): the real
net process beside a real table's socket, a real Mosquitto; killed with kill -9, the broker's
Last Will says the table is offline within the keep-alive (1 s here, so 1.5 s)."""

import signal
import subprocess
import sys
import threading

import pytest
from bridge_helpers import table
from broker import Listener
from helpers import PATIENCE, free_port, wait_for
from test_mqtt_with_the_table import mqtt_table_config

from scoreboard import config as configuration
from scoreboard.mqtt.publisher import broker_option


@pytest.fixture
def pumped(broker, tmp_path):
    """The real appliance with [mqtt] on, its loop run on a thread of its own (simulated
    time stands still: only what comes through the queue is done)."""
    a = table(tmp_path, mqtt_table_config(broker))
    stop = threading.Event()

    def pump():
        while not stop.wait(0.005):
            a.loop.run_pending()

    thread = threading.Thread(target=pump, daemon=True)
    thread.start()
    yield a
    stop.set()
    thread.join()
    a.close()


def start_net(tmp_path, *args, web=True):
    log = open(tmp_path / "net.log", "w")  # noqa: SIM115 (the child writes it)
    command = [sys.executable, "-m", "scoreboard", "net", "--state-dir", str(tmp_path)]
    command += ["--host", "127.0.0.1", "--port", str(free_port())] if web else []
    command += list(args)
    return subprocess.Popen(command, stdout=log, stderr=log)


@pytest.mark.parametrize("web", [True, False], ids=["beside-the-web-face", "mqtt-only"])
def test_scoreboard_net_publishes_and_its_death_shows_offline(broker, tmp_path, pumped, web):
    config = tmp_path / "scoreboard.toml"
    config.write_text(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "t1"\n'
        "keepalive = 1\n"
    )
    club = Listener(broker, "fp/v1/t1/#")
    net = start_net(tmp_path, "--config", str(config), web=web)
    try:
        wait_for(lambda: club.on("fp/v1/t1/state"), what=f"the state ({_log(tmp_path)})")
        wait_for(lambda: club.on("fp/v1/t1/availability")[-1:] == [b"online"], what="online")
        assert ("http://" in _log(tmp_path)) == web  # [web] off: no web face served
        net.send_signal(signal.SIGKILL)
        net.wait()
        wait_for(lambda: club.on("fp/v1/t1/availability")[-1:] == [b"offline"], what="the Will")
    finally:
        net.kill()
        net.wait()
        club.close()


def test_the_mqtt_option_turns_it_on_towards_a_broker(broker, tmp_path, pumped):
    club = Listener(broker, "fp/v1/+/info")
    net = start_net(tmp_path, "--mqtt", f"127.0.0.1:{broker.port}")
    try:
        wait_for(lambda: club.on("fp/v1/table1/info"), what=f"the info ({_log(tmp_path)})")
    finally:
        net.terminate()
        net.wait()
        club.close()


@pytest.mark.parametrize("text", ["", ":1883", "host:port", "host:0"])
def test_a_broker_option_that_does_not_read_is_refused(text):
    with pytest.raises(ValueError, match="--mqtt"):
        broker_option(text, configuration.default())


def _log(tmp_path) -> str:
    return (tmp_path / "net.log").read_text()[-1000:]


def test_the_simulator_publishes_to_a_local_broker(broker, tmp_path):
    import json

    from test_sim import Sim

    club = Listener(broker, "fp/v1/table1/state")
    port = f"127.0.0.1:{broker.port}"
    sim = Sim(tmp_path, "--web", "--web-port", str(free_port()), "--mqtt", port)
    try:
        sim.wait_for("phase lag")
        wait_for(lambda: club.on("fp/v1/table1/state"), what="the sim's state on the broker")
        sim.key("a")  # A breaks
        sim.wait_for("phase break")
        wait_for(
            lambda: json.loads(club.on("fp/v1/table1/state")[-1])["phase"] == "break",
            what="the press on the broker",
        )
        assert sim.quit() == 0
    finally:
        sim.proc.kill()
        club.close()


def test_make_sim_takes_a_broker_as_sim_mqtt():
    from pathlib import Path

    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "sim", "SIM_MQTT=localhost"],
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )
    command = [line for line in done.stdout.splitlines() if " sim" in line][-1]
    assert command.endswith("/scoreboard sim --web --mqtt localhost"), command
