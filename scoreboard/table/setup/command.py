"""`SetupNext`: the next match's settings, as a command event on the app's one queue.

Whoever sets up a match from outside the buttons (the phone page through the local socket,
the club's MQTT `assign`, a test) puts one `SetupNext` on the app's queue (`EventLoop.put`,
safe from any thread) and never writes the journal itself. The app answers on its own
thread through `reply(ok, message)`, which must not block (the bridge queues the line).

What the app does with it (docs/ARCHITECTURE.md "Next-match settings"):

- nothing played in this match yet (the lag, no shot): this match takes the settings now;
- the match is over: a new match starts with them now (UNDO right after brings the finished
  match back, as after any new match);
- the setup screen is open: it shows them, for the table to start with one press;
- a match in play: they wait as the next match's settings (durable in the state folder);
  the display says so once, and the setup screen opens with them when this match ends.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from scoreboard.core.settings import FIELDS, MatchSettings, SettingsError

Reply = Callable[[bool, str], None]

# What `reply` says when the command was taken, by where the settings went.
APPLIED = "this match"
STARTED = "new match"
ON_SCREEN = "on the setup screen"
PENDING = "next match"


@dataclass(frozen=True)
class SetupNext:
    """The next match's settings. `settings` None with `fields` given: the app merges the
    fields over its last settings (a payload may give only the players)."""

    settings: MatchSettings | None = None
    fields: dict | None = field(default=None, compare=False)
    reply: Reply | None = field(default=None, compare=False, repr=False)
    source: str = "net"  # who sent it, for the log: "phone", "club", "net", "test"
    t: float = 0.0

    def answer(self, ok: bool, message: str) -> None:
        if self.reply is not None:
            self.reply(ok, message)


def from_payload(payload: dict, *, reply: Reply | None = None, source: str = "net") -> SetupNext:
    """The command from the local socket's JSON: ``{"type": "command", "id": "x",
    "cmd": "setup", "players": ["Olena", "Taras"], "race": 3, "target": 8,
    "options": {"jumped-ball": "foul"}, "lang": "uk", "breaker": "lag"}``. Every key but
    type/id/cmd is a setting and may be left out (it keeps the last settings' value).
    Raises SettingsError for a key that is not a setting; the values are checked by the
    app against its last settings (`resolve`), which replies with the reason."""
    if not isinstance(payload, dict):
        raise SettingsError("a command must be a JSON object")
    fields = {k: v for k, v in payload.items() if k not in ("type", "id", "cmd")}
    if unknown := sorted(set(fields) - set(FIELDS)):  # the values are the app's to check
        raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(FIELDS)})")
    return SetupNext(fields=fields, reply=reply, source=source)


def resolve(command: SetupNext, last: MatchSettings) -> MatchSettings:
    """The settings `command` means, given the last ones; SettingsError if they cannot be."""
    if command.settings is not None:
        return command.settings
    return MatchSettings.from_dict(command.fields or {}, defaults=last)
