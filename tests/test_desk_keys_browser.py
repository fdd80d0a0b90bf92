"""The tables' keys and the results' provenance at the staff's desk (issue 34), in a real
browser (Playwright driving Debian's chromium, under the pages' own policy): a new table's key
awaits approval with its fingerprint, the result it signed is held and says why, a changed
result is refused and says why; staff approve the key from the page and the held result is
taken. A tournament's games at the desk say where each result came from."""

import json

import pytest
from test_club import result
from test_desk_page import staff_browser

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import matches, players, table_keys, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE
from scoreboard.mqtt import topics
from scoreboard.mqtt.results import digest
from scoreboard.signing import signature
from scoreboard.signing.table_key import fingerprint, load_or_make


def arrive(club: Club, table: str, sent: dict) -> None:
    club.take(topics.topic(table, topics.RESULT, sent["match_id"]), json.dumps(sent).encode())


@pytest.mark.asyncio
async def test_issue_34_staff_see_held_and_refused_results_and_approve_a_key_at_the_desk(
    tmp_path,
):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
    old, new = load_or_make(tmp_path / "t1"), load_or_make(tmp_path / "t3")
    table_keys.decide(engine, "t1", old.public, table_keys.APPROVED, by="staff Ira")
    club.take("fp/v1/t3/info", json.dumps({"name": "Table 3", "key": new.public}).encode())
    held = signature.sign(result(table="t3"), new)
    arrive(club, "t3", held)
    forged = signature.sign(result(table="t1", mid="20261203T110000Z"), old) | {"winner": "B"}
    arrive(club, "t1", forged)
    assert club.book.by_key == {}

    async with staff_browser(club) as (page, url):
        await page.goto(f"{url}/desk")
        waiting = page.locator("#keys tr.key-awaiting")
        await waiting.wait_for()
        row = await waiting.inner_text()
        assert "t3" in row and fingerprint(new.public) in row and "awaiting approval" in row
        await page.wait_for_selector("#not-taken tr.held")
        assert "awaiting the key of table t3" in await page.inner_text("#not-taken tr.held")
        refused = await page.inner_text("#not-taken tr.refused")
        assert "t1" in refused and "signature did not verify" in refused
        await waiting.locator("button").click()  # approve
        await page.wait_for_selector("#keys tr.key-approved td:first-child:text-is('t3')")
        await page.wait_for_selector("#not-taken tr.held", state="detached")
    assert list(club.book.by_key) == [("t3", held["match_id"])]
    assert table_keys.status(engine, "t3", new.public) == table_keys.APPROVED


@pytest.mark.asyncio
async def test_issue_34_the_desk_says_where_each_games_result_came_from(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, n) for n in ("Олена", "Тарас", "Ія", "Петро")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, settings={"race": 1}, draw_seed=1)
    bracket = tournaments.load(engine, tid).bracket
    a, b = bracket.sides("W1-1")
    key = load_or_make(tmp_path / "t1")
    sent = signature.sign(
        result(table="t1")
        | {"players": {"A": a, "B": b}, "assign": f"T{tid}-W1-1", "confirmation": "confirmed"},
        key,
    )
    matches.keep(engine, sent, digest(sent))
    tournaments.record(engine, tid, "W1-1", a, frames=(1, 0), table="t1", by="table t1")
    c, _ = bracket.sides("W1-2")
    tournaments.record(engine, tid, "W1-2", c, frames=(1, 0), by="staff Ira")
    club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)

    async with staff_browser(club) as (page, url):
        await page.goto(f"{url}/desk/tournament/{tid}")
        await page.wait_for_selector("#game-W1-1 .where:has-text('won')")
        assert "confirmed at the table by both" in await page.inner_text("#game-W1-1 .where")
        assert "entered by staff Ira" in await page.inner_text("#game-W1-2 .where")
