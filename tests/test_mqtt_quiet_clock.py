"""Issue 20 against a real Mosquitto: the club's observers get the match's data only. While a
shot clock runs its 30 s with nothing else happening, the screens change every second but the
broker delivers no `state` and no `faults` publish; a ball that changes the score is one `state`.

The real appliance (mock pins, simulated time) serves its socket; the network side's
TableClient and publisher (`serve`) follow it; a paho client that subscribes to the table's
topics counts what the broker delivers after the retained ones. Nothing sleeps on the wall
clock for table time: the table's ManualClock is moved in small steps, the network side
running between them. The window ends with a marker, not a wait: a ball after it is an
`event` and a `state` from the same client at QoS 1, delivered in the order sent, so once they
are in, everything the 30 s published is in, and the count is final.
"""

import asyncio
import dataclasses
import json

from bridge_helpers import table
from broker import Listener
from helpers import press, settle, until
from mqtt_table import table_config

from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.mqtt import topics
from scoreboard.mqtt.publisher import serve

TABLE = "t1"
STATE = topics.topic(TABLE, topics.STATE)
FAULTS = topics.topic(TABLE, topics.FAULTS)
EVENT = topics.topic(TABLE, topics.EVENT)
WINDOW = 30.0  # seconds of simulated time with only the shot clock running
STEP = 0.01  # the table's loop runs every STEP of simulated time in the window


def quiet_clock_config(broker):
    """The table on gpio pocket sensors, publishing to `broker`, a 60 s shot clock."""
    cfg = table_config(broker, TABLE)
    return dataclasses.replace(cfg, shot_clock=dataclasses.replace(cfg.shot_clock, seconds=60.0))


class Screens:
    """An observer of the app beside the bridge: each shot clock value the screens showed."""

    def __init__(self):
        self.shot_clock: list[int] = []

    def shown(self, shown) -> None:
        clock = shown.snapshot.get("shot_clock")
        if clock is not None:
            self.shot_clock.append(clock["left"])

    def written(self, lines, first) -> None:
        pass

    def pairing_asked(self) -> None:
        pass


def ball(a, pocket=0):
    """A ball through a pocket's beam (gpio sensors), as test_appliance drives it."""
    pin = a.factory.pin(a.config.pins.pockets[pocket])
    pin.drive_low()
    settle(a, 0.04)
    pin.drive_high()
    settle(a, 0.05)


def live(listener, topic) -> list[dict]:
    """The publishes on `topic` the broker delivered as they happened (not retained ones)."""
    return [json.loads(p) for t, p, kept in list(listener.messages) if t == topic and not kept]


def test_a_running_shot_clock_publishes_no_state_and_no_faults_a_score_does(broker, tmp_path):
    config = quiet_clock_config(broker)
    a = table(tmp_path, config)
    screens = Screens()
    a.app.observers.append(screens)
    club = Listener(broker, f"fp/v1/{TABLE}/#")
    observer = None

    def last_state():
        payloads = club.on(STATE)
        return json.loads(payloads[-1]) if payloads else None

    async def body():
        nonlocal observer

        async def pump():  # the table's loop, in simulated time, beside the network side
            while True:
                a.loop.run_pending()
                await asyncio.sleep(0.005)

        pumping = asyncio.ensure_future(pump())
        client = TableClient(socket_path(tmp_path))
        client.start()
        publishing = asyncio.ensure_future(serve(config, client, state_dir=tmp_path))
        await until(lambda: last_state(), what="the table's first state on the broker")

        pumping.cancel()
        press(a, config.pins.player_a)  # lag: A breaks
        settle(a, 1.0)  # one button at a time
        press(a, config.pins.player_b)  # a miss: B at the table, his shot clock runs
        snapshot = a.app.shown.snapshot
        assert snapshot["phase"] == "play" and snapshot["striker"] == "B"
        assert snapshot["shot_clock"]["left"] == 60
        pumping = asyncio.ensure_future(pump())
        await until(
            lambda: (s := last_state()) and (s["phase"], s["striker"]) == ("play", "B"),
            what="B at the table on the broker",
        )
        pumping.cancel()

        # The club's observer comes now: the table's retained state and faults, then nothing.
        observer = Listener(broker, STATE, FAULTS, EVENT)
        await until(lambda: len(observer.messages) >= 2, what="the retained state and faults")
        assert sorted((t, r) for t, _, r in observer.messages) == [(FAULTS, True), (STATE, True)]
        retained = json.loads(observer.on(STATE)[0])
        assert (retained["phase"], retained["striker"]) == ("play", "B")
        score = retained["score"]

        # 30 s of the shot clock, nothing else: the table's loop every STEP, the socket and the
        # publisher running between.
        ticks_before = len(screens.shot_clock)
        for _ in range(round(WINDOW / STEP)):
            a.clock.advance(STEP)
            a.loop.run_pending()
            await asyncio.sleep(0)
        left = screens.shot_clock[ticks_before:]
        assert left[-1] == 30 and len(left) >= 30, left  # the screens ticked every second
        assert a.app.shown.snapshot["phase"] == "play"  # and nothing else happened

        # The positive control and the end of the window: B pots a ball, then, as a new shot,
        # another. Each is an `event` (its journal line), then the new state.
        for n in (1, 2):
            ball(a)
            assert a.app.shown.snapshot["score"] == {**score, "B": score["B"] + n}
            pumping = asyncio.ensure_future(pump())
            await until(
                lambda n=n: any(s["score"]["B"] == score["B"] + n for s in live(observer, STATE)),
                what=f"ball {n}'s state",
            )
            pumping.cancel()
            settle(a, 8.0)  # past the shot's pause and the hint: the next ball is a new shot

        # What the broker delivered, in order: one client's QoS 1 publishes arrive in the order
        # they were sent, so all that came before ball 1's event is the 30 s of the clock.
        arrived = [(t, json.loads(p)) for t, p, retained in list(observer.messages) if not retained]
        events = [i for i, (t, _) in enumerate(arrived) if t == EVENT]
        assert [arrived[i][1]["line"] for i in events] == ["shot pots=1", "shot pots=1"], arrived
        window = [t for t, _ in arrived[: events[0]]]
        assert window.count(STATE) == 0, f"{window.count(STATE)} state publishes in the 30 s"
        assert window.count(FAULTS) == 0, f"{window.count(FAULTS)} faults publishes in the 30 s"
        # Each ball exactly one state (ball 2's state fences ball 1's: one topic keeps its
        # order); faults at most once with it.
        for n, (begin, end) in enumerate(zip(events, [*events[1:], len(arrived)], strict=True), 1):
            after = arrived[begin + 1 : end]
            states = [m for t, m in after if t == STATE]
            assert [s["score"]["B"] for s in states] == [score["B"] + n], (n, after)
            assert [t for t, _ in after].count(FAULTS) <= 1, (n, after)
        assert all("shot_clock" not in m for t, m in arrived if t == STATE)
        assert "shot_clock" not in retained

        publishing.cancel()
        await client.close()

    try:
        asyncio.run(body())
    finally:
        club.close()
        if observer is not None:
            observer.close()
        a.close()
