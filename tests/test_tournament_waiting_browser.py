"""Why a game waits, on the desk's and the hall TV's pages, and the desk sending it to a named
table (issue 34), in a real browser (Playwright driving Debian's chromium, under the pages'
own content security policy). The club's hall takes real match states; its broker client
sends each assign straight back into the hall, as the broker's retained copy comes back."""

import pytest
from hall_tables import Broker, HallTables
from helpers import PATIENCE
from test_desk_page import staff_browser

from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.clubdb import players, tournaments
from scoreboard.clubdb.database import open_database
from scoreboard.desk.bracket import SINGLE

FRIENDLY = ("players Yurii Marko", "race 1", "break A", "shot pots=5", "shot", "shot pots=3")


@pytest.mark.asyncio
async def test_the_desk_and_the_tv_say_why_a_game_waits_and_staff_send_it(tmp_path):
    engine = open_database(f"sqlite:///{tmp_path}/club.db")
    ids = [players.add(engine, n) for n in ("Oksana", "Petro")]
    tid = tournaments.create(engine, "Friday", SINGLE, ids, draw_seed=1)
    club = Club(book=ResultBook(tmp_path / "book"), staff_password="cue", database=engine)
    tables = HallTables(club)
    club.client, club.linked = Broker(tables), True
    tables.table("t1", *FRIENDLY)  # the one table: a friendly in play
    club.desk.start()
    club.desk.tables_changed()
    assert club.client.sent == []
    row = "#game-W1-1"

    async with staff_browser(club) as (page, url):
        tv = await page.context.new_page()
        tv.set_default_timeout(PATIENCE * 1000)
        await tv.goto(f"{url}/tournament/{tid}")
        await page.goto(f"{url}/desk/tournament/{tid}")
        busy = "Table 1 busy: Yurii v Marko, 5:3"
        await page.wait_for_selector(f"{row} .where:has-text('waits: {busy}')")
        await tv.wait_for_selector(f"#live .next .live-why:has-text('{busy}')")
        # a ball at that table: both pages say it again, live
        tables.state("t1", *FRIENDLY, "shot pots=2")
        await page.wait_for_selector(f"{row} .where:has-text('Yurii v Marko, 5:5')")
        await tv.wait_for_selector("#live .next .live-why:has-text('Yurii v Marko, 5:5')")
        choices = await page.inner_text(f"{row} select >> nth=0")
        assert "Table 1 (Table 1 busy: Yurii v Marko, 5:5)" in choices
        # sent to the busy table: the desk asks first, and says what the table will do
        asked = []

        async def answer(dialog):
            asked.append(dialog.message)
            await dialog.accept()

        page.on("dialog", answer)
        await page.click(f"{row} button:has-text('send to')")
        await page.wait_for_selector(f"{row} .where:has-text('at Table 1')")
        await tv.wait_for_selector("#live .waiting .live-score:has-text('next there')")
    assert len(asked) == 1 and "waits as the table's next match" in asked[0]
    assert club.client.sent == [("t1", f"T{tid}-W1-1")]
