"""A real Mosquitto for the tests: started on a free loopback port with a config of the test's
own, killed (SIGKILL, as a crash) and started again on the same port and database, and stopped.

Mosquitto comes from apt (`.ci/run` and the Makefile install it); where it is missing and
cannot be installed the tests that need it skip and say why. Waiting here is for a real
process to listen or to deliver, bounded, never a timed assertion.
"""

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import paho.mqtt.client as paho
from helpers import PATIENCE, free_port, wait_for

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


def available() -> bool:
    return os.access(MOSQUITTO, os.X_OK)


def sample_autosave() -> str:
    """The persistence lines of the sample broker config (docs/mosquitto/scoreboard.conf)."""
    sample = Path(__file__).parent.parent / "docs" / "mosquitto" / "scoreboard.conf"
    lines = sample.read_text().splitlines()
    return "".join(line + "\n" for line in lines if line.startswith("autosave"))


class Broker:
    """One Mosquitto process with its folder (config, database, password and ACL files)."""

    def __init__(
        self, folder: Path, *, extra: str = "", anonymous: bool = True, autosave: str = ""
    ):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.extra = extra
        self.anonymous = anonymous
        # Saved after every change by default: a test's kill finds what was acknowledged on
        # disk. The bench uses the sample config's (docs/mosquitto/scoreboard.conf).
        self.autosave = autosave or "autosave_interval 1\nautosave_on_changes true\n"
        self.process: subprocess.Popen | None = None

    @property
    def config_path(self) -> Path:
        return self.folder / "mosquitto.conf"

    def write_config(self) -> None:
        user = pwd.getpwuid(os.geteuid()).pw_name  # as root it would drop to `mosquitto`
        self.config_path.write_text(
            f"listener {self.port} 127.0.0.1\n"
            f"allow_anonymous {'true' if self.anonymous else 'false'}\n"
            f"user {user}\n"
            "persistence true\n"
            f"persistence_location {self.folder}/\n"
            f"{self.autosave}"
            "log_dest stderr\n"
            "log_type error\nlog_type warning\nlog_type notice\n" + self.extra
        )

    def start(self) -> "Broker":
        self.write_config()
        log = open(self.folder / "mosquitto.log", "ab")  # noqa: SIM115 (the process keeps it)
        self.process = subprocess.Popen(
            [MOSQUITTO, "-c", str(self.config_path)], stdout=log, stderr=log
        )
        log.close()
        wait_for(self.listening, what=f"mosquitto on port {self.port} ({self.log()})")
        return self

    def listening(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"mosquitto exited: {self.log()}")
        with socket.socket() as s:
            s.settimeout(1)
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def kill(self) -> None:
        """A crash: SIGKILL, no goodbye to any client."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "mosquitto.log").read_text(errors="replace")[-2000:]
        return ""

    def add_user(self, name: str, password: str) -> None:
        path = self.folder / "passwd"
        flags = ["-b"] if path.exists() else ["-c", "-b"]
        subprocess.run([PASSWD, *flags, str(path), name, password], check=True, capture_output=True)


class Listener:
    """A real paho client that records every message under some topics (the club's view,
    in tests): ``messages`` in arrival order as (topic, payload, retained)."""

    def __init__(self, broker: Broker, *subscriptions: str, username=None, password=None):
        self.messages: list[tuple[str, bytes, bool]] = []
        self.connected = False
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id="")
        if username:
            self.client.username_pw_set(username, password)
        self.subscriptions = subscriptions or ("#",)
        self.client.on_connect = self._connected
        self.client.on_disconnect = lambda *a: setattr(self, "connected", False)
        self.client.on_message = lambda c, u, m: self.messages.append(
            (m.topic, m.payload, m.retain)
        )
        self.client.reconnect_delay_set(0.1, 0.5)
        self.client.connect_async("127.0.0.1", broker.port, keepalive=5)
        self.client.loop_start()
        wait_for(lambda: self.connected, what="the listener to connect")

    def _connected(self, client, userdata, flags, reason, properties) -> None:
        if not reason.is_failure:
            for s in self.subscriptions:
                client.subscribe(s, qos=1)
            self.connected = True

    def on(self, topic: str) -> list[bytes]:
        return [payload for t, payload, _ in list(self.messages) if t == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
