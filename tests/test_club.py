"""`scoreboard club` (issue 12): the hall's views, the result book, and the whole path with
real parts: tables publishing through a real Mosquitto, the club's paho client, its aiohttp
server read over HTTP and Server-Sent Events; the staff's assign reaching a table."""

import asyncio
import base64
import json
import os
import re
import signal
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer
from helpers import until
from mqtt_table import Feed, closed, match_lines, state_message, write_journal

from scoreboard import config as configuration
from scoreboard.club.broker import BrokerSettings, ClubClient
from scoreboard.club.hall import Hall
from scoreboard.club.results import BadResult, ResultBook
from scoreboard.club.server import Club, assign_settings
from scoreboard.mqtt.publisher import Publisher

STARTED = "2026-12-03T10:00:00Z"
TESTS = Path(__file__).parent


def table_config(broker, table, keepalive=2):
    return configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
        f'table = "{table}"\nkeepalive = {keepalive}\nname = "Table {table[1:]}"\n'
    )


# -- the hall, pure ----------------------------------------------------------------------------
def test_a_table_is_offline_faulty_idle_or_playing():
    hall = Hall()
    snap = json.dumps(state_message(match_lines(STARTED, pots=(3,)))["state"]).encode()
    assert hall.take("fp/v1/t1/state", snap, now=1.0) == ("t1", None)
    assert hall.tables["t1"].view()["status"] == "playing"
    hall.take("fp/v1/t1/faults", b'{"faults": [{"kind": "board-lost"}], "updated": "x"}', now=2)
    assert hall.tables["t1"].view()["status"] == "fault"
    assert hall.tables["t1"].view()["faults"] == ["board-lost"]
    hall.take("fp/v1/t1/availability", b"offline", now=3)
    assert hall.tables["t1"].view()["status"] == "offline"
    assert hall.tables["t1"].view()["received"] == 3
    over = json.dumps(state_message(match_lines(STARTED))["state"]).encode()
    hall.take("fp/v1/t2/state", over, now=4)
    assert hall.tables["t2"].view()["status"] == "idle"  # the match is over
    assert [v["table"] for v in hall.views()] == ["t1", "t2"]


def test_a_bad_payload_or_topic_changes_nothing():
    hall = Hall()
    assert hall.take("fp/v1/t1/state", b"{not json", now=1) == (None, None)
    assert hall.take("other/topic", b"{}", now=1) == (None, None)
    assert hall.take("fp/v1/t1/unknown", b"{}", now=1) == (None, None)
    assert hall.take("fp/v1/t1/result/x1", b'{"players": 1}', now=1)[1]["match_id"] == "x1"


def test_a_payload_nested_too_deep_or_with_nan_is_passed_over_never_a_crash():
    """Issue 21: a table's own credentials may publish anything under its topics."""
    hall = Hall()
    deep = b"[" * 30_000 + b"]" * 30_000
    assert hall.take("fp/v1/t1/state", deep, now=1) == (None, None)
    assert hall.take("fp/v1/t1/state", b'{"score": {"A": NaN, "B": 0}}', now=1) == (None, None)
    assert hall.take("fp/v1/t1/result/x1", deep, now=1) == (None, None)


# -- the result book ---------------------------------------------------------------------------
def result(table="t1", mid="20261203T100000Z", winner="A", ended="2026-12-03T11:00:00Z"):
    return {
        "table": table,
        "match_id": mid,
        "players": {"A": "Olena", "B": "Taras"},
        "race": 1,
        "target": 8,
        "finished": True,
        "winner": winner,
        "frames": {"A": 1, "B": 0} if winner == "A" else {"A": 0, "B": 1},
        "frame_scores": [[8, 0]] if winner == "A" else [[0, 8]],
        "last_frame": [8, 0],
        "fouls": {"A": {}, "B": {"push": 1}},
        "longest_run": {"A": 5, "B": 0},
        "started": "2026-12-03T10:00:00Z",
        "ended": ended,
    }


