"""Every [mqtt] key of config.example.toml acts (issue 10's rule, for the network side): each
changes the client the publisher builds or what it says; the TLS files on a real Mosquitto
that asks for them."""

import asyncio
import json
import ssl
import subprocess
import time

import paho.mqtt.client as paho
import pytest
from broker import Broker, available
from helpers import PATIENCE, until
from mqtt_table import Feed, match_lines, state_message
from test_config_keys_act import example_keys

from scoreboard import config as configuration
from scoreboard.mqtt.publisher import Publisher, connect_args, info_for, make_client, wanted

CHANGES = {
    "mqtt.enabled": "true",
    "mqtt.host": '"broker.club.lan"',
    "mqtt.port": "1884",
    "mqtt.table": '"table7"',
    "mqtt.name": '"By the window"',
    "mqtt.keepalive": "10",
    "mqtt.username": '"table7"',
    "mqtt.password": None,  # needs a username: set with it
    "mqtt.tls_ca": None,  # files: tested on a real broker below
    "mqtt.tls_cert": None,
    "mqtt.tls_key": None,
}


def test_the_table_covers_every_documented_mqtt_key():
    assert sorted(k for k in example_keys() if k.startswith("mqtt.")) == sorted(CHANGES)


def built(text: str) -> dict:
    config = configuration.loads(text)
    client = make_client(config.mqtt)
    client.connect_async(**connect_args(config.mqtt))  # no network until the loop runs
    return {
        "wanted": wanted(config),
        "where": (client._host, client._port, client._keepalive),
        "who": (client._client_id, client._username, client._password),
        "will": client._will_topic,
        "info": info_for(config),
    }


@pytest.mark.parametrize("key", sorted(k for k, v in CHANGES.items() if v is not None))
def test_every_mqtt_key_changes_what_the_publisher_builds(key):
    name = key.split(".")[1]
    before = built("[mqtt]\n")
    after = built(f"[mqtt]\n{name} = {CHANGES[key]}\n")
    assert [part for part in before if before[part] != after[part]], f"{key} changed nothing"


def test_the_password_is_given_with_the_username():
    with_user = built('[mqtt]\nusername = "t"\n')
    assert built('[mqtt]\nusername = "t"\npassword = "s"\n')["who"] != with_user["who"]


def make_certificates(folder):
    """A CA, the broker's certificate for 127.0.0.1 and a table's client certificate."""

    def run(*args):
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=ca")
    for name, extra in (("server", "subjectAltName=IP:127.0.0.1"), ("client", "")):
        cn = "127.0.0.1" if name == "server" else "table1"
        run("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={cn}")
        (folder / f"{name}.ext").write_text(extra + "\n")
        run(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            f"{name}.crt",
            "-days",
            "2",
            "-extfile",
            f"{name}.ext",
        )


@pytest.fixture
def tls_broker(tmp_path):
    if not available():
        pytest.skip("mosquitto is not installed (apt install mosquitto; .ci/run does it)")
    certs = tmp_path / "certs"
    certs.mkdir()
    make_certificates(certs)
    b = Broker(tmp_path / "broker")
    b.extra = (
        f"cafile {certs / 'ca.crt'}\ncertfile {certs / 'server.crt'}\n"
        f"keyfile {certs / 'server.key'}\nrequire_certificate true\n"
        "use_identity_as_username true\n"
    )
    b.start()
    yield b, certs
    b.stop()


def tls_config(broker, certs, *, client_cert=True):
    keys = f'tls_ca = "{certs / "ca.crt"}"\n'
    if client_cert:
        keys += f'tls_cert = "{certs / "client.crt"}"\ntls_key = "{certs / "client.key"}"\n'
    return configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "table1"\n'
        + keys
    )


def test_tls_files_connect_to_a_broker_that_asks_for_a_client_certificate(tls_broker, tmp_path):
    broker, certs = tls_broker

    async def body():
        publisher = Publisher(tls_config(broker, certs), state_dir=tmp_path)
        publisher.start()
        feed = Feed()
        feed.put(state_message(match_lines("2026-12-03T10:00:00Z", pots=(2,))))
        task = asyncio.ensure_future(publisher.follow(feed))
        await until(lambda: publisher.connected, what="a TLS connection")
        feed.close()
        await task
        publisher.stop()

    asyncio.run(body())


def test_without_the_client_certificate_the_broker_refuses(tls_broker):
    """Refused for the certificate alone: the same broker takes the same client with it, and
    the refusal comes from TLS, not from a broker that is not there."""
    broker, certs = tls_broker

    def answer(client) -> str:
        """What the broker does with `client`: "connected", or how it refused."""
        try:
            client.connect("127.0.0.1", broker.port)  # TCP and the client's side of TLS
        except ssl.SSLError as exc:
            return f"refused by TLS: {exc.reason}"
        # TLS 1.3 says the refusal with the first read after the handshake, as late as a
        # busy broker sends it; an accepted client hears its CONNACK instead.
        give_up = time.monotonic() + PATIENCE  # a bound on a hang, not on speed
        while time.monotonic() < give_up:
            try:
                rc = client.loop(timeout=0.1)
            except ssl.SSLError as exc:
                return f"refused by TLS: {exc.reason}"
            if client.is_connected():
                client.disconnect()
                return "connected"
            if rc != paho.MQTT_ERR_SUCCESS:
                return f"refused by TLS: connection lost ({rc})"
        return "neither"

    assert answer(make_client(tls_config(broker, certs).mqtt)) == "connected"
    refused = answer(make_client(tls_config(broker, certs, client_cert=False).mqtt))
    assert refused.startswith("refused by TLS"), refused


def test_without_tls_ca_the_client_speaks_plain_mqtt():
    assert make_client(configuration.loads("[mqtt]\n").mqtt)._ssl_context is None
    assert json.dumps(built("[mqtt]\n")["info"])  # and says what it is
