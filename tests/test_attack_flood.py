"""Issue 21: every network path floods the table at once while the players play: a paired
phone's writes through `scoreboard net` (its own process), clients of the local socket, and
the club's assigns through a real Mosquitto to the net process's publisher. The same presses
and balls, through gpiozero's mock pins in simulated time, are played on a quiet table and on
the flooded one: the journals must say the same, every flood command gets its answer (taken,
or refused in words), and the flood's settings wait for the next match, never this one.

Bounded: a fixed count of each flood, loopback only. How long a button waits under the flood
is a figure, measured by `bench/flood.py`, never asserted here."""

import http.client
import http.cookies
import json
import subprocess
import sys
import threading
import time

from bridge_helpers import LineClient, table
from broker import Listener
from helpers import PATIENCE, free_port, press, settle, wait_for

from scoreboard.bridge import socket_path
from scoreboard.net import security
from scoreboard.store.journal import read_journal
from scoreboard.store.setup_store import SetupStore

WEB_THREADS = 6  # a paired phone's writes, many at once
SOCKET_CLIENTS, BATCH = 3, 8  # clients of the table's socket, each sending so many at once
BOUND = 5000  # the most each flood sends, whatever happens


def ball(a, pocket: int, ms: float = 40) -> None:
    pin = a.factory.pin(a.config.pins.pockets[pocket])
    pin.drive_low()  # the beam broken while the ball passes
    settle(a, ms / 1000)
    pin.drive_high()
    settle(a, 0.05)


def opening(a) -> None:
    """The lag (A breaks) and the break: from here on, settings sent are the next match's."""
    press(a, a.config.pins.player_a)
    ball(a, 0)


def play(a) -> None:
    """Presses and balls that keep the match going (neither player reaches 8). Between two,
    the loop runs for a tenth of a second of real time with simulated time standing still:
    whatever the network sends meanwhile is taken between the players' inputs."""
    pins = a.config.pins
    for step in ("ball 1", "B", "ball 2", "ball 3", "A", "ball 4", "B", "A", "ball 5", "B"):
        end = time.monotonic() + 0.1
        pump_until(a, lambda: time.monotonic() > end, what="a tenth of a second")  # noqa: B023
        if step.startswith("ball"):
            ball(a, int(step.split()[1]))
        else:
            press(a, pins.player_a if step == "A" else pins.player_b)


def rule_lines(state_dir) -> list[str]:
    return [line for line in read_journal(state_dir).lines if not line.startswith("#")]


def pump_until(a, check, *, what: str):
    """Run the table's loop (simulated time stands still) until `check()`."""
    give_up = time.monotonic() + PATIENCE
    while not (value := check()):
        if time.monotonic() > give_up:
            raise AssertionError(f"never: {what}")
        a.loop.run_pending()
        time.sleep(0.005)
    return value


def while_pumping(a, fn):
    """`fn()` on a thread of its own while the table's loop runs here; its result."""
    out = {}
    thread = threading.Thread(target=lambda: out.update(value=fn()), daemon=True)
    thread.start()
    pump_until(a, lambda: not thread.is_alive(), what=f"{fn} to finish")
    return out["value"]


