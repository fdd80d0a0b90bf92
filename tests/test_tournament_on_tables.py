"""A tournament played on the tables by themselves, end to end with real parts (issue 22): two
real tables (the Appliance on gpiozero's mock pins, in simulated time, each with its own MQTT
publisher), a real Mosquitto, the club (its server's Club, its broker client, its database on
SQLite). The club sends each ready game to a free table; the players press and pot there; the
table's result moves the bracket on and the next game goes out; the champion is who the
tables' own match logs say won, recounted independently."""

import asyncio
import dataclasses

from bridge_helpers import table
from helpers import settle, until

from scoreboard import config as configuration
from scoreboard.bridge import socket_path
from scoreboard.bridge.client import TableClient
from scoreboard.club.broker import BrokerSettings, ClubClient
from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE, Bracket
from scoreboard.mqtt.publisher import serve
from scoreboard.store.history_rows import rows


def table_config(broker, name):
    cfg = configuration.default()
    mqtt = configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\ntable = "{name}"\n'
        "keepalive = 2\n"
    ).mqtt
    return dataclasses.replace(
        cfg, sensors=dataclasses.replace(cfg.sensors, source="gpio"), mqtt=mqtt
    )


def ball(a, pocket: int) -> None:
    pin = a.factory.pin(a.config.pins.pockets[pocket])
    pin.drive_low()
    settle(a, 0.04)
    pin.drive_high()
    settle(a, 0.05)


def play_to_the_end(a, winner: str) -> None:
    """The lag: `winner` breaks (A or B presses first); two balls: the frame and the match
    (race 1, target 2)."""
    pins = a.config.pins
    pin = pins.player_a if winner == "A" else pins.player_b
    a.factory.pin(pin).drive_low()
    settle(a, 0.1)
    a.factory.pin(pin).drive_high()
    settle(a, 0.1)
    ball(a, 0)
    ball(a, 1)


def test_a_tournament_is_played_on_two_tables_by_themselves(broker, tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, name) for name in ("Олена", "Тарас", "Ія", "Петро")]
    tid = tournaments.create(
        engine, "Friday", SINGLE, ids, settings={"race": 1, "target": 2}, draw_seed=2026
    )
    names = ("t1", "t2")
    tables = {n: table(tmp_path / n, table_config(broker, n)) for n in names}
    club = Club(book=ResultBook(tmp_path / "book"), database=engine)
    winners = {"W1-1": "B", "W1-2": "A", "W2-1": "A"}  # which side wins each game

    async def body():
        pumping = True

        async def pump():  # every table's loop, in simulated time, beside the network
            while True:
                if pumping:
                    for a in tables.values():
                        a.loop.run_pending()
                await asyncio.sleep(0.005)

        pump_task = asyncio.ensure_future(pump())
        clients, publishers = [], []
        for n, a in tables.items():
            client = TableClient(socket_path(tmp_path / n))
            client.start()
            clients.append(client)
            publishers.append(
                asyncio.ensure_future(serve(a.config, client, state_dir=tmp_path / n))
            )
        club_client = ClubClient(
            BrokerSettings(host="127.0.0.1", port=broker.port, keepalive=2),
            on_message=club.take,
            on_link=club.link,
        )
        club.client = club_client
        club_client.start()
        club.desk.start()
        await until(lambda: len(club.hall.tables) == 2 and club.linked, what="both tables")

        played = []
        while tournaments.load(engine, tid).bracket.champion() is None:
            # A table that has this tournament's assign and has taken it plays it out.
            def next_game():
                for n, a in tables.items():
                    view = club.hall.tables[n].view()
                    aid = (view.get("assign") or {}).get("id", "")
                    game = aid.split("-", 1)[1] if aid.startswith(f"T{tid}-") else None
                    if game and game not in played and a.app.match.phase == "lag":
                        names = a.app.match.snapshot()["players"]
                        if list(names.values()) == list(view["assign"]["players"]):
                            return n, game
                return None

            n, game = await until(next_game, what="a game at a table")
            pumping = False
            play_to_the_end(tables[n], winners[game])
            pumping = True
            played.append(game)
            await until(
                lambda game=game: game in tournaments.load(engine, tid).bracket.results,
                what=f"{game}'s result at the club",
            )

        t = tournaments.load(engine, tid)
        # The recount: each table's own archive and journal, the games by their assign ids.
        recount = Bracket(t.bracket.players, SINGLE)
        logged = {}
        for n in names:
            for row in rows(tmp_path / n):
                if (row.get("assign") or "").startswith(f"T{tid}-"):
                    logged[row["assign"].split("-", 1)[1]] = row["players"][row["winner"]]
        for game in recount.games:  # in the bracket's order: a game needs its players
            recount.record(game.id, logged[game.id])
        assert sorted(played[:2]) == ["W1-1", "W1-2"] and played[2] == "W2-1"
        assert t.bracket.champion() == recount.champion() is not None
        history = tournaments.history(engine, tid)
        assert {h["by"] for h in history} <= {"table t1", "table t2"} and len(history) == 3

        pump_task.cancel()
        club_client.stop()
        for task in publishers:
            task.cancel()
        for client in clients:
            await client.close()

    try:
        asyncio.run(body())
    finally:
        for a in tables.values():
            a.close()
