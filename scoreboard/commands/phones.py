"""`scoreboard phones [--config PATH | --state-dir DIR] [--revoke ID] [--json]`: the phones
paired with this table (issue 12); `--revoke ID` unpairs one at once. The list
(`<state_dir>/phones.json`, mode 0600) is the service's: run it with sudo on the Pi."""

import json
import time

from scoreboard.commands import UsageError
from scoreboard.commands.status import add_state_dir, cannot_read, state_dir
from scoreboard.net.phones import Phones, PhonesDamaged


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "phones",
        help="list the phones paired with this table; unpair one",
        description=(
            "The phones that may write to this table (set up a match, undo): paired by the "
            "code the table shows when UNDO is held, then FOUL pressed, for 30 days. "
            "--revoke ID unpairs one at once; its cookie lets it in no more."
        ),
    )
    add_state_dir(parser)
    parser.add_argument("--revoke", metavar="ID", help="unpair the phone with this id")
    parser.add_argument("--json", action="store_true", help="print the list as JSON")
    parser.set_defaults(run=run)


def run(args) -> int:
    where = state_dir(args)
    phones = Phones(where)
    try:
        if args.revoke:
            if not phones.revoke(args.revoke):
                raise UsageError(f"no paired phone {args.revoke!r} (see `scoreboard phones`)")
            print(f"{args.revoke}: unpaired")
            return 0
        listed = phones.list()
    except PermissionError as exc:
        raise cannot_read(where, exc) from None
    except PhonesDamaged as exc:
        raise UsageError(
            f"{exc}: the list is damaged; pairing a phone again starts a new one"
        ) from None
    if args.json:
        print(json.dumps([p.public() for p in listed], ensure_ascii=False, indent=1))
        return 0
    if not listed:
        print("no phones paired (at the table, hold UNDO, then press FOUL for a code)")
    for p in listed:
        print(f"{p.id}  {_day(p.paired)} to {_day(p.expires)}  {p.name}")
    return 0


def _day(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))
