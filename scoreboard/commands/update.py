"""`scoreboard update FILE`: a signed update installed on a card image's table, between
matches (scoreboard/update/). Run as root on the table (sudo, or over SSH)."""

import shutil

from scoreboard.commands import UsageError
from scoreboard.commands.status import add_state_dir, state_dir


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "update",
        help="install a signed update (a card image's table), between matches",
        description=(
            "Check FILE's signature against the club's key, wait until no match is under way, "
            "write it into the root slot not running, and reboot into it. The table keeps it "
            "once it is up, and goes back to the old version by itself if it is not."
        ),
    )
    parser.add_argument("bundle", metavar="FILE", help="the update (scoreboard-*-arm64.raucb)")
    add_state_dir(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    from scoreboard.core.matchlog import replay
    from scoreboard.store.journal import read_journal
    from scoreboard.update import UpdateError, Updater

    if shutil.which("rauc") is None:
        raise UsageError(
            "this table does not run from the card image (no rauc): update it with "
            "`git pull` and `sudo systemd/install.sh`"
        )
    where = state_dir(args)

    def snapshot() -> dict:
        return replay(read_journal(where).lines).snapshot()

    try:
        Updater(args.bundle, snapshot=snapshot).install()
    except UpdateError as exc:
        raise UsageError(str(exc)) from None
    return 0