def test_each_result_is_kept_once_and_a_changed_one_replaces_it(tmp_path):
    book = ResultBook(tmp_path)
    assert book.add(result()) is True
    assert book.add(result()) is False  # a retained copy again, or a QoS 1 resend
    assert book.add(result(ended="2026-12-03T11:05:00Z")) is False  # archived later: the same
    assert book.add(result(table="t2")) is True
    assert book.add(result(winner="B")) is True  # UNDO at the table, another end
    again = ResultBook(tmp_path)  # the club restarted
    rows = again.csv(date(2026, 12, 3)).splitlines()
    assert len(rows) == 3, rows
    assert rows[0].startswith("table,match_id,started,ended,player_a,player_b,finished,winner")
    assert sorted(r.split(",")[0] for r in rows[1:]) == ["t1", "t2"]
    assert ",Taras," in rows[1] + rows[2]  # t1's winner is now B
    assert again.csv(date(2026, 12, 4)).count("\n") == 1  # another day: the header alone


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r.pop("players"),
        lambda r: r.update(players={"A": ["<img>"], "B": "Taras"}),
        lambda r: r.update(ended=20261203),
        lambda r: r.update(winner="C"),
        lambda r: r.update(frames="1:0"),
        lambda r: r.update(frame_scores=[8]),
    ],
)
def test_a_bad_result_is_refused_said_and_never_poisons_the_book(tmp_path, spoil):
    """Issue 21: one retained result without `players` made /results.csv answer 500 for the
    whole day, also after a restart (the bad line was kept)."""
    book = ResultBook(tmp_path)
    book.add(result(table="t2"))
    bad = result()
    spoil(bad)
    with pytest.raises(BadResult):
        book.add(bad)
    day = date(2026, 12, 3)
    assert book.csv(day).count("\n") == 2  # the header and t2's
    with open(tmp_path / "results-2026-12-03.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(bad) + "\n")  # as an older club kept it
    again = ResultBook(tmp_path)
    assert again.csv(day).count("\n") == 2


def test_the_api_doc_lists_the_columns_results_csv_writes(tmp_path):
    doc = (TESTS.parent / "docs" / "API.md").read_text(encoding="utf-8")
    listed = re.search(r"/results\.csv.*?the columns\s+`([a-z_,]+)`", doc, re.S)
    assert listed, "docs/API.md: the columns of /results.csv, as one `a,b,c` list"
    book = ResultBook(tmp_path)
    book.add(result())
    header = book.csv(date(2026, 12, 3)).splitlines()[0]
    assert listed.group(1) == header


@pytest.mark.parametrize(
    "form, reason",
    [
        ({"players": ["A"]}, "two names"),
        ({"players": ["Olena", "olena"]}, "different"),
        ({"players": ["O#", "T"]}, "'#'"),
        ({"players": ["O", "T"], "race": 0}, "race"),
        ({"players": ["O", "T"], "target": 9}, "target"),
        ({"players": ["O", "T"], "breaker": "C"}, "breaker"),
        ({"players": ["O", "T"], "options": {"jumped-ball": "maybe"}}, "options"),
        ({"players": ["O", "T"], "options": {"colour": "red"}}, "options"),
    ],
)
def test_the_staffs_form_is_checked_as_the_table_would(form, reason):
    with pytest.raises(ValueError, match=reason):
        assign_settings(form)


def test_a_good_form_is_the_setup_commands_settings():
    form = {"players": [" Olena ", "Taras"], "race": 3, "options": {"jumped-ball": "spot"}}
    assert assign_settings(form) == {
        "players": ["Olena", "Taras"],
        "race": 3,
        "options": {"jumped-ball": "spot"},
    }


# -- the staff's writes ------------------------------------------------------------------------
STAFF = {"Authorization": "Basic c3RhZmY6Y3Vl"}  # staff:cue
FORM = {"players": ["Olena", "Taras"], "race": 3}


async def staff_client(tmp_path, staff="cue") -> TestClient:
    """The club's server alone (no broker: a write that passes every check gets 503)."""
    http = TestClient(TestServer(Club(book=ResultBook(tmp_path), staff_password=staff).app()))
    await http.start_server()
    return http


def own_origin(http: TestClient) -> dict:
    return {"Origin": f"http://{http.host}:{http.port}"}


def test_the_clubs_pages_have_an_icon(tmp_path):
    async def body():
        http = await staff_client(tmp_path)
        try:
            response = await http.get("/favicon.ico")
            assert response.status == 200 and response.content_type == "image/png"
        finally:
            await http.close()

    asyncio.run(body())


def test_a_staff_write_without_the_clubs_own_origin_is_403_as_at_the_table(tmp_path):
    async def body():
        http = await staff_client(tmp_path)
        try:
            url = "/api/tables/t1/assign"
            for other in (None, "null", "http://evil.example", f"http://{http.host}:1"):
                headers = {**STAFF, **({"Origin": other} if other else {})}
                for method in ("POST", "DELETE"):
                    response = await http.request(method, url, json=FORM, headers=headers)
                    assert response.status == 403, (method, other)
                    assert "club's own page" in await response.text()
            own = {**STAFF, **own_origin(http)}
            assert (await http.post(url, json=FORM, headers=own)).status == 503  # all checks passed
        finally:
            await http.close()

    asyncio.run(body())


def test_without_a_staff_password_nobody_sets_up_a_match(tmp_path):
    async def body():
        http = await staff_client(tmp_path, staff="")
        try:
            for method in ("POST", "DELETE"):
                response = await http.request(
                    method, "/api/tables/t1/assign", json=FORM, headers=own_origin(http)
                )
                assert response.status == 403, method
                assert "--staff-password-file" in await response.text()
            assert (await http.get("/api/tables")).status == 200  # the hall's reads stay open
        finally:
            await http.close()

    asyncio.run(body())


def test_staff_writes_take_user_staff_lock_after_five_wrong_and_check_the_host(tmp_path):
    """Issue 21: 2,501 password guesses a second, any user name, any Host were taken."""

    def basic(user, password):
        return {
            "Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        }

    async def body():
        clock = [1000.0]
        club = Club(book=ResultBook(tmp_path), staff_password="cue", clock=lambda: clock[0])
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            url = "/api/tables/t1/assign"

            async def status(auth, **extra):
                headers = {**auth, **own_origin(http), **extra}
                return (await http.post(url, json=FORM, headers=headers)).status

            assert await status(basic("staff", "cue")) == 503  # every check passed (no broker)
            assert await status(basic("admin", "cue")) == 401  # another user: a wrong guess
            rebound = {"Host": "evil.example:8090", "Origin": "http://evil.example:8090"}
            assert await status(basic("staff", "cue"), **rebound) == 403  # DNS rebinding
            for guess in ("a", "b", "c"):
                assert await status(basic("staff", guess)) == 401
            assert await status(basic("staff", "e")) == 401  # the fifth wrong one locks
            assert await status(basic("staff", "cue")) == 429  # the right one too, for a minute
            clock[0] += 61
            assert await status(basic("staff", "cue")) == 503
        finally:
            await http.close()

    asyncio.run(body())


# -- the whole path ----------------------------------------------------------------------------
class Running:
    """Tables (publishers) and the club on one asyncio loop, a real broker between them."""

    def __init__(self, broker, tmp_path, *, staff="", database=None):
        self.broker, self.tmp = broker, tmp_path
        self.book = ResultBook(tmp_path / "club")
        self.club = Club(book=self.book, staff_password=staff, database=database)
        settings = BrokerSettings(host="127.0.0.1", port=broker.port, keepalive=2)
        self.client = ClubClient(settings, on_message=self.club.take, on_link=self.club.link)
        self.club.client = self.client
        self.tables: dict[str, tuple[Publisher, Feed]] = {}
        self.sent: list = []

    async def __aenter__(self):
        self.client.start()
        self.http = TestClient(TestServer(self.club.app()))
        await self.http.start_server()
        await until(lambda: self.club.linked, what="the club to connect")
        return self

    async def __aexit__(self, *exc):
        for publisher, feed in self.tables.values():
            feed.close()
            publisher.stop()
        await self.http.close()
        self.client.stop()

    def table(self, table: str, lines: list[str]) -> Publisher:
        async def send_command(cmd, **args):
            self.sent.append((table, cmd, args))
            return True, "next match"

        state_dir = self.tmp / table
        state_dir.mkdir(exist_ok=True)
        publisher = Publisher(
            table_config(self.broker, table), state_dir=state_dir, send_command=send_command
        )
        feed = Feed()
        publisher.start()
        asyncio.ensure_future(publisher.follow(feed))
        feed.put(state_message(lines))
        self.tables[table] = (publisher, feed)
        return publisher

    def view(self, table: str) -> dict | None:
        t = self.club.hall.tables.get(table)
        return t and t.view()


def test_the_hall_shows_every_table_and_follows_each_change(broker, tmp_path):
    async def body():
        async with Running(broker, tmp_path) as run:
            for n in range(1, 4):
                run.table(f"t{n}", match_lines(STARTED, f"A{n}", f"B{n}", pots=(n,)))
            await until(lambda: len(run.club.hall.tables) == 3, what="three tables")
            await until(
                lambda: all((run.view(f"t{n}") or {}).get("score") for n in range(1, 4)),
                what="their scores",
            )
            response = await run.http.get("/api/tables")
            hall = await response.json()
            assert [t["table"] for t in hall["tables"]] == ["t1", "t2", "t3"]
            assert [t["score"]["A"] for t in hall["tables"]] == [1, 2, 3]
            assert hall["tables"][1]["name"] == "Table 2"
            assert hall["tables"][1]["players"] == {"A": "A2", "B": "B2"}

            # A page following the events gets the hall, then t2's next shot.
            events = await run.http.get("/api/events")
            first = json.loads((await events.content.readline()).decode()[len("data: ") :])
            assert first["type"] == "hall" and len(first["tables"]) == 3
            publisher, feed = run.tables["t2"]
            feed.put(state_message(match_lines(STARTED, "A2", "B2", pots=(2, 4))))
            while True:
                line = (await events.content.readline()).decode()
                if line.startswith("data: "):
                    message = json.loads(line[len("data: ") :])
                    t = message.get("table")
                    if message["type"] == "table" and t["table"] == "t2" and t["score"]["A"] == 6:
                        break  # (its faults' new time came first: a change too)
            events.close()

            page = await run.http.get("/")
            assert "All tables" in await page.text()
            overlay = await run.http.get("/table/t2/overlay")
            assert overlay.status == 200
            assert (await run.http.get("/table/t%2B/overlay")).status == 404

    asyncio.run(body())


def test_the_staff_set_the_next_match_and_the_table_takes_it(broker, tmp_path):
    async def body():
        async with Running(broker, tmp_path, staff="cue") as run:
            run.table("t1", match_lines(STARTED, pots=(1,)))
            await until(lambda: run.view("t1"), what="the table")
            form = {"players": ["Olena", "Taras"], "race": 3, "target": 8, "breaker": "A"}
            url = "/api/tables/t1/assign"
            no_password = await run.http.post(url, json=form, headers=own_origin(run.http))
            assert no_password.status == 401
            auth = {**STAFF, **own_origin(run.http)}
            other = {**auth, "Origin": "http://evil.example"}
            assert (await run.http.post(url, json=form, headers=other)).status == 403
            bad = await run.http.post(url, json={"players": ["x"]}, headers=auth)
            assert bad.status == 400
            good = await run.http.post(url, json=form, headers=auth)
            assert good.status == 200
            await until(lambda: run.sent, what="the table to be sent the assign")
            assign_id = (await good.json())["assign"]["id"]  # which the result carries back
            assert run.sent == [("t1", "setup", {**form, "assign": assign_id})]
            await until(
                lambda: ((run.view("t1") or {}).get("assign") or {}).get("answer"),
                what="the table's answer on the hall",
            )
            assert run.view("t1")["assign"]["answer"]["ok"] is True

    asyncio.run(body())


def test_broker_killed_and_restarted_state_and_results_arrive_once(broker, tmp_path):
    """The broker dies mid-match; the match ends while it is down; it comes back (same port,
    its database): the club shows the final state and has the result exactly once."""
    lines = match_lines(STARTED, pots=(3,))

    async def body():
        async with Running(broker, tmp_path) as run:
            publisher = run.table("t1", lines)
            await until(lambda: (run.view("t1") or {}).get("score"), what="the table")
            broker.kill()
            await until(lambda: not publisher.connected and not run.club.linked, what="loss")
            # The last ball, then both players confirm the result (issue 34): the app's
            # journal, before it shows; only the closed result is sent.
            final = closed(match_lines(STARTED, pots=(3, 5)))
            write_journal(tmp_path / "t1", final)
            run.tables["t1"][1].put(state_message(final))
            await until(lambda: publisher.state["phase"] == "match-over", what="the end")
            broker.start()
            await until(lambda: run.book.by_key, what="the result at the club")
            await until(lambda: run.view("t1")["score"] == {"A": 8, "B": 0}, what="state")
            await until(lambda: publisher.results.acked, what="the PUBACK")
            assert run.view("t1")["status"] == "idle"
            assert len(run.book.by_key) == 1
            assert next(iter(run.book.by_key.values()))["confirmation"] == "confirmed"
            assert publisher.results_sent == 1  # paho's own resend, not ours as well
            response = await run.http.get("/results.csv", params={"day": _day(run)})
            rows = (await response.text()).splitlines()
            assert len(rows) == 2 and rows[1].startswith("t1,20261203T100000Z,")

    asyncio.run(body())


def _day(run) -> str:
    from scoreboard.club.results import day_of

    return day_of(next(iter(run.book.by_key.values()))).isoformat()


def test_a_table_killed_with_kill_9_shows_offline_within_the_keep_alive(broker, tmp_path):
    async def body():
        async with Running(broker, tmp_path) as run:
            env = {**os.environ, "PYTHONPATH": str(TESTS)}
            child = subprocess.Popen(
                [
                    sys.executable,
                    str(TESTS / "mqtt_table_process.py"),
                    str(broker.port),
                    "t9",
                    str(tmp_path / "t9"),
                    "1",
                ],
                stdout=subprocess.PIPE,
                env=env,
                text=True,
            )
            try:
                (tmp_path / "t9").mkdir()
                await asyncio.to_thread(child.stdout.readline)  # "ready"
                await until(lambda: (run.view("t9") or {}).get("status") == "playing", what="t9")
                child.send_signal(signal.SIGKILL)
                child.wait()
                # The broker's keep-alive (1.5 x 1 s) fires its Last Will: no goodbye was sent.
                await until(lambda: run.view("t9")["status"] == "offline", what="offline")
                assert run.view("t9")["score"] == {"A": 3, "B": 0}  # the last score stays
            finally:
                child.kill()
                child.wait()

    asyncio.run(body())


def test_every_page_carries_its_content_security_policy_also_as_a_static_file(tmp_path):
    """Review of issue 21: /static served hall.html without the policy."""

    async def body():
        http = TestClient(TestServer(Club(book=ResultBook(tmp_path)).app()))
        await http.start_server()
        try:
            for path in ("/", "/static/hall.html", "/static/setup.html", "/table/t1/overlay"):
                policy = (await http.get(path)).headers.get("Content-Security-Policy", "")
                assert "script-src 'self' 'sha256-" in policy, path
                assert "unsafe-inline" not in policy
        finally:
            await http.close()

    asyncio.run(body())


@pytest.mark.parametrize(
    ("missing", "said"),
    [("paho", "needs paho-mqtt, which is not installed"), ("aiohttp", "needs aiohttp, which is")],
)
def test_the_club_without_the_web_extra_says_what_to_install(
    monkeypatch, capsys, tmp_path, missing, said
):
    """Issue 22: after a plain `pip install .`, `scoreboard club` ended in a traceback."""
    import importlib.util

    from scoreboard.cli import main

    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else find(name, *a)
    )
    assert main(["club", "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert said in err and "pip install '.[web]'" in err


def test_the_hall_shows_each_tables_version_from_its_info():
    # A card image's table says the image's release (scoreboard/release.py); an update changes it.
    hall = Hall()
    hall.take("fp/v1/t1/info", b'{"name": "Table 1", "version": "0.2.0"}', now=1.0)
    assert hall.tables["t1"].view()["version"] == "0.2.0"
    hall.take("fp/v1/t1/info", b'{"name": "Table 1", "version": "0.3.0"}', now=2.0)
    assert hall.tables["t1"].view()["version"] == "0.3.0"
