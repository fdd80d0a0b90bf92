"""The table's MQTT publisher against a real Mosquitto with real paho-mqtt (issue 12): what it
publishes under fp/v1/<table>/, results kept until the broker's PUBACK, the club's assign."""

import asyncio
import json

import pytest
from broker import Listener
from helpers import until
from mqtt_table import (
    Feed,
    archive,
    closed,
    decoded,
    match_lines,
    state_message,
    write_journal,
)

from scoreboard import config as configuration
from scoreboard.mqtt import discovery, topics
from scoreboard.mqtt.publisher import Publisher
from scoreboard.mqtt.results import FILE_NAME

STARTED = "2026-12-03T10:00:00Z"
MATCH_ID = "20261203T100000Z"


def mqtt_config(broker, table="t1", **extra):
    keys = "".join(f"{k} = {json.dumps(v)}\n" for k, v in extra.items())
    return configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'table = "{table}"\nkeepalive = 2\n{keys}'
    )


async def publishing(publisher: Publisher, feed: Feed):
    publisher.start()
    return asyncio.ensure_future(publisher.follow(feed))


def test_state_info_availability_and_discovery_are_retained(broker, tmp_path):
    lines = match_lines(STARTED, pots=(3,))

    async def body():
        feed = Feed()
        publisher = Publisher(mqtt_config(broker, name="Table 1"), state_dir=tmp_path)
        task = await publishing(publisher, feed)
        feed.put(state_message(lines, faults=[{"kind": "not-saved", "problem": "full"}]))
        feed.put({"type": "event", "n": 6, "line": "shot pots=3"})
        await until(lambda: publisher.connected, what="the publisher to connect")
        await until(lambda: publisher.state is not None, what="the state")
        return publisher, feed, task

    publisher, feed, task = asyncio.run(body())
    try:
        first = Listener(broker, "fp/v1/t1/state", "fp/v1/t1/faults")  # the last ones sent:
        _wait(lambda: len({m[0] for m in first.messages}) == 2, first)  # once the broker has them
        first.close()
        # ... a listener that comes later (the club's screen after a restart) gets it all,
        # retained (what it were sent live would not be marked so).
        late = Listener(broker, "fp/v1/#", "homeassistant/#")
        t = "fp/v1/t1/"
        got = late.messages
        _wait(lambda: len({m[0] for m in got}) >= 8, late)
        retained = {
            topic: json.loads(p) if topic != t + "availability" else p for topic, p, r in got if r
        }
        assert retained[t + "availability"] == b"online"
        assert retained[t + "state"]["score"] == {"A": 3, "B": 0}
        assert retained[t + "faults"]["faults"] == [{"kind": "not-saved", "problem": "full"}]
        assert retained[t + "info"]["name"] == "Table 1"
        assert retained[t + "info"]["languages"] == ["uk", "ru", "en"]
        for sensor in ("score", "frames", "phase", "fault"):
            config = retained[discovery.config_topic("t1", sensor)]
            assert config["availability_topic"] == t + "availability"
            # Home Assistant 2025.10+: the entity id is `default_entity_id`, its domain first;
            # `object_id` is deprecated there and ignored from 2026.4
            assert config["default_entity_id"] == f"sensor.fp_t1_{sensor}"
            assert "object_id" not in config
        assert t + "event" not in retained  # events are not retained
    finally:
        late.close()
        publisher.stop()


def _wait(check, listener):
    from helpers import wait_for

    wait_for(check, what=f"messages (got {[m[0] for m in listener.messages]})")


def test_home_assistant_online_gets_discovery_again(broker, tmp_path):
    async def body():
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path)
        publisher.start()
        await until(lambda: publisher.connected, what="connect")
        listener = Listener(broker, "homeassistant/sensor/#")
        await until(lambda: len(listener.messages) == 4, what="the retained discovery")
        from broker import Listener as L

        ha = L(broker, "nothing/#")
        ha.client.publish(discovery.STATUS, "online")
        await until(lambda: len(listener.messages) == 8, what="discovery again")
        assert {m[2] for m in listener.messages[4:]} == {False}  # sent live, not replayed
        ha.close()
        listener.close()
        publisher.stop()

    asyncio.run(body())


