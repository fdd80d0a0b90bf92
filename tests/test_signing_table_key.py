"""The table's own signing key (issue 34): made once, at the table's first start or by the
network process if it needs it first, in the state folder, with the private key the service's
alone (0600) and the public key the scoreboard group's to read (0640); kept across restarts,
never replaced, and shown by `scoreboard status`."""

import json
import multiprocessing
import os
import stat

import pytest
from bridge_helpers import table, web_config
from test_status_command import GROUP, as_nobody, needs_root, service_state  # noqa: F401

from scoreboard.cli import main
from scoreboard.signing.table_key import (
    PRIVATE_NAME,
    PUBLIC_NAME,
    TableKeyError,
    fingerprint,
    load_or_make,
    read_public,
)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_issue_34_the_table_makes_its_key_at_its_first_start_and_keeps_it(tmp_path):
    state = tmp_path / "state"
    a = table(state, web_config())
    a.close()
    private, public = state / PRIVATE_NAME, state / PUBLIC_NAME
    assert mode(private) == 0o600  # the service's user alone
    assert mode(public) == 0o640  # and the scoreboard group, for `scoreboard status`
    made = private.read_bytes()
    assert made.startswith(b"-----BEGIN PRIVATE KEY-----")
    assert read_public(state) == load_or_make(state).public
    again = table(state, web_config())  # a restart, and another
    again.close()
    assert private.read_bytes() == made
    assert load_or_make(state).public == read_public(state)
    assert [p.name for p in state.iterdir() if p.name.startswith(".table-key")] == []


def test_issue_34_the_network_process_makes_it_if_it_needs_it_first_and_the_table_keeps_it(
    tmp_path,
):
    from mqtt_table import table_config

    from scoreboard.mqtt.publisher import Publisher

    class NoBroker:  # never connected to: the key is made when the publisher is
        port = 1

    state = tmp_path / "state"
    state.mkdir()
    publisher = Publisher(table_config(NoBroker(), "t1"), state_dir=state, client=object())
    made = (state / PRIVATE_NAME).read_bytes()
    assert publisher.key.public == read_public(state)
    a = table(state, web_config())
    a.close()
    assert (state / PRIVATE_NAME).read_bytes() == made


def _make_at_once(folder, barrier, out) -> None:
    barrier.wait()
    out.put(load_or_make(folder).public)


def test_issue_34_processes_making_it_at_once_all_get_the_one_key(tmp_path):
    """The table and its network process start together on a new card: one key, never two
    (a key written over another would leave results signed by a key no file holds)."""
    context = multiprocessing.get_context("fork")
    n = 6
    barrier, out = context.Barrier(n), context.Queue()
    workers = [
        context.Process(target=_make_at_once, args=(tmp_path, barrier, out)) for _ in range(n)
    ]
    for w in workers:
        w.start()
    keys = {out.get(timeout=300) for _ in workers}
    for w in workers:
        w.join()
    assert keys == {read_public(tmp_path)}
    assert len(keys) == 1


def test_issue_34_a_process_that_found_no_key_a_moment_ago_takes_the_one_made_since(tmp_path):
    """The race made certain: another process linked its key in between this one's look and
    its own new key; the new key is dropped, never linked over the first."""
    from scoreboard.signing import table_key

    first = load_or_make(tmp_path)
    made = (tmp_path / PRIVATE_NAME).read_bytes()
    assert table_key._make(tmp_path) == made  # what the late process goes on with
    assert (tmp_path / PRIVATE_NAME).read_bytes() == made
    assert load_or_make(tmp_path).public == first.public == read_public(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [PRIVATE_NAME, PUBLIC_NAME]


def test_issue_34_a_damaged_key_is_never_replaced_and_says_what_to_do(tmp_path):
    (tmp_path / PRIVATE_NAME).write_bytes(b"-----BEGIN PRIVATE KEY-----\ntorn")
    with pytest.raises(TableKeyError, match="move it away"):
        load_or_make(tmp_path)
    assert (tmp_path / PRIVATE_NAME).read_bytes() == b"-----BEGIN PRIVATE KEY-----\ntorn"
    assert read_public(tmp_path) is None


def test_issue_34_status_shows_the_public_key_in_text_and_json(tmp_path, capsys):
    state = tmp_path / "state"
    table(state, web_config()).close()
    public = read_public(state)
    assert main(["status", "--state-dir", str(state)]) == 0
    out = capsys.readouterr().out
    assert f"table key: {public} (fingerprint {fingerprint(public)})" in out
    assert main(["status", "--state-dir", str(state), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["table_key"] == {"public": public, "fingerprint": fingerprint(public)}
    assert printed["phase"] == "lag"  # the snapshot as before, the key beside it


@needs_root
def test_issue_34_the_admin_in_the_scoreboard_group_sees_the_public_key_not_the_private(
    service_state,  # noqa: F811
):
    public = load_or_make(service_state).public  # as the service makes them ...
    for name in (PRIVATE_NAME, PUBLIC_NAME):
        os.chown(service_state / name, 0, GROUP)  # ... owned by it, in its group
    status, out, err = as_nobody(["status", "--state-dir", str(service_state)], groups=[GROUP])
    assert (status, err) == (0, "")
    assert f"table key: {public} " in out
    reader = os.fork()
    if reader == 0:  # pragma: no cover - the child: the admin, in the group
        os.setgroups([GROUP])
        os.setgid(65534)
        os.setuid(65534)
        os._exit(0 if os.access(service_state / PRIVATE_NAME, os.R_OK) else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(reader, 0)[1]) == 1  # the private key: no
