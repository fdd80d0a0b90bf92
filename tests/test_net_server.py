"""`scoreboard net`'s aiohttp application on aiohttp's own test server (loopback, a free
port), reading a real table (the Appliance on mock pins, in simulated time) by its socket."""

import asyncio
import csv
import io
import json
import socket
from pathlib import Path

import pytest
from bridge_helpers import table, web_config
from helpers import PATIENCE, press
from mqtt_table import write_journal

from scoreboard.core.matchlog import replay
from scoreboard.net.server import HUB, TABLE, make_app
from scoreboard.net.sse import sse
from scoreboard.store import history_rows as history
from scoreboard.store.journal import read_journal

pytestmark = pytest.mark.asyncio


@pytest.fixture
def a(tmp_path):
    appliance = table(tmp_path)
    yield appliance
    appliance.close()


async def client_for(aiohttp_client, state_dir, **kwargs):
    client = await aiohttp_client(make_app(state_dir, lang="en", **kwargs))
    async with asyncio.timeout(PATIENCE):
        await client.app[TABLE].wait_connected()
    return client


async def next_event(response, kind=None) -> tuple[str, dict]:
    """The next SSE message (of `kind`) as (event, data)."""
    async with asyncio.timeout(PATIENCE):
        while True:
            event, data = None, None
            while (line := (await response.content.readline()).decode().rstrip("\n")) != "":
                field, _, value = line.partition(": ")
                if field == "event":
                    event = value
                elif field == "data":
                    data = json.loads(value)
            if event and (kind is None or event == kind):
                return event, data


async def test_api_state_is_what_status_json_prints(a, tmp_path, aiohttp_client):
    client = await client_for(aiohttp_client, tmp_path)
    press(a, a.config.pins.player_a)
    expected = json.loads(json.dumps(replay(read_journal(tmp_path).lines).snapshot()))
    async with asyncio.timeout(PATIENCE):
        while (await (await client.get("/api/state")).json()) != expected:
            await asyncio.sleep(0)  # the table's state is on its way through the socket
    assert expected["phase"] == "break"


async def test_api_state_reads_the_journal_when_the_table_is_not_running(tmp_path, aiohttp_client):
    off = table(tmp_path)
    press(off, off.config.pins.player_b)
    off.close()
    client = await aiohttp_client(make_app(tmp_path))
    response = await client.get("/api/state")
    assert response.status == 200
    assert (await response.json())["breaker"] == "B"


async def test_api_state_without_a_journal_is_a_new_match_and_a_broken_one_is_503(
    tmp_path, aiohttp_client
):
    """As `status --json`: no journal is the match a new table starts with; a journal that
    does not replay is no state at all (the table's log says why)."""
    client = await aiohttp_client(make_app(tmp_path / "new"))
    response = await client.get("/api/state")
    assert response.status == 200 and (await response.json())["phase"] == "lag"
    write_journal(tmp_path / "broken", ["players Olena Taras", "shot pots=99"])
    client = await aiohttp_client(make_app(tmp_path / "broken"))
    response = await client.get("/api/state")
    assert response.status == 503 and "no state" in await response.text()


async def test_events_send_the_state_on_connect_then_each_change_then_heartbeats(
    a, tmp_path, aiohttp_client
):
    client = await client_for(aiohttp_client, tmp_path, heartbeat=0.05)
    response = await client.get("/api/events")
    assert response.headers["Content-Type"].startswith("text/event-stream")
    event, data = await next_event(response)
    assert event == "state" and data["state"]["phase"] == "lag"
    assert data["view"]["headline"] == "Who breaks first?"
    press(a, a.config.pins.player_a)
    event, data = await next_event(response, "state")
    name = a.config.match.player_a  # the config's, not the event's own
    assert data["state"]["phase"] == "break" and data["state"]["breaker"] == "A"
    assert data["view"]["headline"] == f"{name} breaks"
    assert (await next_event(response, "heartbeat"))[1] == {}