def test_a_finished_match_is_published_once_and_remembered_after_its_puback(broker, tmp_path):
    lines = closed(match_lines(STARTED))  # both players confirmed it at the table (issue 34)
    write_journal(tmp_path, lines)
    listener = Listener(broker, "fp/v1/t1/result/#")

    async def run_once():
        feed = Feed()
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path)
        publisher.start()
        feed.put(state_message(lines))
        task = asyncio.ensure_future(publisher.follow(feed))
        await until(lambda: publisher.connected, what="connect")
        await until(lambda: publisher.results.acked, what="the PUBACK")
        feed.close()
        await task
        publisher.stop()
        return publisher

    first = asyncio.run(run_once())
    _wait(lambda: listener.on(f"fp/v1/t1/result/{MATCH_ID}"), listener)
    result = json.loads(listener.on(f"fp/v1/t1/result/{MATCH_ID}")[0])
    assert result["winner"] == "A" and result["frames"] == {"A": 1, "B": 0}
    assert result["match_id"] == MATCH_ID and result["table"] == "t1"
    assert result["confirmation"] == "confirmed"
    assert MATCH_ID in json.loads((tmp_path / FILE_NAME).read_text())["acked"]
    # Archived later (a new match started): the same match, not sent again.
    archive(tmp_path, lines)
    second = asyncio.run(run_once())
    assert first.results.acked == second.results.acked
    assert (first.results_sent, second.results_sent) == (1, 0)
    assert len(listener.on(f"fp/v1/t1/result/{MATCH_ID}")) == 1
    listener.close()


def test_a_result_waits_on_disk_for_a_broker_that_is_down(broker, tmp_path):
    """The broker is down when the match ends and the network process is restarted before
    it comes back: the result is sent from the journal once the broker is there (nothing is
    held only in memory). Here the players did not confirm it: their time ran out (issue 34)."""
    lines = closed(match_lines(STARTED), "timed-out")
    broker.kill()

    async def while_down():
        feed = Feed()
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path)
        publisher.start()
        write_journal(tmp_path, lines)
        feed.put(state_message(lines))
        await publisher.follow(_closed(feed))
        assert not publisher.connected and not publisher.results.acked
        publisher.stop()

    asyncio.run(while_down())
    broker.start()
    listener = Listener(broker, "fp/v1/t1/result/#")

    async def after():
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path)
        publisher.start()
        await until(lambda: publisher.results.acked, what="the result's PUBACK")
        publisher.stop()

    asyncio.run(after())
    _wait(lambda: listener.on(f"fp/v1/t1/result/{MATCH_ID}"), listener)
    result = json.loads(listener.on(f"fp/v1/t1/result/{MATCH_ID}")[0])
    assert result["winner"] == "A" and result["confirmation"] == "timed-out"
    listener.close()


def _closed(feed: Feed) -> Feed:
    feed.close()
    return feed


def test_the_clubs_roster_reaches_the_table_and_a_busy_table_gets_it_again(broker, tmp_path):
    """Issue 22: every table's setup screen lists the club's players (its `roster` command)."""
    answers = [(False, "busy: too many commands; send again in 0.1 s"), (True, "roster kept")]
    sent = []

    async def send_command(cmd, **args):
        sent.append((cmd, args))
        return answers.pop(0) if answers else (True, "roster kept")

    club = Listener(broker, "fp/club/roster")
    club.client.publish(
        "fp/club/roster", json.dumps({"roster": ["Олена", "Тарас"]}), qos=1, retain=True
    )

    async def run():
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path, send_command=send_command)
        publisher.start()
        feed = Feed()
        task = asyncio.ensure_future(publisher.follow(feed))
        feed.put(state_message(match_lines(STARTED, pots=(1,))))
        await until(lambda: len(sent) == 2 and publisher.roster is None, what="given twice")
        feed.close()
        await task
        publisher.stop()

    asyncio.run(run())
    assert sent == [("roster", {"roster": ["Олена", "Тарас"]})] * 2
    club.close()


