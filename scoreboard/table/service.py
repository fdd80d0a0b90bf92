"""The systemd side of the appliance (Type=notify): READY=1 once the first frame is shown,
then WATCHDOG=1 from the event loop itself, so a hung loop stops the pings and is restarted."""

import os


def systemd_notifier():
    """sdnotify's SystemdNotifier on a socket that never blocks the loop.

    Its socket blocks by default: a notify socket whose reader is behind holds only
    net.unix.max_dgram_qlen datagrams (10), and the next send then waits until it reads. On
    the loop's thread that stopped the display, the pages, the watchdog, and a SIGTERM too
    (its handler ran, but the loop stayed in the send). Non-blocking, a full queue refuses
    the message at once; sdnotify then raises (`debug`) so :class:`Service` knows it did not
    go: a watchdog ping is left for the next one, READY=1 is sent again until it goes."""
    import sdnotify

    notifier = sdnotify.SystemdNotifier()
    if notifier.socket is not None:  # None without NOTIFY_SOCKET (not under systemd)
        notifier.socket.setblocking(False)
        notifier.debug = True  # raise what a send meets, instead of ignoring it
    return notifier


RESEND_SECONDS = 0.2  # READY=1 again, while systemd's notify queue is full


class Service:
    def __init__(self, notifier, loop) -> None:
        self.notifier = notifier  # systemd_notifier(), or None (tests, sim)
        self.loop = loop

    def ready(self) -> None:
        # Never lost: without READY=1 systemd would stop the table at TimeoutStartSec.
        self._until_sent("READY=1")
        usec = os.environ.get("WATCHDOG_USEC")
        if usec and usec.isdigit():
            self._watchdog(int(usec) / 2e6)  # twice within systemd's WatchdogSec

    def _until_sent(self, message: str) -> None:
        if not self._notify(message):
            self.loop.call_later(RESEND_SECONDS, lambda: self._until_sent(message))

    def _watchdog(self, every: float) -> None:
        self._notify("WATCHDOG=1")  # one refused by a full queue: the next one follows
        self.loop.call_later(every, lambda: self._watchdog(every))

    def _notify(self, message: str) -> bool:
        """Send ``message``; False only if systemd's queue is full (worth sending again)."""
        if self.notifier is not None:
            try:
                self.notifier.notify(message)
            except BlockingIOError:
                return False
            except OSError:
                pass  # no systemd listening: as sdnotify itself would, carry on
        return True
