"""What a client of the socket may ask the table to do: each command runs on the table's
loop thread (like a button press), and answers (ok, message).

Another package adds its own with ``@command("name")``; the net process decides who may send
which (pairing), the table only does what it is asked.
"""

from collections.abc import Callable

from scoreboard.display.i18n import translator
from scoreboard.display.screens.faults import HINTS
from scoreboard.display.words import Timings, Words
from scoreboard.inputs.events import ButtonPress

COMMANDS: dict[str, Callable] = {}
FAILED_HINTS = {"nothing-to-undo", "refused"}


def command(name: str):
    """Register ``fn(app, args: dict) -> (ok: bool, message: str)`` as the command `name`."""

    def register(fn):
        COMMANDS[name] = fn
        return fn

    return register


def run(app, name: str, args: dict) -> tuple[bool, str]:
    """Run a command on the loop's thread; an unknown one or one that fails is a reply."""
    fn = COMMANDS.get(name)
    if fn is None:
        return False, f"unknown command {name!r} (known: {', '.join(sorted(COMMANDS))})"
    try:
        return fn(app, args)
    except Exception as exc:  # a bad command must never stop the table
        app.warn(f"bridge: command {name} failed: {exc!r}")
        return False, f"{name} failed: {exc}"


def hint_text(app, hint, lang: str = "en") -> str:
    """The app's hint as the display says it, in `lang`."""
    if hint is None:
        return ""
    key, fields = hint if isinstance(hint, tuple) else (hint, ())
    words = Words(translator(lang), Timings.from_config(app.config.timings))
    return words.timed(HINTS[key]).format(**dict(fields)) if key in HINTS else str(key)


@command("undo")
def undo(app, args: dict) -> tuple[bool, str]:
    """UNDO as if pressed at the table (takes back the last step, docs/decisions.md)."""
    press = ButtonPress("undo", app.loop.clock())
    app.saver.woken_by(press)  # a remote UNDO wakes the screens and still acts
    app.drop_question()  # an UNDO, never the answer "new match" to UNDO held
    app.hint = None
    app.handle(press)
    key = app.hint[0] if isinstance(app.hint, tuple) else app.hint
    return key not in FAILED_HINTS, hint_text(app, app.hint) or "done"
