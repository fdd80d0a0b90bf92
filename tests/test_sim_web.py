"""`scoreboard sim --web` (what `make sim` runs): the simulated table and its web face on
localhost, the address printed; a key at the table reaches /api/state."""

import json
import socket
import time
import urllib.request
from pathlib import Path

from helpers import PATIENCE, free_port, wait_for

from tests.test_sim import Sim


def get(url: str):
    """The JSON at `url` once the server answers (it starts beside the sim)."""
    deadline = time.monotonic() + PATIENCE
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                return json.load(response)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def test_sim_web_serves_the_table_on_localhost_only(tmp_path):
    port = free_port()
    sim = Sim(tmp_path, "--web", "--web-port", str(port))
    try:
        url = f"http://127.0.0.1:{port}/"
        sim.wait_for(f"web: {url}")
        sim.wait_for("phase lag")
        assert get(url + "api/state")["phase"] == "lag"
        sim.key("a")  # A breaks
        sim.wait_for("phase break")
        wait_for(
            lambda: get(url + "api/state")["phase"] == "break",
            what="break at /api/state",
            every=0.05,
        )
        # Loopback only: the port is not open on the machine's other addresses.
        listening = "".join(Path(f"/proc/net/{t}").read_text() for t in ("tcp", "tcp6"))
        hex_port = f":{port:04X} "
        lines = [line for line in listening.splitlines() if hex_port in line.split()[1] + " "]
        assert lines and all(line.split()[1].startswith("0100007F:") for line in lines)
    finally:
        assert sim.quit() == 0
    assert not (tmp_path / "table.sock").exists()


def test_a_port_that_is_taken_is_said_not_an_address_nothing_serves(tmp_path):
    """Issue 20: with the port taken (another sim's, say) the sim showed an address that the
    other process served, and the reason only in state/net.log."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        sim = Sim(tmp_path, "--web", "--web-port", str(port))
        try:
            said = sim.wait_for("phase lag")
            assert f"web: not served: port {port} is taken" in said
            assert f"http://127.0.0.1:{port}/" not in said
        finally:
            assert sim.quit() == 0
    assert not (tmp_path / "net.log").exists()  # no net process was started


def test_without_aiohttp_the_sim_says_what_to_install(monkeypatch):
    import importlib.util

    from scoreboard.sim.table import web_problem

    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "aiohttp" else find(name, *a)
    )
    assert web_problem(free_port()) == "not served: aiohttp is missing (pip install '.[web]')"
