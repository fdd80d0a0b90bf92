"""Updates of a card image's table (issue 23): a signed RAUC bundle installed between matches.

The card has two root slots; RAUC writes the bundle's root into the one not running, after
checking its signature against the club's key (/etc/rauc/keyring.pem, the only one in the
image), and marks that slot to boot next, on trial (image/root/usr/lib/scoreboard-image/
boot-slots). The table then reboots into it and keeps it once it says READY=1
(scoreboard-boot-check.service); else, after its tries, the old version boots again.

Why RAUC: it is in Debian (no build of our own), it verifies a bundle's signature (CMS, with
the club's own CA) before anything is written, writes whole slots, and leaves the boot choice
to a small script of ours (its custom bootloader backend), so the same logic runs on a Pi's
firmware and in QEMU. SWUpdate and Mender need their own builds or a server.

`Updater` is the flow; what it runs (rauc, systemctl) and how it waits are passed in, so the
order of its steps is tested without a card.
"""

import json
import subprocess
import time
from collections.abc import Callable

from scoreboard.core.phase import Phase

BETWEEN = (Phase.LAG.value, Phase.MATCH_OVER.value)  # nothing played yet, or the match over


class UpdateError(Exception):
    """The update cannot be installed; the message says why and what to do."""


def between_matches(snapshot: dict) -> bool:
    """No frame under way: before the first frame's lag is decided, or the match is over.
    A table in the middle of a match is never rebooted."""
    return snapshot.get("phase") in BETWEEN and not snapshot.get("setup")


def last_line(done: subprocess.CompletedProcess) -> str:
    """What a failed command said last (RAUC's reason), or its exit status."""
    said = (done.stderr or done.stdout).strip().splitlines()
    return said[-1] if said else f"exit status {done.returncode}"


def run_command(argv: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, check=False)


class Updater:
    def __init__(
        self,
        bundle: str,
        *,
        snapshot: Callable[[], dict],
        run: Callable[[list[str]], subprocess.CompletedProcess] = run_command,
        sleep: Callable[[float], None] = time.sleep,
        say: Callable[[str], None] = print,
        poll: float = 10.0,
        before_reboot: Callable[[], None] = lambda: None,
    ):
        self.bundle, self.snapshot, self.run, self.sleep, self.say = (
            bundle,
            snapshot,
            run,
            sleep,
            say,
        )
        self.poll, self.before_reboot = poll, before_reboot

    def check(self) -> dict:
        """The bundle's manifest, once RAUC has checked its signature against the club's key."""
        done = self.run(["rauc", "info", "--output-format=json", self.bundle])
        if done.returncode != 0:
            raise UpdateError(
                f"refused: {self.bundle} is not an update signed with this club's key "
                f"({last_line(done)}); nothing was installed"
            )
        try:
            return json.loads(done.stdout)
        except ValueError:
            return {}

    def wait_between_matches(self) -> None:
        said = False
        while not between_matches(self.snapshot()):
            if not said:
                self.say("a match is under way: the update waits for it to end")
                said = True
            self.sleep(self.poll)

    def install(self) -> str:
        """Check, wait for the match to end, install into the other slot, and reboot into it
        (again only between matches). Returns the version installed."""
        manifest = self.check()
        version = manifest.get("version") or "?"
        self.say(f"update to {version}: signed with the club's key")
        self.wait_between_matches()
        self.say(f"installing {version} into the other slot")
        done = self.run(["rauc", "install", self.bundle])
        if done.returncode != 0:
            raise UpdateError(f"rauc install failed: {last_line(done)}")
        self.wait_between_matches()  # a match begun during the install finishes first
        self.before_reboot()
        self.say(f"rebooting into {version}; the old version comes back by itself if it fails")
        self.run(["systemctl", "reboot"])
        return version
