"""The club's MQTT client: subscribes to every table, hands each message to the asyncio loop,
and publishes the staff's next match for a table as its retained `assign`."""

import asyncio
import logging
import ssl
import uuid
from collections.abc import Callable
from dataclasses import dataclass

import paho.mqtt.client as paho

from scoreboard.mqtt import topics

LOGGER = logging.getLogger("scoreboard.club")


@dataclass(frozen=True)
class BrokerSettings:
    host: str = "localhost"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls_ca: str = ""
    keepalive: int = 30


class ClubClient:
    """`on_message(topic, payload)` and `on_link(connected)` are called on the asyncio loop."""

    def __init__(
        self,
        settings: BrokerSettings,
        *,
        on_message: Callable[[str, bytes], None],
        on_link: Callable[[bool], None] = lambda up: None,
    ):
        self.settings = settings
        self.on_message = on_message
        self.on_link = on_link
        self.connected = False
        self.client = paho.Client(
            paho.CallbackAPIVersion.VERSION2,
            client_id=f"fp-club-{uuid.uuid4().hex[:8]}",
            protocol=paho.MQTTv311,
        )
        if settings.username:
            self.client.username_pw_set(settings.username, settings.password or None)
        if settings.tls_ca:
            self.client.tls_set_context(ssl.create_default_context(cafile=settings.tls_ca))
        self.client.reconnect_delay_set(min_delay=1, max_delay=10)
        self._aio: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._aio = asyncio.get_running_loop()
        c = self.client
        c.on_connect = self._connected
        c.on_disconnect = lambda *a: self._post(self._link, False)
        c.on_message = lambda _c, _u, m: self._post(self.on_message, m.topic, m.payload)
        c.connect_async(self.settings.host, self.settings.port, keepalive=self.settings.keepalive)
        c.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def _connected(self, client, userdata, flags, reason, properties) -> None:  # paho's thread
        if reason.is_failure:
            LOGGER.warning("club: the broker refused the club: %s", reason)
            return
        client.subscribe(f"{topics.PREFIX}/+/#", qos=1)
        self._post(self._link, True)

    def _link(self, up: bool) -> None:
        if up != self.connected:
            LOGGER.info("club: %s the broker", "connected to" if up else "lost")
        self.connected = up
        self.on_link(up)

    def _post(self, fn, *args) -> None:
        if self._aio is not None and not self._aio.is_closed():
            self._aio.call_soon_threadsafe(fn, *args)

    def roster(self, names: list[str]) -> None:
        """The club's players for every table's setup screen (retained, QoS 1)."""
        self.client.publish(topics.ROSTER, topics.encode({"roster": names}), qos=1, retain=True)

    def update(self, offer: dict | None) -> None:
        """The update offered to every table (club/updates.py; retained, QoS 1), or none."""
        payload = topics.encode(offer) if offer else b""
        self.client.publish(topics.UPDATE, payload, qos=1, retain=True)

    def assign(self, table: str, settings: dict | None, *, id: str | None = None) -> dict | None:
        """Publish the next match for `table` (retained, QoS 1), or clear it (None); `id`
        names it (a tournament's game, club/tournament_runner.py), else a new one."""
        topic = topics.topic(table, topics.ASSIGN)
        if settings is None:
            self.client.publish(topic, b"", qos=1, retain=True)
            return None
        payload = {
            "id": id or uuid.uuid4().hex[:12],
            **settings,
            "by": "club",
            "at": topics.now_iso(),
        }
        self.client.publish(topic, topics.encode(payload), qos=1, retain=True)
        return payload
