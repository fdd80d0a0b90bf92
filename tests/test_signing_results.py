"""A table's result, signed (issue 34): what the table sends carries its match log's digest and a
signature over every field with it; the table's key is announced on `info`; a change of any
field, one added included, is found out. Over a real Mosquitto with the real publisher."""

import asyncio
import hashlib
import json

import pytest
from broker import Listener
from helpers import until, wait_for
from mqtt_table import Feed, archive, match_lines, state_message, write_journal
from test_mqtt_publisher import MATCH_ID, STARTED, mqtt_config

from scoreboard.mqtt.publisher import Publisher
from scoreboard.mqtt.results import digest
from scoreboard.signing import signature
from scoreboard.signing.table_key import load_or_make, read_public
from scoreboard.store.journal import ARCHIVE_DIR, JOURNAL_NAME

# Both players confirmed the result at the table (the journal's comments; issue 34): a table
# publishes the match just finished once its result is closed.
CONFIRMED = ["# confirm A", "# confirm B"]


def log_text_digest(path) -> str:
    """The match log's digest as anyone computes it from the file: every line but the
    records' end markers (`grep -v '^=' journal.log | sha256sum`)."""
    lines = path.read_bytes().splitlines(keepends=True)
    return hashlib.sha256(b"".join(ln for ln in lines if not ln.startswith(b"="))).hexdigest()


def published(broker, state_dir, lines) -> tuple[dict, dict]:
    """(the result, the info) the table publishes for the match in its journal."""
    listener = Listener(broker, f"fp/v1/t1/result/{MATCH_ID}", "fp/v1/t1/info")

    async def run():
        feed = Feed()
        publisher = Publisher(mqtt_config(broker), state_dir=state_dir)
        publisher.start()
        feed.put(state_message(lines))
        task = asyncio.ensure_future(publisher.follow(feed))
        await until(lambda: publisher.results.acked, what="the PUBACK")
        feed.close()
        await task
        publisher.stop()

    asyncio.run(run())
    wait_for(lambda: listener.on(f"fp/v1/t1/result/{MATCH_ID}"), what="the result")
    result = json.loads(listener.on(f"fp/v1/t1/result/{MATCH_ID}")[-1])
    info = json.loads(listener.on("fp/v1/t1/info")[-1])
    listener.close()
    return result, info


def test_issue_34_a_result_carries_its_logs_digest_and_a_signature_that_verifies(broker, tmp_path):
    lines = match_lines(STARTED) + CONFIRMED
    write_journal(tmp_path, lines)
    result, info = published(broker, tmp_path, lines)
    public = read_public(tmp_path)
    assert info["key"] == public  # the club learns the key on first contact
    assert result["key"] == public
    assert result["log_sha256"] == log_text_digest(tmp_path / JOURNAL_NAME)
    assert signature.check(result, key=public) is None
    assert signature.check(result) is None  # by the key it names, too
    # Archived when the next match starts: the log file keeps the same text, so the digest the
    # club holds still names it, and the match is not sent again.
    archive(tmp_path, lines)
    (log,) = (tmp_path / ARCHIVE_DIR).glob("*.log")
    assert log_text_digest(log) == result["log_sha256"]


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r["frames"].update(A=0, B=1),  # a score
        lambda r: r.update(winner="B"),
        lambda r: r["players"].update(A="Taras", B="Olena"),
        lambda r: r.update(log_sha256="0" * 64),  # another log
        lambda r: r.update(table="t2"),  # another table's topic
        lambda r: r.update(confirmation="confirmed"),  # a field added after signing
        lambda r: r.pop("assign"),  # one taken away
        lambda r: r.update(key=load_or_make(r.pop("_other")).public),  # another key named
    ],
)
def test_issue_34_any_change_to_a_signed_result_is_found_out(tmp_path, change):
    key = load_or_make(tmp_path / "table")
    result = signature.sign(
        {
            "table": "t1",
            "match_id": MATCH_ID,
            "players": {"A": "Olena", "B": "Тарас"},
            "winner": "A",
            "frames": {"A": 2, "B": 1},
            "frame_times": [425.5, None, 300],
            "assign": "T1-W1-1",
            "log_sha256": "ab" * 32,
        },
        key,
    )
    assert signature.check(result, key=key.public) is None
    changed = json.loads(json.dumps({**result, "_other": str(tmp_path / "other")}))
    change(changed)
    changed.pop("_other", None)
    assert signature.check(changed) == "signature did not verify"
    assert signature.check(changed, key=key.public) in (
        "signature did not verify",
        "signed by another key than the table's",
    )


def test_issue_34_a_field_signed_with_the_result_is_covered_whatever_its_name(tmp_path):
    """The confirmation at the table (another engineer's field): signed with the rest, as any
    field a later table adds, never named in the code that signs."""
    key = load_or_make(tmp_path)
    result = signature.sign({"table": "t1", "confirmation": "confirmed"}, key)
    assert signature.check(result, key=key.public) is None
    assert signature.check({**result, "confirmation": "timed-out"}) == "signature did not verify"
    assert signature.check({**result, "confirmation": None}) == "signature did not verify"