class Phone:
    """A phone's browser: cookies, the page's token, JSON over HTTP."""

    def __init__(self, port: int) -> None:
        self.port, self.cookies, self.csrf = port, {}, None

    def ask(self, method: str, path: str, body=None) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PATIENCE)
        headers = {"Origin": f"http://127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.csrf:
            headers[security.CSRF_HEADER] = self.csrf
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            for header in response.headers.get_all("Set-Cookie") or ():
                for name, morsel in http.cookies.SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            text = response.read()
            return response.status, json.loads(text) if text else {}
        finally:
            conn.close()


def start_net(state_dir, port: int, broker) -> subprocess.Popen:
    net = subprocess.Popen(
        [sys.executable, "-m", "scoreboard", "net", "--state-dir", str(state_dir)]
        + ["--host", "127.0.0.1", "--port", str(port), "--mqtt", f"127.0.0.1:{broker.port}"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: _listening(port), what="scoreboard net listens")
    return net


def _listening(port: int) -> bool:
    try:
        Phone(port).ask("GET", "/api/session")
        return True
    except OSError:
        return False


def pair(a, port: int) -> Phone:
    """At the table: UNDO held, then FOUL; the code it shows, typed on the phone."""
    phone = Phone(port)
    status, session = phone.ask("GET", "/api/session")
    phone.csrf = session["csrf"]
    pins = a.config.pins
    press(a, pins.undo, seconds=a.config.timings.undo_hold_time + 0.2)
    press(a, pins.foul)
    code = pump_until(a, lambda: a.app.phone.code, what="a pairing code on the table")[0]
    status, paired = while_pumping(
        a, lambda: phone.ask("POST", "/api/pair", {"code": code, "name": "Olena"})
    )
    assert status == 200, paired
    phone.csrf = paired["csrf"]
    return phone


class Floods:
    """The three floods on threads of their own until stopped (or a bound), each noting
    every answer it got."""

    def __init__(self, state_dir, phone: Phone, broker) -> None:
        self.web: list[int] = []
        self.socket: list[dict] = []
        self.sent_socket = 0
        self.stopping = threading.Event()
        self.club = Listener(broker, "fp/v1/table1/assigned")
        self.assigns = 0
        self.threads = [
            threading.Thread(target=self._web, args=(phone,)) for _ in range(WEB_THREADS)
        ]
        self.threads += [
            threading.Thread(target=self._socket, args=(socket_path(state_dir), n))
            for n in range(SOCKET_CLIENTS)
        ]
        self.threads.append(threading.Thread(target=self._assigns))

    def start(self) -> None:
        for thread in self.threads:
            thread.daemon = True
            thread.start()

    def stop(self) -> None:
        self.stopping.set()

    def running(self) -> bool:
        return any(t.is_alive() for t in self.threads)

    def _web(self, phone: Phone) -> None:
        for n in range(BOUND):
            if self.stopping.is_set():
                return
            status, _ = phone.ask("POST", "/api/setup", {"race": 2 + n % 2})
            self.web.append(status)

    def _socket(self, path, n: int) -> None:
        client = LineClient(path)
        for i in range(0, BOUND, BATCH):
            if self.stopping.is_set():
                break
            for j in range(i, i + BATCH):  # a batch at once, then its answers
                command = {"type": "command", "id": f"{n}-{j}", "cmd": "setup", "race": 4 + j % 2}
                client.send(command)
                self.sent_socket += 1
            for _ in range(BATCH):
                self.socket.append(client.next(kind="reply"))
        client.close()

    def _assigns(self) -> None:
        for n in range(BOUND):
            if self.stopping.is_set():
                return
            payload = {"id": f"m{n}", "players": ["Ія", "Петро"], "race": 6 + n % 2}
            self.club.client.publish("fp/v1/table1/assign", json.dumps(payload), qos=1, retain=True)
            self.assigns = n + 1
            time.sleep(0.005)

    def last_assign(self) -> str:
        return f"m{self.assigns - 1}"


def test_every_network_path_at_once_changes_no_press_and_no_ball(broker, tmp_path):
    quiet = table(tmp_path / "quiet")
    try:
        opening(quiet)
        play(quiet)
        expected = rule_lines(tmp_path / "quiet")
        expected_score = quiet.app.match.snapshot()["score"]
    finally:
        quiet.close()

    state = tmp_path / "flooded"
    a = table(state)
    port = free_port()
    net = start_net(state, port, broker)
    floods = None
    try:
        phone = pair(a, port)
        opening(a)
        before = len(rule_lines(state))
        floods = Floods(state, phone, broker)
        floods.start()
        pump_until(  # each path is flowing before the players go on
            a,
            lambda: floods.web and floods.socket and floods.club.on("fp/v1/table1/assigned"),
            what="an answer on each path",
        )
        taken_before = sum(r["ok"] for r in floods.socket)
        play(a)
        taken_during = sum(r["ok"] for r in floods.socket) - taken_before
        floods.stop()
        pump_until(a, lambda: not floods.running(), what="the floods to end")
        pump_until(
            a,
            lambda: _answered(floods.club.on("fp/v1/table1/assigned"), floods.last_assign()),
            what="the club's last assign answered",
        )

        assert taken_during > 0  # the players played while the floods ran
        assert rule_lines(state) == expected  # no press or ball lost, doubled or changed
        assert len(expected) > before
        snapshot = a.app.match.snapshot()
        assert snapshot["score"] == expected_score and snapshot["race"] == 1
        assert snapshot["players"] == quiet.app.match.snapshot()["players"]

        # Every flood command answered: taken, or refused in words, never left waiting.
        assert set(floods.web) <= {200, 409, 429} and 200 in floods.web and 429 in floods.web
        assert len(floods.socket) == floods.sent_socket
        taken = [r for r in floods.socket if r["ok"]]
        refused = [r for r in floods.socket if not r["ok"]]
        assert taken and all(r["message"] == "next match" for r in taken)
        assert refused and all(r["message"].startswith("busy:") for r in refused)
        # What the flood sent waits for the next match, durable.
        assert SetupStore(state).load().pending is not None
    finally:
        if floods is not None:
            floods.club.close()
        net.terminate()
        net.wait(PATIENCE)
        a.close()


def _answered(answers: list[bytes], last: str) -> bool:
    return bool(answers) and json.loads(answers[-1]).get("id") == last
