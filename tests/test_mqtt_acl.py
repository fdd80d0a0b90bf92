"""The sample Mosquitto ACL (docs/mosquitto/) on a real broker: each table writes only its own
topics, the club reads them all and writes only `assign`, nobody gets in without a password."""

from pathlib import Path

import paho.mqtt.client as paho
import pytest
from broker import Broker, Listener, available
from helpers import PATIENCE, wait_for

DOCS = Path(__file__).parent.parent / "docs" / "mosquitto"
USERS = {"table1": "pw1", "table2": "pw2", "club": "pwc", "homeassistant": "pwh"}


@pytest.fixture
def secured(tmp_path):
    if not available():
        pytest.skip("mosquitto is not installed (apt install mosquitto; .ci/run does it)")
    b = Broker(tmp_path / "broker", anonymous=False)
    for name, password in USERS.items():
        b.add_user(name, password)
    b.extra = f"password_file {b.folder / 'passwd'}\nacl_file {DOCS / 'scoreboard.acl'}\n"
    b.start()
    yield b
    b.stop()


def the_sample_config_uses_the_acl_and_passwords():
    text = (DOCS / "scoreboard.conf").read_text()
    return "allow_anonymous false" in text and "acl_file /etc/mosquitto/scoreboard.acl" in text


def test_the_sample_config_names_the_acl_and_refuses_anonymous():
    assert the_sample_config_uses_the_acl_and_passwords()


def client(broker, user):
    c = paho.Client(paho.CallbackAPIVersion.VERSION2)
    c.username_pw_set(user, USERS.get(user, "wrong"))
    result = {}
    c.on_connect = lambda cl, u, f, reason, p: result.setdefault("reason", reason)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    wait_for(lambda: "reason" in result, what=f"{user} to be answered")
    return c, result["reason"]


def publish(c, topic, payload=b"x"):
    c.publish(topic, payload, qos=1).wait_for_publish(timeout=PATIENCE)


def test_a_table_cannot_write_another_tables_topics(secured):
    club = Listener(secured, "fp/v1/#", username="club", password="pwc")
    ha = Listener(secured, "homeassistant/#", username="homeassistant", password="pwh")
    table1, reason = client(secured, "table1")
    assert not reason.is_failure
    forbidden = [
        "fp/v1/table2/state",
        "fp/v1/table2/result/20261203T100000Z",
        "fp/v1/table2/availability",
        "fp/v1/table1/assign",  # the club's to set, not the table's
        "homeassistant/sensor/table2/score/config",
    ]
    for topic in forbidden:
        publish(table1, topic)
    for topic in ("homeassistant/sensor/table1/score/config", "fp/v1/table1/state"):
        publish(table1, topic)
    # One client's messages arrive in order: once its own last one is here, any forbidden
    # one the broker let through would be here too.
    wait_for(lambda: club.on("fp/v1/table1/state"), what="table1's own state")
    wait_for(lambda: ha.on("homeassistant/sensor/table1/score/config"), what="its discovery")
    assert [t for t, _, _ in club.messages] == ["fp/v1/table1/state"]
    assert [t for t, _, _ in ha.messages] == ["homeassistant/sensor/table1/score/config"]
    table1.disconnect()
    club.close()
    ha.close()


def test_the_club_sets_assign_and_only_the_table_reads_it(secured):
    table1 = Listener(secured, "fp/v1/#", username="table1", password="pw1")
    table2 = Listener(
        secured, "fp/v1/table1/assign", "fp/v1/table2/assign", username="table2", password="pw2"
    )
    club, _ = client(secured, "club")
    publish(club, "fp/v1/table1/state")  # not the club's to write
    publish(club, "fp/v1/table1/assign", b'{"id": "a1"}')
    wait_for(lambda: table1.on("fp/v1/table1/assign"), what="table1's assign")
    assert [t for t, _, _ in table1.messages] == ["fp/v1/table1/assign"]
    publish(club, "fp/v1/table2/assign", b'{"id": "a2"}')  # a marker: table2 may read its own
    wait_for(lambda: table2.on("fp/v1/table2/assign"), what="table2's assign")
    assert [t for t, _, _ in table2.messages] == ["fp/v1/table2/assign"]  # never table1's
    club.disconnect()
    table1.close()
    table2.close()