def test_issue_34_the_canonical_bytes_do_not_depend_on_the_order_or_spelling_of_the_json():
    a = {"b": 1, "a": {"y": [1, 2], "x": "Олена"}, "signature": "whatever"}
    b = json.loads('{"a": {"x": "\\u041e\\u043b\\u0435\\u043d\\u0430", "y": [1, 2]}, "b": 1}')
    assert signature.canonical(a) == signature.canonical(b)
    assert (
        signature.canonical(a)
        == b'fp-result-v1\n{"a":{"x":"\xd0\x9e\xd0\xbb\xd0\xb5\xd0\xbd\xd0\xb0","y":[1,2]},"b":1}'
    )


def test_issue_34_an_unsigned_or_mangled_result_says_why():
    assert signature.check({"table": "t1"}) == "not signed"
    assert signature.check({"key": "no base64!", "signature": "x"}) == "signature did not verify"
    assert signature.check([]) == "not a result"


def test_issue_34_the_same_match_signed_again_is_the_same_result_to_the_table_and_club(tmp_path):
    """A result signed by a new key, or archived later, comes to what it came to: the key and
    signature are no part of it (mqtt/results.py digest), its log's digest is."""
    plain = {"table": "t1", "match_id": MATCH_ID, "winner": "A", "log_sha256": "ab" * 32}
    one = signature.sign(plain, load_or_make(tmp_path / "one"))
    other = signature.sign(plain, load_or_make(tmp_path / "other"))
    assert digest(one) == digest(other) == digest(plain)
    assert digest({**plain, "log_sha256": "cd" * 32}) != digest(plain)  # UNDO, the same end


def test_issue_34_a_table_that_cannot_sign_keeps_its_results_until_it_can(broker, tmp_path, caplog):
    """A damaged key stops the publisher sending (an unsigned result would be refused by the
    club, and never sent again once the broker had it); moved away, the next start makes a new
    key and the result goes, signed by it."""
    import logging

    lines = match_lines(STARTED) + CONFIRMED
    write_journal(tmp_path, lines)
    damaged = tmp_path / "table-key.pem"
    damaged.write_bytes(b"not a key")
    listener = Listener(broker, f"fp/v1/t1/result/{MATCH_ID}", "fp/v1/t1/info")

    async def run():
        publisher = Publisher(mqtt_config(broker), state_dir=tmp_path)
        publisher.start()
        feed = Feed()
        feed.put(state_message(lines))
        task = asyncio.ensure_future(publisher.follow(feed))
        await until(lambda: publisher.connected and publisher.state, what="connected")
        await until(lambda: listener.on("fp/v1/t1/info"), what="its info")
        feed.close()
        await task
        publisher.stop()
        return publisher

    with caplog.at_level(logging.WARNING, logger="scoreboard.mqtt"):
        held_back = asyncio.run(run())
    assert held_back.results_sent == 0 and held_back.results.acked == {}
    assert "key" not in json.loads(listener.on("fp/v1/t1/info")[-1])
    listener.close()
    assert any("not an Ed25519 key" in r.getMessage() for r in caplog.records)
    assert damaged.read_bytes() == b"not a key"  # never replaced by the table
    damaged.rename(tmp_path / "table-key.pem.damaged")  # what the log says to do
    result, info = published(broker, tmp_path, lines)
    assert signature.check(result, key=read_public(tmp_path)) is None
    assert info["key"] == result["key"]


def test_issue_34_a_match_archived_before_results_carried_its_logs_digest_gets_it_once(tmp_path):
    """An older table's archive has no `log_sha256` in its metadata: read from its log when it
    is to be sent; one the broker had acknowledged before the update is not sent again."""
    from scoreboard.core.matchlog import replay
    from scoreboard.core.summary import summarise
    from scoreboard.mqtt.results import Results
    from scoreboard.store.journal import Journal

    results = Results("t1", tmp_path)  # the table first published before the match ended
    lines = match_lines(STARTED) + CONFIRMED
    write_journal(tmp_path, lines)
    old_meta = summarise(replay(lines), lines)
    del old_meta["log_sha256"]  # as the table archived it before issue 34
    with Journal(tmp_path) as journal:
        journal.archive(old_meta)
    (log,) = (tmp_path / ARCHIVE_DIR).glob("*.log")
    (due,) = results.pending()
    assert due["log_sha256"] == log_text_digest(log)
    results.acked[MATCH_ID] = digest({k: v for k, v in due.items() if k != "log_sha256"})
    assert results.pending() == []  # acknowledged before the update: not sent again
    results.acked[MATCH_ID] = digest(due)
    assert results.pending() == []  # acknowledged with it since
