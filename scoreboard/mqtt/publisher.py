"""The table's MQTT publisher: the table's socket (scoreboard/bridge/) on one side, the club's
broker on the other. It runs in the network process; the table never waits on it.

paho-mqtt runs its own network thread (``loop_start``) and reconnects by itself; its callbacks
only hand over to the asyncio loop (``call_soon_threadsafe``), where everything else happens,
so no state is shared between threads. What is retained (availability, info, state, faults,
discovery) is published again on every connection: a broker that restarted without its
database, or a table that was offline, comes back whole. Results are QoS 1 and remembered
only on the broker's PUBACK (results.py); `event` goes out only while connected.

Every result is signed with the table's own key (scoreboard/signing/, issue 34), made in the
state folder if the table has not made it yet; `info` carries the public key, so the club
knows it on first contact. A key that cannot be read or made holds the results back (said in
the log): they stay on the table, unacknowledged, and go once it can sign them.
"""

import asyncio
import contextlib
import dataclasses
import logging
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable

import paho.mqtt.client as paho

from scoreboard import release
from scoreboard.bridge.client import TableUnreachable
from scoreboard.config import Config, MqttConfig
from scoreboard.mqtt import discovery, topics
from scoreboard.mqtt.results import Results, digest
from scoreboard.mqtt.update_offer import UpdateOffers
from scoreboard.signing import signature
from scoreboard.signing.table_key import TableKey, TableKeyError, load_or_make

LOGGER = logging.getLogger("scoreboard.mqtt")

# (ok, message) from the table for a command sent through its socket.
SendCommand = Callable[..., Awaitable[tuple[bool, str]]]


def wanted(config: Config) -> bool:
    return config.mqtt.enabled


def make_client(m: MqttConfig) -> paho.Client:
    """The paho client the config describes: credentials, TLS, the Last Will."""
    client = paho.Client(
        paho.CallbackAPIVersion.VERSION2,
        client_id=f"fp-{m.table}",
        protocol=paho.MQTTv311,
        clean_session=True,
    )
    if m.username:
        client.username_pw_set(m.username, m.password or None)
    if m.tls_ca:
        context = ssl.create_default_context(cafile=m.tls_ca)
        if m.tls_cert:
            context.load_cert_chain(m.tls_cert, m.tls_key)
        client.tls_set_context(context)
    client.will_set(topics.topic(m.table, topics.AVAILABILITY), topics.OFFLINE, qos=1, retain=True)
    client.reconnect_delay_set(min_delay=1, max_delay=30)
    return client


def connect_args(m: MqttConfig) -> dict:
    return {"host": m.host, "port": m.port, "keepalive": m.keepalive}


def info_for(config: Config) -> dict:
    m = config.mqtt
    return topics.info_payload(
        table=m.table,
        name=m.name,
        version=release.version(),
        displays=[screen.driver for screen in config.display.screens],
        language=config.display.language,
    )


