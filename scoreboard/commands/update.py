"""`scoreboard update FILE`: a signed update installed on a card image's table, between
matches (scoreboard/update/). Run as root on the table (sudo, or over SSH)."""

import shutil
from pathlib import Path

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
    parser.add_argument(
        "bundle", metavar="FILE", nargs="?", help="the update (scoreboard-*-arm64.raucb)"
    )
    parser.add_argument(
        "--ready",
        metavar="DIR",
        help="the update the club's desk delivered to DIR, named in DIR/ready "
        "(the card image's scoreboard-update.service; scoreboard/mqtt/update_offer.py)",
    )
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
    delivered = None
    if args.ready:
        ready = Path(args.ready) / "ready"
        try:
            delivered = Path(args.ready) / ready.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"no update named in {ready}: {exc}") from None
        ready.unlink(missing_ok=True)  # taken: a refused one is not tried again at each boot
        if delivered.parent != Path(args.ready) or not delivered.name.endswith(".raucb"):
            raise UsageError(f"{ready} names no update in {args.ready}")
        args.bundle = str(delivered)
    if not args.bundle:
        raise UsageError("name the update: scoreboard update FILE")

    def snapshot() -> dict:
        return replay(read_journal(where).lines).snapshot()

    try:
        Updater(args.bundle, snapshot=snapshot, before_reboot=forget(delivered)).install()
    except UpdateError as exc:
        forget(delivered)()
        raise UsageError(str(exc)) from None
    return 0


def forget(delivered):
    """Removes a delivered update once installed or refused (the slot holds it now)."""
    return lambda: delivered.unlink(missing_ok=True) if delivered else None
