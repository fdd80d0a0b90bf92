"""The commands the net process sends the table for phones, through the local socket
(scoreboard/table/commands.py; docs/API.md "The table's local socket"):

- ``pairing-code`` ``{"code": "042917", "url": "http://…/pair#code=042917", "seconds": 120}``:
  show the code and a QR code of ``url`` on the OLEDs (scoreboard/table/phone_control.py);
- ``pairing-done`` ``{"phone": "ab12cd"}``: the code was used, the phone is paired;
- ``setup`` ``{"players": [...], "race": 3, ...}`` (docs/ARCHITECTURE.md "Next-match settings"):
  the next match's settings, as the setup screen's SetupNext on the app's queue; never waits
  for a press (a match in play keeps them for the next one);
- ``roster`` ``{"roster": ["Olena", "Taras", ...]}``: the club's players the setup screen
  offers first, instead of the config's ``[match] roster`` (kept in setup.json);
- a command with ``"phone": ID`` that changes a match in play (``undo``) waits for an OK
  press at the table before it runs; the reply says so at once (``ok``, "waiting for OK
  at the table"): the command table does it for every command added with ``needs_ok``
  (scoreboard/table/commands.py).
"""

from scoreboard.core.settings import SettingsError
from scoreboard.store.setup_store import roster_names
from scoreboard.table.setup.command import from_payload


def add_phone_commands(table) -> None:
    """The phones' commands, into the wiring's command table (table/commands.py CommandTable):
    none of them changes the match in play."""
    table.add("pairing-code", pairing_code)
    table.add("pairing-done", pairing_done)
    table.add("setup", setup)
    table.add("roster", roster)


def pairing_code(table, args: dict) -> tuple[bool, str]:
    table.show_code(args.get("code"), str(args.get("url") or ""), args.get("seconds", 120))
    return True, "shown"


def pairing_done(table, args: dict) -> tuple[bool, str]:
    table.paired()
    return True, "paired"


def setup(table, args: dict) -> tuple[bool, str]:
    """The next match's settings from the network (a phone, the club): SetupNext."""
    answer: list[tuple[bool, str]] = []
    # Who sent it, for the log: a phone (the net process adds its id) or as the sender says.
    source = "phone" if args.get("phone") else str(args.get("source", "net"))[:20]
    if args.get("phone") and "assign" in args:  # only the club's assigns name a tournament game
        return False, "a phone cannot set the club's assign"
    payload = {k: v for k, v in args.items() if k not in ("phone", "source")}
    try:
        event = from_payload(payload, reply=lambda ok, m: answer.append((ok, m)), source=source)
    except SettingsError as exc:
        return False, str(exc)
    table.submit(event)  # on the loop's thread already, like a button
    return answer[0] if answer else (False, "the table did not answer")


def roster(table, args: dict) -> tuple[bool, str]:
    """The club's players the setup screen offers first (kept in setup.json)."""
    try:
        names = roster_names(args.get("roster"))
    except SettingsError as exc:
        return False, str(exc)
    table.set_roster(names)
    return True, f"{len(names)} names"
