"""Issue 22's Done-when, `make tournament-test` (not in `make test`: it takes minutes): a
32-player double elimination played end to end by 8 tables, each its own OS process
(tests/table_process.py: the Appliance on mock pins, its journal on disk, its publisher),
through a real Mosquitto and a real `scoreboard club` process on SQLite and on PostgreSQL.
Games are played at once on the tables, the winners by a seeded RNG. On the way: a table's
power cut between two balls (SIGKILL, started again on its state folder), the broker stopped
for two minutes while the tables play on, the club killed and started again mid-round. After
each match its players confirm the result at the table (issue 34), but at two tables, where
they walk away and the result goes once its time (10 s there) has run out; one game's winning
ball is taken back by a FOUL within its stroke's window (GR-22.3) before the players confirm,
and its other player wins it; one table has a breaker chosen at the table (phase `break`,
nothing played) before its first game, and must be sent one all the same. The standings must
be the recount of the tables' own match logs, every result on the club's export must verify
against the tables' keys (`scoreboard verify`), and a forged result is refused and said.
Printed: the time from a game's winning ball to its table's next assign, confirmed and timed
out (the time-out's own `confirm_result` is simulated time here, so it is left out)."""

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from helpers import until
from mqtt_table import approve_table_keys
from test_tournament_on_tables import booked, confirmations, recount

from scoreboard.club.results import ResultBook
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import DOUBLE
from scoreboard.store.history_rows import rows

HERE = Path(__file__).parent
TABLES = [f"t{n}" for n in range(1, 9)]
# The tables where the players leave without confirming the result: it times out there, after
# the shortest `[timings] confirm_result` (simulated time: the test lets it pass).
WALK_AWAY = {"t7": 10.0, "t8": 10.0}
FIXED_BREAKER = "t6"  # A pressed "I break" there before the tournament's first game
OUTAGE = float(os.environ.get("TOURNAMENT_OUTAGE", "120"))  # the broker away, seconds
STALL = 120.0  # no game started or ended for this long (real processes, a loaded machine): stuck


def say(what: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {what}", file=sys.stderr, flush=True)


class Table:
    def __init__(self, folder: Path, port: int, name: str):
        self.folder, self.port, self.name = folder, port, name
        self.start()

    def start(self) -> None:
        confirm = [str(WALK_AWAY[self.name])] if self.name in WALK_AWAY else []
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "table_process.py"), str(self.folder), str(self.port)]
            + [self.name, *confirm],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.folder.parent / f"{self.name}.log", "ab"),  # noqa: SIM115
            cwd=HERE,
            text=True,
        )
        assert self.process.stdout.readline().strip() == "ready"

    async def do(self, line: str) -> None:
        def run():
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
            assert self.process.stdout.readline().strip() == "ok", f"{self.name}: {line}"

        await asyncio.to_thread(run)

    def cut(self) -> None:
        self.process.kill()
        self.process.wait()
        self.start()

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


class Club:
    def __init__(self, folder: Path, broker_port: int, url: str):
        self.folder, self.broker_port, self.url = folder, broker_port, url
        self.port = None
        self.start()

    def start(self) -> None:
        from helpers import free_port

        self.port = free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scoreboard", "club", "--broker", "127.0.0.1"]
            + ["--broker-port", str(self.broker_port), "--listen", "127.0.0.1"]
            + ["--port", str(self.port), "--data-dir", str(self.folder / "club")]
            + ["--database", self.url],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "club.log", "ab"),  # noqa: SIM115
        )

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()