async def test_sse_clients_that_never_read_are_dropped_and_a_reader_goes_on(
    a, tmp_path, aiohttp_client
):
    client = await client_for(aiohttp_client, tmp_path)
    hub = client.app[HUB]
    reader = await client.get("/api/events")
    await next_event(reader)
    sleepers = []
    for _ in range(50):  # browsers that connect and never read
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (client.host, client.port))
        sock.send(f"GET /api/events HTTP/1.1\r\nHost: {client.host}:{client.port}\r\n\r\n".encode())
        sleepers.append(sock)
    async with asyncio.timeout(PATIENCE):
        while len(hub.clients) < 51:
            await asyncio.sleep(0)
    big = sse("state", {"pad": "x" * 65536})
    sent = 0
    async with asyncio.timeout(PATIENCE):
        while hub.dropped < 50:
            hub.publish(big)
            sent += 1
            await next_event(reader, "state")  # the reader keeps up: never dropped
    assert hub.clients and len(hub.clients) == 1 and sent < 100
    for sock in sleepers:
        sock.close()


async def test_overlay_is_sized_by_its_query(a, tmp_path, aiohttp_client):
    client = await client_for(aiohttp_client, tmp_path)
    text = await (await client.get("/overlay?width=1280&height=90&bottom=40")).text()
    assert "--bar-width: 1280px; --bar-height: 90px; --bar-bottom: 40px;" in text
    text = await (await client.get("/overlay?height=oops")).text()
    assert "--bar-width: 100%; --bar-height: 64px;" in text


async def test_the_pages_have_an_icon(tmp_path, aiohttp_client):
    """Issue 22: /favicon.ico was a 404 on every page load."""
    client = await aiohttp_client(make_app(tmp_path, lang="en"))
    response = await client.get("/favicon.ico")
    assert response.status == 200 and response.content_type == "image/png"
    assert (await response.read()).startswith(b"\x89PNG")


async def test_pages_speak_the_displays_language(tmp_path, aiohttp_client):
    uk = table(tmp_path, web_config(), lang="uk")  # the displays speak Ukrainian
    try:
        client = await aiohttp_client(make_app(tmp_path, lang="en"))
        async with asyncio.timeout(PATIENCE):
            await client.app[TABLE].wait_connected()
        page = await (await client.get("/")).text()
        assert '<html lang="uk">' in page and "Зв&#x27;язок втрачено" in page
    finally:
        uk.close()


async def test_history_and_its_downloads_are_what_scoreboard_history_prints(
    a, tmp_path, aiohttp_client
):
    pins = a.config.pins
    press(a, pins.undo, seconds=a.config.timings.undo_hold_time + 0.2)  # a new match?
    press(a, pins.undo)  # yes: the first is archived
    matches = history.rows(str(tmp_path))
    assert len(matches) == 1
    client = await client_for(aiohttp_client, tmp_path)
    assert await (await client.get("/history.json")).json() == json.loads(
        json.dumps(matches, ensure_ascii=False)
    )
    text = await (await client.get("/history.csv")).text()
    assert list(csv.DictReader(io.StringIO(text))) == [
        {k: str(v) for k, v in history.flat(m).items()} for m in matches
    ]
    page = await (await client.get("/history")).text()
    assert matches[0]["players"]["A"] in page and 'href="/history.csv"' in page


async def test_every_route_of_scoreboard_net_is_a_line_of_docs_api(tmp_path):
    lines = (Path(__file__).parents[1] / "docs" / "API.md").read_text().splitlines()
    app = make_app(tmp_path)
    routes = [r for r in app.router.routes() if r.method != "HEAD"]
    assert {"/", "/overlay", "/api/state", "/api/events", "/pair"} <= {
        r.resource.canonical for r in routes
    }
    for route in routes:
        line = f"{route.method} {route.resource.canonical} "
        assert any(text.startswith(line) for text in lines), line


async def test_a_damaged_archive_file_is_in_the_servers_log_not_in_the_clis_words(
    a, tmp_path, aiohttp_client, capsys, caplog
):
    """Issue 20: the web server printed "scoreboard history: warning:" (the CLI's words) on
    its stderr; the rows are the server's own now, said in its log."""
    pins = a.config.pins
    press(a, pins.undo, seconds=a.config.timings.undo_hold_time + 0.2)
    press(a, pins.undo)  # the first match archived
    (tmp_path / "archive" / "0001.json").write_text("{not json")
    client = await aiohttp_client(make_app(tmp_path))
    assert await (await client.get("/history.json")).json() == []
    assert "scoreboard history" not in capsys.readouterr().err
    assert "0001.json is missing or unreadable" in caplog.text