def test_the_club_writes_the_roster_every_table_reads_and_no_table_writes(secured):
    """Issue 22: the club's players for every table's setup screen, one retained message."""
    table1 = Listener(secured, "fp/club/roster", username="table1", password="pw1")
    table2, _ = client(secured, "table2")
    publish(table2, "fp/club/roster", b'{"roster": ["Fake"]}')  # not a table's to write
    club, _ = client(secured, "club")
    publish(club, "fp/club/roster", b'{"roster": ["Olena", "Taras"]}')
    wait_for(lambda: table1.on("fp/club/roster"), what="the roster at table1")
    assert table1.on("fp/club/roster") == [b'{"roster": ["Olena", "Taras"]}']
    for c in (club, table2):
        c.disconnect()
    table1.close()


@pytest.mark.parametrize("user", ["nobody", "table1-wrong-password"])
def test_nobody_gets_in_without_a_user_and_password(secured, user):
    c, reason = client(secured, user)
    assert reason.is_failure
    c.loop_stop()


def test_the_acl_lets_the_real_publisher_say_everything_it_says(secured, tmp_path):
    import asyncio
    import json

    from helpers import until
    from mqtt_table import Feed, closed, match_lines, state_message, write_journal

    from scoreboard import config as configuration
    from scoreboard.mqtt.publisher import Publisher

    club = Listener(secured, "fp/v1/#", username="club", password="pwc")
    ha = Listener(secured, "homeassistant/#", username="homeassistant", password="pwh")
    lines = closed(match_lines("2026-12-03T10:00:00Z"))  # both confirmed it (issue 34)
    write_journal(tmp_path, lines)
    config = configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {secured.port}\n'
        'table = "table1"\nusername = "table1"\npassword = "pw1"\n'
    )

    async def body():
        publisher = Publisher(config, state_dir=tmp_path)
        publisher.start()
        feed = Feed()
        feed.put(state_message(lines))
        task = asyncio.ensure_future(publisher.follow(feed))
        await until(lambda: publisher.connected, what="the publisher to connect")
        feed.put({"type": "event", "n": 7, "line": "shot pots=5"})  # only while connected
        await until(lambda: publisher.results.acked, what="the result's PUBACK")
        await until(lambda: len(ha.messages) == 4, what="the discovery")
        feed.close()
        await task
        publisher.stop()

    asyncio.run(body())
    t = "fp/v1/table1/"
    wanted = {t + n for n in ("availability", "state", "faults", "info", "event")}
    wanted.add(t + "result/20261203T100000Z")
    wait_for(lambda: wanted <= {m[0] for m in club.messages}, what=f"all of {wanted}")
    wait_for(lambda: club.on(t + "availability")[-1] == b"offline", what="offline on leaving")
    assert json.loads(club.on(t + "state")[-1])["winner"] == "A"
    result = json.loads(club.on(t + "result/20261203T100000Z")[-1])
    assert result["confirmation"] == "confirmed"
    club.close()
    ha.close()


@pytest.mark.parametrize("user", ["club", "homeassistant"])
def test_the_club_and_home_assistant_cannot_publish_as_a_table(secured, user):
    """Issue 21: the sample ACL's `pattern` lines apply to every user, so `club` could publish
    fp/v1/club/state, a fake table the hall showed, and `homeassistant` its own discovery."""
    watcher = Listener(secured, "fp/v1/#", username="club", password="pwc")
    ha = Listener(secured, "homeassistant/#", username="homeassistant", password="pwh")
    c, _ = client(secured, user)
    for name in ("availability", "state", "faults", "event", "info", "assigned", "result/x1"):
        publish(c, f"fp/v1/{user}/{name}")
    publish(c, f"homeassistant/sensor/{user}/score/config")
    table1, _ = client(secured, "table1")
    publish(table1, "fp/v1/table1/state")  # markers: once here, a forbidden one would be too
    publish(table1, "homeassistant/sensor/table1/score/config")
    wait_for(lambda: watcher.on("fp/v1/table1/state"), what="table1's state")
    wait_for(lambda: ha.on("homeassistant/sensor/table1/score/config"), what="its discovery")
    assert [t for t, _, _ in watcher.messages] == ["fp/v1/table1/state"]
    assert [t for t, _, _ in ha.messages] == ["homeassistant/sensor/table1/score/config"]
    for each in (c, table1):
        each.disconnect()
    watcher.close()
    ha.close()


def test_a_table_cannot_be_named_as_the_club_or_home_assistant():
    from scoreboard import config as configuration

    for name in ("club", "homeassistant"):
        with pytest.raises(configuration.ConfigError, match="never a table's"):
            configuration.loads(f'[mqtt]\nenabled = true\ntable = "{name}"\n')
