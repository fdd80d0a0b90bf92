"""The systemd side of the appliance (Type=notify): READY=1 once the first frame is shown,
then WATCHDOG=1 from the event loop itself, so a hung loop stops the pings and is restarted."""

import os


class Service:
    def __init__(self, notifier, loop) -> None:
        self.notifier = notifier  # sdnotify's SystemdNotifier, or None (tests, sim)
        self.loop = loop

    def ready(self) -> None:
        self._notify("READY=1")
        usec = os.environ.get("WATCHDOG_USEC")
        if usec and usec.isdigit():
            self._watchdog(int(usec) / 2e6)  # twice within systemd's WatchdogSec

    def _watchdog(self, every: float) -> None:
        self._notify("WATCHDOG=1")
        self.loop.call_later(every, lambda: self._watchdog(every))

    def _notify(self, message: str) -> None:
        if self.notifier is not None:
            self.notifier.notify(message)