async def get(http, club: Club, path: str):
    for _ in range(3000):
        try:
            async with http.get(f"http://127.0.0.1:{club.port}{path}") as r:
                if r.status == 200:
                    return await r.json()
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.1)
    raise AssertionError(f"the club does not answer {path}")


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
def test_32_players_double_elimination_on_8_table_processes(broker, tmp_path, database_url):
    engine = open_database(database_url)
    ids = [players.add(engine, f"Player{n:02d}") for n in range(1, 33)]
    tid = tournaments.create(
        engine, "Issue 22", DOUBLE, ids, settings={"race": 1, "target": 2}, draw_seed=22
    )
    say(f"32 players, double elimination, tournament {tid} on {database_url.split(':')[0]}")
    tables = {n: Table(tmp_path / n, broker.port, n) for n in TABLES}
    # A table set up with a fixed breaker and nothing played: free all the same (issue 34).
    asyncio.run(tables[FIXED_BREAKER].do("press A"))
    asyncio.run(tables[FIXED_BREAKER].do("wait 2"))
    approve_table_keys(engine, {n: tmp_path / n for n in TABLES})  # issue 34: the staff's word
    club = Club(tmp_path, broker.port, database_url)
    say("8 table processes and the club started")
    rng = random.Random(22)
    played: list[str] = []  # games whose last ball is in, in that order
    closed: dict[str, str] = {}  # each game's result: confirmed, or timed out
    playing: dict[str, asyncio.Task] = {}  # table -> its game being played
    faults = {"cut": False, "broker": False, "club": False}

    ended: dict[str, tuple[float, str]] = {}  # table -> (its last winning ball, how closed)
    waits: dict[str, list[float]] = {"confirmed": [], "timed-out": []}
    corrected: list[str] = []  # the game whose winning ball a late FOUL took back

    async def play(n: str, game: str, cut: bool) -> None:
        side = rng.choice("AB")
        # The players come to the table (the table's time is simulated: it moves only with
        # what the test does there; a press within 0.5 s of the last is "one button at a time").
        await tables[n].do("wait 2")
        # A match's id over MQTT is the second it was set up (mqtt/results.py): two matches
        # set up at one table within one second of real time would share it, which no real
        # table does (the club's book keys results by it: the export found one of the two).
        await asyncio.sleep(1.1)
        await tables[n].do(f"press {side}")
        await tables[n].do("ball 0")
        if cut:
            say(f"power cut at {n} mid-match ({game}), started again on its journal")
            await asyncio.to_thread(tables[n].cut)
        await tables[n].do("ball 1")  # 2:0 on the break: the match is over
        if not corrected and n not in WALK_AWAY and len(played) >= 3:
            # GR-22.3: the break was a foul after all, pressed within its stroke's window: its
            # balls are spotted, the other player has the penalty point, chooses to play, and
            # (past the penalty ball's 8 s) pots the ball that wins him the match.
            corrected.append(game)
            other = "B" if side == "A" else "A"
            await tables[n].do("press foul")
            await tables[n].do(f"press {other}")
            await tables[n].do("wait 9")
            await tables[n].do("ball 2")
            say(f"{game} at {n}: the winning ball taken back by a late FOUL, {other} won it")
        played.append(game)
        ended[n] = (time.monotonic(), "timed-out" if n in WALK_AWAY else "confirmed")
        if n in WALK_AWAY:  # nobody confirms: the result goes when its time has run out
            await tables[n].do(f"wait {WALK_AWAY[n] + 1}")
            closed[game] = "timed-out"
        else:  # both players confirm the result, each with his own button (issue 34)
            await tables[n].do("press A")
            await tables[n].do("press B")
            closed[game] = "confirmed"

    async def body():
        progress, moved = (0, 0), time.monotonic()
        async with aiohttp.ClientSession() as http:
            while True:
                if (len(played), len(playing)) != progress:
                    progress, moved = (len(played), len(playing)), time.monotonic()
                assert time.monotonic() - moved < STALL, (
                    f"the tournament stalls after {len(played)} games ({sorted(played)})"
                )
                t = await get(http, club, f"/api/tournaments/{tid}")
                if t["champion"] is not None:
                    break
                decided = {g["id"] for g in t["games"] if g["winner"]}
                hall = await get(http, club, "/api/tables")
                for view in hall["tables"]:
                    n, assign = view["table"], view.get("assign") or {}
                    if not assign.get("id", "").startswith(f"T{tid}-") or n in playing:
                        continue
                    game = assign["id"].split("-", 1)[1]
                    if game in decided or game in played:
                        continue
                    if n in ended and faults["broker"] != "away":
                        last, how = ended.pop(n)  # its next game's assign has come
                        waits[how].append(time.monotonic() - last)
                    if view["phase"] != "lag":
                        continue
                    if view["players"] is None or list(view["players"].values()) != [
                        p.replace(" ", "_") for p in assign["players"]
                    ]:
                        continue  # the table has not set the match up yet
                    cut = not faults["cut"] and len(played) >= 6
                    faults["cut"] |= cut
                    playing[n] = asyncio.ensure_future(play(n, game, cut))
                for n, task in list(playing.items()):
                    if task.done():
                        task.result()
                        del playing[n]
                if not faults["broker"] and len(played) >= 12 and len(playing) >= 2:
                    faults["broker"] = "away"
                    say(f"the broker stopped for {OUTAGE:.0f} s; {len(playing)} games play on")
                    broker.stop()
                    await asyncio.gather(*playing.values())
                    await asyncio.sleep(OUTAGE)
                    broker.start()
                    ended.clear()  # those games' waits are the broker's, not the table's
                    faults["broker"] = True
                    moved = time.monotonic()
                    say("the broker back: the results waiting on the tables go to the club")
                if not faults["club"] and len(played) >= 30 and playing:
                    faults["club"] = True
                    say(f"the club killed mid-round ({len(playing)} games in play), started again")
                    await asyncio.to_thread(club.kill)
                    club.start()
                await asyncio.sleep(0.2)
            await asyncio.gather(*playing.values())

    started = time.monotonic()
    try:
        asyncio.run(body())
        say(f"champion known after {len(played)} games, {time.monotonic() - started:.0f} s")
        t = tournaments.load(engine, tid)
        again = recount(tmp_path, TABLES, tid, t.bracket.players, DOUBLE)
        assert all(faults.values()), faults
        assert t.bracket.standings() == again.standings(), (
            "the club's standings are not the recount of the tables' own match logs"
        )
        assert t.bracket.champion() == again.champion() is not None
        assert len(played) in (62, 63) and len(set(played)) == len(played), "a game played twice"
        assert len(tournaments.history(engine, tid)) == len(played), "a result recorded twice"
        assert confirmations(tmp_path, TABLES, tid) == closed, "not closed as the players did"
        assert "timed-out" in closed.values() and "confirmed" in closed.values()
        fixed = [r for r in rows(str(tmp_path / FIXED_BREAKER)) if r.get("assign")]
        assert fixed, "the table with a breaker chosen and nothing played was never sent a game"
        assert corrected and confirmations(tmp_path, TABLES, tid)[corrected[0]] == "confirmed"
        asyncio.run(signed_and_forged(tmp_path, club, broker, engine, tid))
        for how, seconds in waits.items():
            if seconds:
                say(
                    f"winning ball -> next assign at that table, {how} ({len(seconds)} games): "
                    f"median {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
                    + (" (+ the confirm_result that ran out)" if how == "timed-out" else "")
                )
        book = booked(ResultBook(tmp_path / "club"), tid)
        assert book and book.items() <= closed.items(), "the club's book has it otherwise"
        say(
            "the standings equal the recount from the tables' match logs; each game once; "
            f"{list(closed.values()).count('timed-out')} results timed out, the rest confirmed"
        )
    finally:
        for table in tables.values():
            table.process.kill()
        club.kill()
        engine.dispose()