def test_the_clubs_assign_goes_to_the_table_once(broker, tmp_path):
    sent = []

    async def send_command(cmd, **args):
        sent.append((cmd, args))
        return True, "next match"

    club = Listener(broker, "fp/v1/t1/assigned")
    assign = {"id": "a1", "players": ["Olena", "Taras"], "race": 3, "by": "club"}
    club.client.publish("fp/v1/t1/assign", json.dumps(assign), qos=1, retain=True)

    async def run_once():
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path, send_command=send_command)
        publisher.start()
        feed = Feed()
        task = asyncio.ensure_future(publisher.follow(feed))
        feed.put(state_message(match_lines(STARTED, pots=(1,))))
        await until(lambda: publisher.connected, what="connect")
        await until(lambda: publisher.assign_seen == "a1", what="the retained assign")
        await until(lambda: publisher.results.assigned == "a1", what="the table's answer")
        feed.close()
        await task
        publisher.stop()

    asyncio.run(run_once())
    asyncio.run(run_once())  # reconnecting gets the retained assign again: not taken twice
    assert sent == [("setup", {"players": ["Olena", "Taras"], "race": 3, "assign": "a1"})]
    _wait(lambda: club.on("fp/v1/t1/assigned"), club)
    reply = json.loads(club.on("fp/v1/t1/assigned")[0])
    assert reply["id"] == "a1" and reply["ok"] is True
    club.close()


def test_an_assign_the_table_did_not_run_busy_or_withdrawn_is_sent_again(broker, tmp_path):
    """Review of issue 21: a table that answers "busy" or "withdrawn" did not run the assign;
    recorded as taken, it was lost for good (a retained assign is skipped once taken)."""
    from scoreboard.mqtt import publisher as module

    answers = [(False, "busy: 4 of your commands wait for the table; send again later"),
               (False, "withdrawn: it waited too long for the table"),
               (True, "next match")]  # fmt: skip
    sent = []

    async def send_command(cmd, **args):
        sent.append(cmd)
        return answers[len(sent) - 1]

    club = Listener(broker, "fp/v1/t1/assigned")
    assign = {"id": "a2", "players": ["Olena", "Taras"], "race": 3}
    club.client.publish("fp/v1/t1/assign", json.dumps(assign), qos=1, retain=True)

    async def body():
        module.ASSIGN_RETRY_SECONDS = 0.01  # not slept on: the retry's own timer
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path, send_command=send_command)
        publisher.start()
        feed = Feed()
        task = asyncio.ensure_future(publisher.follow(feed))
        feed.put(state_message(match_lines(STARTED, pots=(1,))))
        await until(lambda: publisher.results.assigned == "a2", what="the assign taken")
        feed.close()
        await task
        publisher.stop()

    retry = module.ASSIGN_RETRY_SECONDS
    try:
        asyncio.run(body())
    finally:
        module.ASSIGN_RETRY_SECONDS = retry
    assert sent == ["setup", "setup", "setup"]
    _wait(lambda: club.on("fp/v1/t1/assigned"), club)
    assert [json.loads(m)["ok"] for m in club.on("fp/v1/t1/assigned")] == [True]
    club.close()


@pytest.mark.parametrize(
    "payload, reason",
    [
        (b"{", "not JSON"),
        (b"[]", "JSON object"),
        (b'{"players": []}', "'id'"),
        (b'{"id": "x", "colour": 1}', "unknown keys"),
    ],
)
def test_an_assign_the_table_cannot_read_is_answered_not_forwarded(payload, reason):
    with pytest.raises(topics.AssignError, match=reason):
        topics.parse_assign(payload)


