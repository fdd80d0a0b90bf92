"""When the settings cannot be used: the mistake on the table's displays, in words, until the
file changes.

A card image's settings are edited from a PC on its boot partition, with no keyboard or
SSH at the table (issue 23): a table that only stopped would leave the club guessing. So
`scoreboard run`, refused by its config, comes here instead: the displays the file's
[display] names (the default's where that part is wrong) show which file, which line, what
is wrong and what to do, a page every PAGE_SECONDS; systemd hears READY=1 and then
WATCHDOG=1 as from the table; once the file changes (or SIGTERM), `run` returns and systemd
starts the table again, with the new file. Nothing is written: no journal is opened.
"""

import contextlib
import hashlib
import logging
import os
import threading
from pathlib import Path

from scoreboard.config import ConfigError

log = logging.getLogger("scoreboard")

PAGE_SECONDS = 4.0  # each page of the text stays this long
TICK_SECONDS = 1.0  # the file is looked at, and WATCHDOG=1 sent, this often
TITLE = "Settings mistake"


def explain(error: ConfigError, path) -> str:
    """The words on the display: where, what, and what to do about it."""
    name = Path(path).name
    where = f"{name}, line {error.line}" if error.line else name
    what = str(error)
    for prefix in (f"{error.path}:{error.line}: ", f"{error.path}: "):
        if error.path is not None and what.startswith(prefix):
            what = what[len(prefix) :]
            break
    return (
        f"{where}: {what}\n"
        f"Fix it in {name} (on a card: its boot partition, from any computer; "
        f"here: {path}). The table starts by itself once the file is saved."
    )


def signature(path) -> tuple | None:
    """What changes when the file is saved again (None: it cannot be read)."""
    try:
        data = Path(path).read_bytes()
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest()


class MistakeScreen:
    """Shows `error` on `screens` until `path` changes or `stop` is set."""

    def __init__(self, path, error: ConfigError, screens, *, notifier=None):
        self.path, self.error, self.screens, self.notifier = path, error, screens, notifier
        self.text = explain(error, path)
        self.page = 0
        self.pages = 1

    def show(self) -> None:
        counts = [s.show_notice(TITLE, self.text, page=self.page) for s in self.screens]
        self.pages = max(counts, default=1)

    def notify(self, message: str) -> None:
        if self.notifier is not None:
            # BlockingIOError too: the next tick sends again.
            with contextlib.suppress(OSError):
                self.notifier.notify(message)

    def run(self, stop: threading.Event) -> str:
        """Until the file changes ("changed") or `stop` is set ("stopped")."""
        seen = signature(self.path)
        self.show()
        shown = ", ".join(s.name for s in self.screens) or "no display"
        log.error(
            "the settings cannot be used; shown on %s: %s", shown, self.text.replace("\n", " ")
        )
        self.notify("READY=1")
        self.notify(f"STATUS={TITLE}: {self.text.splitlines()[0]}")
        since_page = 0.0
        while not stop.wait(TICK_SECONDS):
            self.notify("WATCHDOG=1")
            if signature(self.path) != seen:
                log.info("%s changed: starting again with it", self.path)
                return "changed"
            since_page += TICK_SECONDS
            if since_page >= PAGE_SECONDS and self.pages > 1:
                since_page = 0.0
                self.page = (self.page + 1) % self.pages
                self.show()
        return "stopped"
