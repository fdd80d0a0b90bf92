"""What a client of the socket may ask the table to do: each command runs on the table's
loop thread (like a button press), and answers (ok, message).

The wiring builds the :class:`CommandTable` (``wiring.command_table()``): this module adds
its own (:func:`add_table_commands`), another package its own; each command says what it
needs. A command that changes the match in play says ``needs_ok``: sent by a phone (the net
process adds ``phone`` to every write a phone sends) it waits for an OK press at the table,
whoever added it and whatever was imported. The net process decides who may send which
(pairing), the table only does what it is asked.
"""

from collections.abc import Callable
from dataclasses import dataclass

FAILED_HINTS = {"nothing-to-undo", "refused"}
WAITING = "waiting for OK at the table"


@dataclass(frozen=True)
class Command:
    fn: Callable  # fn(controls, args: dict) -> (ok: bool, message: str), table/controls.py
    needs_ok: str | None = None  # what a phone's request asks at the table (None: runs at once)


class CommandTable:
    """The commands the socket takes, by name."""

    def __init__(self) -> None:
        self._commands: dict[str, Command] = {}

    def add(self, name: str, fn: Callable, *, needs_ok: str | None = None) -> None:
        if name in self._commands:
            raise ValueError(f"the command {name!r} is added twice")
        self._commands[name] = Command(fn, needs_ok)

    def __contains__(self, name: str) -> bool:
        return name in self._commands

    def bound(self, controls) -> "BoundCommands":
        """The table, run on `controls` (what the local socket's server calls)."""
        return BoundCommands(self, controls)

    def run(self, controls, name: str, args: dict) -> tuple[bool, str]:
        """Run a command on the loop's thread; an unknown one or one that fails is a reply.
        A phone's command that needs an OK waits for it (phone_control.py) and says so."""
        command = self._commands.get(name)
        if command is None:
            known = ", ".join(sorted(self._commands))
            return False, f"unknown command {name!r} (known: {known})"
        try:
            phone = args.get("phone")
            if command.needs_ok and phone:
                rest = {k: v for k, v in args.items() if k != "phone"}
                controls.ask_ok(command.needs_ok, str(phone), lambda: command.fn(controls, rest))
                return True, WAITING
            return command.fn(controls, args)
        except Exception as exc:  # a bad command must never stop the table
            controls.warn(f"bridge: command {name} failed: {exc!r}")
            return False, f"{name} failed: {exc}"


def add_table_commands(table: CommandTable) -> None:
    """The table's own: UNDO, which a phone's request asks an OK at the table for."""
    table.add("undo", undo, needs_ok="undo")


def undo(controls, args: dict) -> tuple[bool, str]:
    """UNDO as if pressed at the table (takes back the last step, docs/decisions.md): it
    wakes the screens and still acts, never answers the question UNDO held asked."""
    hint = controls.press("undo")
    key = hint[0] if isinstance(hint, tuple) else hint
    return key not in FAILED_HINTS, controls.say(hint) or "done"


class BoundCommands:
    """A command table bound to the table's controls: `name in it`, `run(name, args)`."""

    def __init__(self, table: CommandTable, controls) -> None:
        self._table, self._controls = table, controls

    def __contains__(self, name: str) -> bool:
        return name in self._table

    def run(self, name: str, args: dict) -> tuple[bool, str]:
        return self._table.run(self._controls, name, args)
