"""Updates from the club's desk to the tables (issue 23): the staff send a signed update, the
club keeps and serves it and offers it on the broker; a card-image table fetches it, checks
its size and SHA-256, and names it for `scoreboard update --ready` (which has RAUC check the
club's signature and installs it between matches)."""

import asyncio
import hashlib
import os

import pytest
from aiohttp.test_utils import TestClient, TestServer
from test_club_players import STAFF

from scoreboard import release
from scoreboard.cli import main
from scoreboard.club.results import ResultBook
from scoreboard.club.server import Club
from scoreboard.mqtt import topics
from scoreboard.mqtt.update_offer import UpdateOffers, fetch, wanted

BUNDLE = os.urandom(300_000)  # what the club is sent; its signature is the table's to check
SHA = hashlib.sha256(BUNDLE).hexdigest()


class Broker:
    """The club's broker client as Club uses it for updates."""

    def __init__(self):
        self.offers = []

    def update(self, offer):
        self.offers.append(offer)


def serve(tmp_path, body):
    async def run():
        club = Club(
            book=ResultBook(tmp_path / "book"),
            staff_password="cue",
            updates_dir=tmp_path / "updates",
        )
        club.client, club.linked = Broker(), True
        http = TestClient(TestServer(club.app()))
        await http.start_server()
        try:
            return await body(club, http, {**STAFF, "Origin": f"http://{http.host}:{http.port}"})
        finally:
            await http.close()

    return asyncio.run(run())


def test_the_staff_send_an_update_and_the_club_keeps_serves_and_offers_it(tmp_path):
    async def body(club, http, own):
        sent = await http.post(
            "/api/updates?name=scoreboard-0.2.0-arm64.raucb", data=BUNDLE, headers=own
        )
        assert sent.status == 200, await sent.text()
        offer = (await sent.json())["offer"]
        served = await http.get(f"/updates/{SHA}.raucb")
        other = await http.get(f"/updates/{'0' * 64}.raucb")
        shown = await (await http.get("/api/updates")).json()
        wrong = await http.post("/api/updates?name=update.bin", data=b"x", headers=own)
        gone = await http.delete("/api/updates", headers=own)
        return (
            offer,
            await served.read(),
            other.status,
            shown,
            wrong.status,
            gone.status,
            club.client.offers,
        )

    offer, served, other, shown, wrong, gone, offers = serve(tmp_path, body)
    assert offer["version"] == "0.2.0" and offer["sha256"] == SHA and offer["size"] == len(BUNDLE)
    assert offer["url"].endswith(f"/updates/{SHA}.raucb")
    assert topics.parse_update(topics.encode(offer)) == offer  # what a table reads
    assert offers == [offer, None]  # offered, then withdrawn (an empty retained message)
    assert served == BUNDLE and other == 404
    assert shown["offer"] == offer
    assert wrong == 400 and gone == 200
    assert (tmp_path / "updates" / f"{SHA}.raucb").read_bytes() == BUNDLE


def test_a_card_image_table_fetches_checks_and_names_the_offer(tmp_path, monkeypatch):
    card = tmp_path / "scoreboard-release"
    card.write_text("VERSION=0.1.0\n")
    monkeypatch.setattr(release, "RELEASE", card)
    monkeypatch.setattr(release.fields, "__defaults__", (card,))
    state = tmp_path / "state"
    state.mkdir()

    async def body(club, http, own):
        sent = await http.post(
            "/api/updates?name=scoreboard-0.2.0-arm64.raucb", data=BUNDLE, headers=own
        )
        offer = (await sent.json())["offer"]
        got = await asyncio.to_thread(fetch, offer, state)
        bad = {**offer, "sha256": "f" * 64}
        with pytest.raises(ValueError, match="not the update offered"):
            await asyncio.to_thread(fetch, bad, tmp_path / "other")
        return offer, got

    (tmp_path / "other").mkdir()
    offer, got = serve(tmp_path, body)
    assert got.read_bytes() == BUNDLE
    assert (state / "updates" / "ready").read_text() == f"{SHA}.raucb\n"
    assert not (tmp_path / "other" / "updates" / "ready").exists()
    assert not list((tmp_path / "other" / "updates").glob("*.raucb"))
    # Fetched once per offer, and only for another version on a card image.
    started = []
    offers = UpdateOffers(state, running="0.1.0", start=started.append)
    assert offers.offered(offer) and not offers.offered(offer) and len(started) == 1
    assert not UpdateOffers(state, running="0.2.0", start=started.append).offered(offer)
    monkeypatch.setattr(release.fields, "__defaults__", (tmp_path / "none",))
    assert not wanted(offer, "0.1.0")  # installed with install.sh: git pull, not this


@pytest.mark.parametrize(
    "payload",
    [
        b'{"version": "0.2.0", "sha256": "ab", "size": 1, "url": "http://club/u"}',
        b'{"version": "0 2", "sha256": "' + b"a" * 64 + b'", "size": 1, "url": "http://club/u"}',
        b'{"version": "0.2.0", "sha256": "' + b"a" * 64 + b'", "size": 0, "url": "http://club/u"}',
        b'{"version": "0.2.0", "sha256": "' + b"a" * 64 + b'", "size": 1, "url": "file:///etc"}',
        b'{"version": "0.2.0", "sha256": "' + b"a" * 64 + b'", "size": 1}',
    ],
)
def test_an_offer_a_table_cannot_use_is_refused(payload):
    with pytest.raises(topics.AssignError):
        topics.parse_update(payload)
    assert topics.parse_update(b"") is None


def test_a_delivered_update_refused_by_rauc_is_dropped_not_tried_again(
    tmp_path, monkeypatch, capsys
):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    rauc = bin_dir / "rauc"  # RAUC 1.8's words for a bundle signed by another key
    rauc.write_text(
        "#!/bin/sh\necho 'Failed to verify bundle signature: signature verification failed: "
        "unable to get local issuer certificate' >&2\nexit 1\n"
    )
    rauc.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    updates = tmp_path / "updates"
    updates.mkdir()
    (updates / f"{SHA}.raucb").write_bytes(BUNDLE)
    (updates / "ready").write_text(f"{SHA}.raucb\n")
    assert main(["update", "--ready", str(updates), "--state-dir", str(tmp_path)]) == 2
    assert "not an update signed with this club's key" in capsys.readouterr().err
    assert not (updates / "ready").exists() and not (updates / f"{SHA}.raucb").exists()
