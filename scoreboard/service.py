"""The systemd side of the appliance (Type=notify): READY=1 once the first frame is shown,
then WATCHDOG=1 from the event loop itself, so a hung loop stops the pings and is restarted."""

import os


def systemd_notifier():
    """sdnotify's SystemdNotifier on a socket that never blocks the loop.

    Its socket blocks by default: a notify socket whose reader is behind holds only
    net.unix.max_dgram_qlen datagrams (10), and the next send then waits until it reads. On
    the loop's thread that stopped the display, the pages, the watchdog, and a SIGTERM too
    (its handler ran, but the loop stayed in the send). Non-blocking, a full queue costs one
    message (sdnotify drops it: its errors are ignored), never the table."""
    import sdnotify

    notifier = sdnotify.SystemdNotifier()
    if notifier.socket is not None:  # None without NOTIFY_SOCKET (not under systemd)
        notifier.socket.setblocking(False)
    return notifier


class Service:
    def __init__(self, notifier, loop) -> None:
        self.notifier = notifier  # systemd_notifier(), or None (tests, sim)
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