class Publisher:
    def __init__(
        self,
        config: Config,
        *,
        state_dir,
        send_command: SendCommand | None = None,
        data_dir=None,
        client: paho.Client | None = None,
    ):
        self.m = config.mqtt
        self.table = self.m.table
        self.info = info_for(config)
        self.send_command = send_command
        self.client = client or make_client(self.m)
        self.state_dir = state_dir
        self.key: TableKey | None = None  # the table's signing key, once it could be read
        self._key_problem: str | None = None  # why not, said once
        self._signing_key()  # made now if the table has not made it: `info` announces it
        self.results = Results(self.table, state_dir, data_dir=data_dir)
        self.updates = UpdateOffers(state_dir)  # the club's update, fetched on a card image
        self.connected = False
        self.stopping = False
        self.table_up = False  # the table's socket is connected and has said its state
        self.state: dict | None = None  # the table's last snapshot
        self.faults: dict | None = None  # its faults payload
        self.assign: dict | None = None  # the club's assignment not yet taken by the table
        self.roster: list[str] | None = None  # the club's players, not yet given to the table
        self._aio: asyncio.AbstractEventLoop | None = None
        self._inflight: dict[int, dict] = {}  # mid -> result awaiting its PUBACK
        self._sent: dict[str, str] = {}  # match id -> digest in flight (paho resends it)
        self._assigning = False
        self._rostering = False
        self.reply: dict | None = None  # the table's answer to the last assign
        self.published = 0  # figures for tests and benches: messages and results sent,
        self.results_sent = 0
        self.assign_seen: str | None = None  # and the id of the last assign the broker gave

    def topic(self, name: str, *rest: str) -> str:
        return topics.topic(self.table, name, *rest)

    # -- start and stop -----------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background (paho's thread); call from the asyncio loop."""
        self._aio = asyncio.get_running_loop()
        c = self.client
        c.on_connect = lambda *a: self._post(self._on_connect, a[3])
        c.on_disconnect = lambda *a: self._post(self._on_disconnect, a[3])
        c.on_publish = lambda _c, _u, mid, *a: self._post(self._on_publish, mid)
        c.on_message = lambda _c, _u, msg: self._post(self._on_message, msg.topic, msg.payload)
        c.connect_async(**connect_args(self.m))
        c.loop_start()
        LOGGER.info("mqtt: connecting to %s:%s as table %s", self.m.host, self.m.port, self.table)

    def stop(self) -> None:
        """Say offline (retained) and leave; the Last Will says it when we cannot."""
        self.stopping = True
        if self.connected:
            message = self.client.publish(
                self.topic(topics.AVAILABILITY), topics.OFFLINE, qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                message.wait_for_publish(timeout=2)
        self.client.disconnect()
        self.client.loop_stop()

    def _post(self, fn, *args) -> None:
        if self._aio is not None and not self._aio.is_closed():
            self._aio.call_soon_threadsafe(fn, *args)

    # -- the table's socket -------------------------------------------------------------------
    async def follow(self, messages: AsyncIterator[dict]) -> None:
        """Publish what the table says: ``{"type": "state", ...}`` and ``{"type": "event", ...}``
        (scoreboard/bridge/protocol.py) until `messages` ends."""
        async for message in messages:
            self.take(message)

    def take(self, message: dict) -> None:
        kind = message.get("type")
        if kind == "state":
            if not self.table_up:
                self.table_up = True
                self._say_availability()
            self._take_state(message.get("state") or {}, message.get("faults") or [])
        elif kind == "link" and not message.get("connected") and self.table_up:
            self.table_up = False  # the table process stopped or died: the club sees it
            self._say_availability()
        elif kind == "event" and self.connected:
            payload = {"n": message.get("n"), "line": message.get("line")}
            self._publish(self.topic(topics.EVENT), payload, retain=False)

    def _take_state(self, snapshot: dict, faults: list) -> None:
        before = self.state
        faults_now = topics.faults_payload(faults, updated="")
        if (
            snapshot != before
            or self.faults is None
            or self.faults["faults"] != faults_now["faults"]
        ):
            self.faults = {**faults_now, "updated": topics.now_iso()}
            if self.connected:
                self._publish(self.topic(topics.FAULTS), self.faults)
        if snapshot != before:
            self.state = snapshot
            if self.connected:
                self._publish(self.topic(topics.STATE), snapshot)
            over = "match-over"
            if snapshot.get("phase") == over or (before or {}).get("phase") == over:
                self._send_results(scan_archive=False)  # the match ended, or was archived
        if self.assign is not None:
            self._forward_assign()  # the table's socket is back: what waited goes now
        if self.roster is not None:
            self._forward_roster()

    # -- the broker ---------------------------------------------------------------------------
    def _on_connect(self, reason_code) -> None:
        if reason_code.is_failure:
            LOGGER.warning("mqtt: the broker refused the table: %s", reason_code)
            return
        self.connected = True
        LOGGER.info("mqtt: connected to %s:%s", self.m.host, self.m.port)
        self.client.subscribe(
            [
                (self.topic(topics.ASSIGN), 1),
                (topics.ROSTER, 1),
                (topics.UPDATE, 1),
                (discovery.STATUS, 1),
            ]
        )
        self._say_availability()
        key = self._signing_key()  # the club learns it here on first contact (issue 34)
        self._publish(
            self.topic(topics.INFO), {**self.info, **({"key": key.public} if key else {})}
        )
        self._publish_discovery()
        if self.state is not None:
            self._publish(self.topic(topics.STATE), self.state)
        if self.faults is not None:
            self._publish(self.topic(topics.FAULTS), self.faults)
        if self.reply is not None:
            self._publish(self.topic(topics.ASSIGNED), self.reply)
        self._send_results(scan_archive=True)

    def _on_disconnect(self, reason_code) -> None:
        if self.connected and not self.stopping:
            LOGGER.warning("mqtt: lost the broker (%s); trying again", reason_code)
        self.connected = False

    def _on_publish(self, mid: int) -> None:
        result = self._inflight.pop(mid, None)
        if result is None:
            return
        self._sent.pop(result["match_id"], None)
        try:
            self.results.acknowledged(result)
        except OSError as exc:  # sent again next time: the broker keeps the last one
            LOGGER.warning("mqtt: cannot record result %s as sent: %s", result["match_id"], exc)

    def _on_message(self, topic: str, payload: bytes) -> None:
        if topic == discovery.STATUS:
            if payload == b"online":
                self._publish_discovery()
            return
        if topic == topics.ROSTER:
            try:
                self.roster = topics.parse_roster(payload)
            except topics.AssignError as exc:
                LOGGER.warning("mqtt: the club's roster cannot be read: %s", exc)
                return
            self._forward_roster()
            return
        if topic == topics.UPDATE:
            try:
                self.updates.offered(topics.parse_update(payload))
            except topics.AssignError as exc:
                LOGGER.warning("mqtt: the club's update offer cannot be read: %s", exc)
            return
        if topic != self.topic(topics.ASSIGN):
            return
        try:
            assign = topics.parse_assign(payload)
        except topics.AssignError as exc:
            LOGGER.warning("mqtt: an assign the table cannot read: %s", exc)
            self._publish(
                self.topic(topics.ASSIGNED), {"id": None, "ok": False, "message": str(exc)}
            )
            return
        self.assign_seen = assign and assign["id"]
        if assign is None or assign["id"] == self.results.assigned:
            return  # cleared, or taken already (a retained message comes on every connect)
        self.assign = assign
        self._forward_assign()

    # -- what goes out ------------------------------------------------------------------------
    def _say_availability(self) -> None:
        """Online while the table plays and the broker hears us; the Last Will says offline
        when this process or its network dies, this when the table process does."""
        if self.connected:
            say = topics.ONLINE if self.table_up else topics.OFFLINE
            self._publish(self.topic(topics.AVAILABILITY), say, raw=True)

    def _publish(self, topic: str, payload, *, retain=True, qos=1, raw=False):
        data = payload if raw else topics.encode(payload)
        self.published += 1
        return self.client.publish(topic, data, qos=qos, retain=retain)

    def _publish_discovery(self) -> None:
        for topic, payload in discovery.messages(
            self.table, name=self.info["name"], version=self.info["version"]
        ):
            self._publish(topic, payload)

    def _send_results(self, *, scan_archive: bool) -> None:
        """Each finished match the broker has not acknowledged, unless paho holds it already
        (it sends what waits for a PUBACK again by itself on reconnecting)."""
        key = self._signing_key()
        if key is None:
            return  # kept on the table until it can sign them
        try:
            pending = self.results.pending(scan_archive=scan_archive)
        except OSError as exc:
            LOGGER.warning("mqtt: cannot read the finished matches: %s", exc)
            return
        for result in pending:
            value = digest(result)
            if self._sent.get(result["match_id"]) == value:
                continue
            signed = signature.sign(result, key)
            message = self._publish(self.topic(topics.RESULT, result["match_id"]), signed)
            self._sent[result["match_id"]] = value
            self.results_sent += 1
            self._inflight[message.mid] = result

    def _signing_key(self) -> TableKey | None:
        """The table's key, read (or made) the first time it is needed; None while it cannot
        be, said once in the log, and tried again with the next results."""
        if self.key is None:
            try:
                self.key = load_or_make(self.state_dir)
            except TableKeyError as exc:
                if str(exc) != self._key_problem:
                    LOGGER.warning("mqtt: %s; the results wait on the table", exc)
                self._key_problem = str(exc)
        return self.key

    def _forward_assign(self) -> None:
        if self._assigning or self.send_command is None or self.assign is None:
            return
        self._assigning = True
        asyncio.ensure_future(self._assign(self.assign))

    async def _assign(self, assign: dict) -> None:
        """The club's next match to the table (the setup command, which the table checks and
        shows); the answer goes back on `assigned`. Not sent (no socket): kept to try again."""
        try:
            ok, message = await self.send_command("setup", **topics.setup_args(assign))
        except (TimeoutError, OSError, ConnectionError) as exc:
            LOGGER.info("mqtt: the table's socket is not there; the assign waits (%s)", exc)
            return
        finally:
            self._assigning = False
        if not ok and message.startswith(NOT_RUN):
            # The table said it did not run it (too many commands waiting, or taken too late
            # and withdrawn): the same assign again in a moment, never recorded as taken.
            LOGGER.info("mqtt: the table did not take assign %s yet (%s)", assign["id"], message)
            asyncio.get_running_loop().call_later(ASSIGN_RETRY_SECONDS, self._forward_assign)
            return
        if self.assign is assign:
            self.assign = None
        try:
            self.results.assigned = assign["id"]
            self.results.save()
        except OSError as exc:
            LOGGER.warning("mqtt: cannot record assign %s as taken: %s", assign["id"], exc)
        self.reply = {"id": assign["id"], "ok": ok, "message": message, "at": topics.now_iso()}
        if self.connected:
            self._publish(self.topic(topics.ASSIGNED), self.reply)

    def _forward_roster(self) -> None:
        if self._rostering or self.send_command is None or self.roster is None:
            return
        self._rostering = True
        asyncio.ensure_future(self._give_roster(self.roster))

    async def _give_roster(self, names: list[str]) -> None:
        """The club's players to the table's setup screen (its `roster` command, kept in its
        setup.json); not taken (no socket, busy): tried again."""
        try:
            ok, message = await self.send_command("roster", roster=names)
        except (TimeoutError, OSError, ConnectionError):
            return  # the socket is away: given when the table is back
        finally:
            self._rostering = False
        if not ok and message.startswith(NOT_RUN):
            asyncio.get_running_loop().call_later(ASSIGN_RETRY_SECONDS, self._forward_roster)
            return
        if not ok:
            LOGGER.warning("mqtt: the table refused the club's roster: %s", message)
        if self.roster is names:
            self.roster = None  # given (or refused for good): until the club sends another


# The replies of a table that did not run a command (bridge/table.py): sent again.
NOT_RUN = ("busy:", "withdrawn:")
ASSIGN_RETRY_SECONDS = 2.0


def bridge_sender(table) -> SendCommand:
    """`send_command` over the table's socket (scoreboard/bridge/client.py's TableClient): a
    command that cannot reach the table raises ConnectionError, to be tried again later."""

    async def send(cmd: str, **args) -> tuple[bool, str]:
        if not table.connected:
            raise ConnectionError("the table is not connected")
        try:
            reply = await table.command(cmd, **args)
        except TableUnreachable as exc:
            if table.connected:  # no answer in time: it may still run it, so never send again
                return False, f"the table did not answer: {exc}"
            raise  # gone: tried again when it is back
        return bool(reply.get("ok")), str(reply.get("message") or "")

    return send


async def serve(config: Config, table, *, state_dir, data_dir=None) -> None:
    """Publish the table behind `table` (a started TableClient) until cancelled: the network
    process runs this beside its web server when [mqtt] enabled."""
    publisher = Publisher(
        config, state_dir=state_dir, data_dir=data_dir, send_command=bridge_sender(table)
    )
    publisher.start()
    try:
        await publisher.follow(table.messages())
    finally:
        publisher.stop()


def attach(app, config: Config, *, state_dir, table) -> None:
    """Publish from `scoreboard net`'s aiohttp `app` while it runs: the table behind the
    TableClient the web face follows (started by the app; messages() is a subscription)."""

    async def publishing(_app):
        task = asyncio.get_running_loop().create_task(serve(config, table, state_dir=state_dir))
        yield
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    app.cleanup_ctx.append(publishing)


def broker_option(text: str, config: Config) -> Config:
    """`--mqtt HOST[:PORT]` (sim, net): [mqtt] on towards that broker, the rest as configured."""
    host, _, port = text.rpartition(":") if ":" in text else (text, "", "")
    try:
        port_number = int(port) if port else config.mqtt.port
    except ValueError:
        raise ValueError(f"--mqtt {text}: the port must be a number") from None
    if not host or not 1 <= port_number <= 65535:
        raise ValueError(f"--mqtt {text}: give HOST or HOST:PORT")
    mqtt = dataclasses.replace(config.mqtt, enabled=True, host=host, port=port_number)
    return dataclasses.replace(config, mqtt=mqtt)
