"""`scoreboard status [--config PATH | --state-dir DIR] [--json]`: the state the journal holds, as a restart shows it,
and the table's public key (issue 34), which the club's staff approve at the desk."""

import json
import os
import sys
from pathlib import Path

from scoreboard import config as configuration
from scoreboard.commands import UsageError
from scoreboard.core.confirmation import confirmation_of
from scoreboard.core.matchlog import LogError, replay
from scoreboard.core.phase import Phase
from scoreboard.core.summary import describe
from scoreboard.signing.table_key import PUBLIC_NAME, fingerprint, read_public
from scoreboard.store.journal import JOURNAL_NAME, Replay, read_journal
from scoreboard.store.storage import classify, diagnose


def add_state_dir(parser) -> None:
    parser.add_argument(
        "--config",
        default=str(configuration.DEFAULT_PATH),
        metavar="PATH",
        help=f"the config whose [service] state_dir to read (default {configuration.DEFAULT_PATH})",
    )
    parser.add_argument("--state-dir", metavar="DIR", help="overrides [service] state_dir")


def state_dir(args) -> str:
    """The state directory `run` uses: --state-dir, else the config's [service] state_dir
    (its default where the default config file does not exist, as on a laptop)."""
    if args.state_dir:
        return args.state_dir
    try:
        return configuration.load(args.config).service.state_dir
    except configuration.ConfigError as exc:
        if (
            args.config == str(configuration.DEFAULT_PATH)
            and not configuration.DEFAULT_PATH.exists()
        ):
            return configuration.default().service.state_dir
        raise UsageError(f"{exc}; or name the state directory with --state-dir") from None


def played_in(where: str) -> str:
    """`where`, if it exists: a folder that does not is a mistyped path, or the default on a
    machine where only the simulator has played (its folder is ./state), never "no match"."""
    try:
        os.stat(where)
    except FileNotFoundError:
        sim = Path("state").resolve()
        also = (
            f"; the simulator's is {sim}: --state-dir {sim}"
            if (sim / JOURNAL_NAME).exists()
            else ""
        )
        raise UsageError(f"there is no {where}: no table has played there{also}") from None
    except OSError:
        pass  # closed to this user: reading it says what to do
    return where


def cannot_read(where: str, exc: OSError) -> UsageError:
    """What to do when the service's state directory is closed to this user."""
    return UsageError(
        f"cannot read {exc.filename or where}: {exc.strerror}. The state directory belongs to "
        "the scoreboard service; members of the scoreboard group may read it. "
        "systemd/install.sh adds the admin who ran it with sudo to that group: log out and in "
        "again for it to take effect (or run `newgrp scoreboard`). Add another user with "
        "`sudo usermod -aG scoreboard NAME`, or run the command with sudo."
    )


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "status",
        help="print the state the journal holds, and the table's public key",
        description="The state that the journal holds: what the appliance shows after a restart.",
    )
    add_state_dir(parser)
    parser.add_argument("--json", action="store_true", help="print the state as one JSON object")
    parser.set_defaults(run=run)


def writes_there(where: str) -> bool:
    """Whether this user is the one the appliance writes as (or root): only then can it tell
    what writing the journal would meet. The admin reads through the group, and cannot."""
    try:
        return os.geteuid() in (0, os.stat(where).st_uid)
    except OSError:
        return True  # a missing or unreachable folder: diagnose says what it is


def run(args) -> int:
    where = played_in(state_dir(args))
    writer = writes_there(where)
    # What the appliance meets writing its journal, in the words its log uses.
    fault = diagnose(where) if writer else None
    try:
        journal = read_journal(where)
    except PermissionError as exc:
        if not writer:
            raise cannot_read(where, exc) from None
        fault = fault or classify(exc, Path(where) / JOURNAL_NAME)
        journal = Replay([], None)
    except OSError as exc:
        fault = fault or classify(exc, Path(where) / JOURNAL_NAME)
        journal = Replay([], None)
    if fault is not None:
        print(f"storage: {fault}; play goes on, not saved", file=sys.stderr if args.json else None)
    try:
        snapshot = replay(journal.lines).snapshot()
    except LogError as exc:
        raise UsageError(f"the journal in {where} does not replay: {exc}") from None
    if snapshot["phase"] == Phase.MATCH_OVER:  # who confirmed its result (issue 34)
        snapshot["confirmation"] = confirmation_of(journal.lines).view()
    key = table_key(where)
    if args.json:
        print(json.dumps({**snapshot, "table_key": key}, ensure_ascii=False))
    else:
        if journal.lines:
            print(describe(snapshot))
            if journal.torn:
                print(str(journal.torn))
        else:
            print(f"no match in progress in {where}")
        if journal.lines or key is not None:  # a table that never started has neither
            print(key_line(key, where))
    return 1 if fault else 0


def table_key(where: str) -> dict | None:
    """The table's public key and its fingerprint (None: not made yet: the table makes it at
    its first start), read from `table-key.pub`, which the scoreboard group may read."""
    try:
        public = read_public(where)
    except PermissionError as exc:
        raise cannot_read(where, exc) from None
    except OSError:
        public = None
    return None if public is None else {"public": public, "fingerprint": fingerprint(public)}


def key_line(key: dict | None, where: str) -> str:
    if key is None:
        return f"table key: not made yet (the table makes {Path(where) / PUBLIC_NAME} at its start)"
    return f"table key: {key['public']} (fingerprint {key['fingerprint']})"