async def signed_and_forged(tmp_path, club, broker, engine, tid) -> None:
    """Every table's result on the club's export verifies against the tables' keys
    (`scoreboard verify`); a result forged in a table's name is refused, and said."""
    from paho.mqtt import publish

    from scoreboard.cli import main as scoreboard
    from scoreboard.clubdb import table_keys

    async with aiohttp.ClientSession() as http:
        export = await get(http, club, f"/api/tournaments/{tid}/export.json")
        async with http.get(f"http://127.0.0.1:{club.port}/table-keys.txt") as response:
            keys = await response.text()
    (tmp_path / "export.json").write_text(json.dumps(export), encoding="utf-8")
    (tmp_path / "keys.txt").write_text(keys, encoding="utf-8")
    verify = [str(tmp_path / "export.json"), "--keys", str(tmp_path / "keys.txt")]
    assert scoreboard(["verify", *verify]) == 0, "a table's result on the export did not verify"
    say("scoreboard verify: every signed result on the export verifies")
    # A result in t1's name, its winner changed, its signature kept: refused.
    signed = next(g["result"] for g in export["games"] if (g.get("result") or {}).get("table"))
    forged = dict(
        signed, match_id="20990101T000000Z", winner="B" if signed["winner"] == "A" else "A"
    )
    topic = f"fp/v1/{forged['table']}/result/{forged['match_id']}"
    publish.single(topic, json.dumps(forged), qos=1, retain=True, port=broker.port)
    await until(
        lambda: any(
            n["match_id"] == forged["match_id"] and n["reason"] == "signature did not verify"
            for n in table_keys.not_taken_listed(engine)
        ),
        what="the forged result refused",
    )
    say("a forged result refused: signature did not verify")
