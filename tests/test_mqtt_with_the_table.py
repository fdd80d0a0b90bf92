"""The whole table side over MQTT with real parts: the real appliance (mock pins, simulated
time) serving its local socket, the network side's TableClient and publisher, a real
Mosquitto. A button press reaches the broker as an event and a state; the club's assign
reaches the app as its setup command and the answer comes back; the table stopping shows
offline while the network side lives on."""

import asyncio
import json

from bridge_helpers import table
from broker import Listener
from helpers import press, until
from mqtt_table import table_config

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.mqtt.publisher import serve


def mqtt_table_config(broker):
    return table_config(broker, "t1")


def test_a_press_an_assign_and_the_table_stopping_go_through_the_broker(broker, tmp_path):
    config = mqtt_table_config(broker)
    a = table(tmp_path, config)
    assert a.bridge is not None  # [mqtt] enabled: the table serves its socket
    club = Listener(broker, "fp/v1/t1/#")

    def last(topic):
        payloads = club.on("fp/v1/t1/" + topic)
        return payloads[-1] if payloads else None

    async def body():
        async def pump():  # the table's loop, in simulated time, beside the network side
            while True:
                a.loop.run_pending()
                await asyncio.sleep(0.005)

        pumping = asyncio.ensure_future(pump())
        client = TableClient(socket_path(tmp_path))
        client.start()
        publishing = asyncio.ensure_future(serve(config, client, state_dir=tmp_path))
        await until(lambda: last("availability") == b"online", what="online")
        await until(lambda: last("state"), what="the state")
        assert json.loads(last("state"))["phase"] == "lag"

        pumping.cancel()
        press(a, config.pins.player_a)  # A: I break (GR-8.4)
        pumping = asyncio.ensure_future(pump())
        await until(lambda: last("event"), what="the event")
        assert json.loads(last("event"))["line"] == "break A"
        await until(lambda: json.loads(last("state"))["phase"] == "break", what="break")

        assign = {"id": "a1", "players": ["Olena", "Taras"], "race": 3}
        club.client.publish("fp/v1/t1/assign", json.dumps(assign), qos=1, retain=True)
        await until(lambda: last("assigned"), what="the table's answer")
        answer = json.loads(last("assigned"))
        assert answer["ok"] is True and answer["message"] == "this match", answer
        await until(
            lambda: json.loads(last("state"))["players"] == {"A": "Olena", "B": "Taras"},
            what="the new players on the broker",
        )
        assert json.loads(last("state"))["race"] == 3
        assert json.loads(last("state"))["phase"] == "lag"  # the chosen break taken back

        pumping.cancel()
        a.close()  # the table process goes; its network side lives on
        await until(lambda: last("availability") == b"offline", what="offline")
        publishing.cancel()
        await client.close()

    try:
        asyncio.run(body())
    finally:
        club.close()
