"""The local socket's commands: a table the wiring builds, each command saying what it needs
(issue 20). A phone's UNDO waits for an OK press at the table because the command says so,
not because some module was imported and swapped another's entry."""

import subprocess
import sys
import textwrap

import pytest

from scoreboard.table.commands import WAITING, CommandTable
from scoreboard.table.wiring import command_table


def test_the_wirings_table_has_every_command_each_added_once():
    table = command_table()
    names = ("undo", "pairing-code", "pairing-done", "setup", "roster")
    assert all(name in table for name in names)
    with pytest.raises(ValueError, match="twice"):
        table.add("undo", lambda app, args: (True, ""))


def test_a_phones_undo_waits_for_an_ok_however_the_modules_are_imported(tmp_path):
    """In a fresh interpreter that never imports the phones' commands: the table's own UNDO,
    sent by a phone, waits; the OK press runs it; sent by the club (no phone), it runs."""
    script = textwrap.dedent(
        f"""
        import sys
        from scoreboard import config
        from scoreboard.table.app import App
        from scoreboard.table.commands import WAITING, CommandTable, add_table_commands
        from scoreboard.inputs.events import ButtonPress, Pot
        from scoreboard.table.loop import ManualClock

        assert "scoreboard.table.phone_commands" not in sys.modules
        table = CommandTable()
        add_table_commands(table)
        clock = ManualClock(1000.0)
        app = App(config.default(), state_dir={str(tmp_path)!r}, screens=[], clock=clock,
                  log=lambda m: None)
        app.start()
        for event in (ButtonPress("A", 1001.0), Pot(1, 1002.0)):
            app.loop.put(event)
            app.loop.run_pending()
        assert app.match.snapshot()["score"]["A"] == 1
        assert table.run(app.controls(), "undo", {{"phone": "ab12cd"}}) == (True, WAITING)
        assert app.match.snapshot()["score"]["A"] == 1  # waits
        app.loop.put(ButtonPress("B", 1003.0))  # OK
        app.loop.run_pending()
        assert app.match.snapshot()["score"]["A"] == 0
        ok, _ = table.run(app.controls(), "undo", {{}})  # the club's, no phone: at once
        assert ok and app.match.snapshot()["phase"] == "lag"
        app.close()
        print("gated")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "gated", done.stderr


def test_a_command_that_fails_is_a_reply_never_a_crash():
    class App:
        def warn(self, message):
            self.said = message

    table, app = CommandTable(), App()
    table.add("boom", lambda app, args: 1 / 0)
    assert table.run(app, "boom", {}) == (False, "boom failed: division by zero")
    assert "ZeroDivisionError" in app.said
    ok, message = table.run(app, "nothing", {})
    assert not ok and message == "unknown command 'nothing' (known: boom)"
    assert WAITING == "waiting for OK at the table"  # pair.js reads these words