def test_topics_split_back():
    assert topics.split("fp/v1/t1/result/20261203T100000Z") == (
        "t1",
        "result",
        ("20261203T100000Z",),
    )
    assert topics.split("fp/v2/t1/state") is None
    assert topics.split("fp/v1/t+/state") is None
    assert decoded([b"", b"1"]) == [None, 1]


def test_a_folder_that_refuses_the_record_does_not_stop_the_publisher(broker, tmp_path, caplog):
    """The record of acknowledged results cannot be written (here: a file stands where its
    folder should be): the finished match is published all the same, and said."""
    lines = closed(match_lines(STARTED))
    write_journal(tmp_path, lines)
    (tmp_path / "blocked").write_text("a file, not a folder")
    listener = Listener(broker, "fp/v1/t1/result/#")

    async def body():
        publisher = Publisher(
            mqtt_config(broker), state_dir=tmp_path, data_dir=tmp_path / "blocked" / "x"
        )
        publisher.start()
        await until(lambda: publisher.results_sent, what="the result sent")
        publisher.stop()

    asyncio.run(body())
    _wait(lambda: listener.on(f"fp/v1/t1/result/{MATCH_ID}"), listener)
    assert json.loads(listener.on(f"fp/v1/t1/result/{MATCH_ID}")[0])["confirmation"] == "confirmed"
    assert "cannot keep" in caplog.text
    listener.close()


def test_a_match_that_ended_before_the_first_publish_is_sent_while_it_is_the_tables(tmp_path):
    """`since` (the first publish) keeps old archives off the broker, not the match the
    table shows now: one that ended a second before the network side first started."""
    from scoreboard.mqtt.results import Results

    write_journal(tmp_path, closed(match_lines(STARTED)))
    old = Results("t1", tmp_path)
    old.since = "2999-01-01T00:00:00Z"  # as if the publisher first ran long after it ended
    assert [r["match_id"] for r in old.pending()] == [MATCH_ID]
    archive(tmp_path, closed(match_lines(STARTED)))
    assert old.pending() == []  # archived before the first publish: history, not sent


@pytest.mark.parametrize("how", ["confirmed", "timed-out"])
def test_the_match_just_finished_is_sent_only_once_its_players_closed_the_result(tmp_path, how):
    """Issue 34: while the players have not confirmed the result at the table (one press is
    not both), the match just finished is not the club's yet; closed, it is, saying how."""
    from scoreboard.core.confirmation import TIMED_OUT_COMMENT, confirm_line
    from scoreboard.mqtt.results import Results

    lines = match_lines(STARTED)
    write_journal(tmp_path, [*lines, confirm_line("B")])
    results = Results("t1", tmp_path)
    assert results.pending() == []
    # A presses too, or the time runs out without him
    write_journal(tmp_path, [confirm_line("A") if how == "confirmed" else TIMED_OUT_COMMENT])
    assert [(r["match_id"], r["confirmation"]) for r in results.pending()] == [(MATCH_ID, how)]


def test_an_assign_the_table_did_not_answer_in_time_is_never_sent_again():
    """Review of issue 20: a connected table that does not answer within the client's bound
    may still run the command; sending it again would set the match up twice. A table that
    went away is tried again when it is back."""
    from scoreboard.bridge.client import TableUnreachable
    from scoreboard.mqtt.publisher import bridge_sender

    class Table:  # as TableClient: connected, and its command raises what it raises
        connected = True

        async def command(self, cmd, **args):
            raise TableUnreachable("no answer in 5 s")

    ok, message = asyncio.run(bridge_sender(Table())("setup", players=["A", "B"]))
    assert not ok and message == "the table did not answer: no answer in 5 s"
    gone = Table()
    gone.connected = False
    with pytest.raises(ConnectionError):
        asyncio.run(bridge_sender(gone)("setup", players=["A", "B"]))
