"""What a command from the local socket may do at the table (table/commands.py,
table/phone_commands.py): this narrow interface, never the App. Every call runs on the
table's loop thread, as a button press does."""

from scoreboard.texts.i18n import translator
from scoreboard.texts.messages import hint_text
from scoreboard.texts.words import Timings, Words


class Controls:
    def __init__(self, app) -> None:
        self._app = app

    def press(self, button: str):
        """A button pressed from outside (UNDO from a phone or the club): the hint it left."""
        return self._app.remote_press(button)

    def say(self, hint, lang: str = "en") -> str:
        """A hint as the display says it, in `lang`."""
        if hint is None:
            return ""
        return hint_text(
            hint, Words(translator(lang), Timings.from_config(self._app.config.timings))
        )

    def ask_ok(self, what: str, phone: str, run) -> str:
        """A phone's change to the match in play: it waits for an OK press at the table."""
        return self._app.phone.ask_ok(what, phone, run)

    def show_code(self, code: str, url: str, seconds: float) -> None:
        self._app.phone.show_code(code, url, seconds)

    def paired(self) -> None:
        self._app.phone.paired()

    def submit(self, event) -> None:
        """An event for the table, taken now (we are on its loop's thread already)."""
        self._app.handle(event)

    def set_roster(self, names: list[str]) -> None:
        self._app.desk.set_roster(names)

    def warn(self, message: str) -> None:
        self._app.warn(message)

    def show(self) -> None:
        self._app.show()
