"""An update the club offers, fetched by a card-image table (issue 23).

The club's desk publishes the offer (topics.UPDATE, retained): a version, its SHA-256, size
and address. A table that runs another version fetches the file over HTTP into
<state_dir>/updates/, checks the size and the SHA-256, and then names it in
<state_dir>/updates/ready. That is all this (unprivileged) network process does: the image's
scoreboard-update.path sees `ready` and runs `scoreboard update --ready` as root, which has
RAUC check the club's signature and installs it between matches. The transport is trusted
for nothing: a file that is not the club's is refused there, whoever served it.

A table installed with systemd/install.sh (no image release) never fetches: it is updated
with git and install.sh.
"""

import hashlib
import logging
import os
import threading
import urllib.request
from pathlib import Path

from scoreboard import release

LOGGER = logging.getLogger("scoreboard.mqtt")
READY = "ready"
CHUNK = 1 << 20
TIMEOUT = 60.0  # seconds without a byte before a fetch gives up (the next offer tries again)


def folder(state_dir) -> Path:
    return Path(state_dir) / "updates"


def wanted(offer: dict | None, running: str) -> bool:
    """Whether to fetch `offer`: a card image, offered another version than it runs."""
    return bool(offer) and bool(release.fields()) and offer["version"] != running


def fetch(offer: dict, state_dir, *, opener=urllib.request.urlopen) -> Path:
    """Downloads the offer into the updates folder, checked; names it in `ready`. Returns
    the file. Raises OSError (the network, the disk) or ValueError (size or SHA-256 wrong)."""
    where = folder(state_dir)
    where.mkdir(mode=0o750, exist_ok=True)
    final = where / f"{offer['sha256']}.raucb"
    if not final.exists():
        part = final.with_suffix(".part")
        digest, size = hashlib.sha256(), 0
        with opener(offer["url"], timeout=TIMEOUT) as response, open(part, "wb") as out:
            while chunk := response.read(CHUNK):
                size += len(chunk)
                if size > offer["size"]:
                    break
                digest.update(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        if size != offer["size"] or digest.hexdigest() != offer["sha256"]:
            part.unlink(missing_ok=True)
            raise ValueError(
                f"the file at {offer['url']} is not the update offered "
                f"({size} bytes, SHA-256 {digest.hexdigest()[:12]}…)"
            )
        os.replace(part, final)
    for old in where.glob("*.raucb"):  # only the one offered is kept
        if old != final:
            old.unlink(missing_ok=True)
    ready = where / READY
    ready.with_suffix(".new").write_text(final.name + "\n")
    os.replace(ready.with_suffix(".new"), ready)
    return final


class UpdateOffers:
    """Fetches each new offer once, on a thread of its own: the publisher never waits."""

    def __init__(self, state_dir, *, running: str | None = None, start=None):
        self.state_dir = state_dir
        self.running = running or release.version()
        self._start = start or (lambda fn: threading.Thread(target=fn, daemon=True).start())
        self._taken: set[str] = set()

    def offered(self, offer: dict | None) -> bool:
        """An offer from the broker; True if a fetch was started."""
        if not wanted(offer, self.running) or offer["sha256"] in self._taken:
            return False
        self._taken.add(offer["sha256"])

        def run():
            try:
                path = fetch(offer, self.state_dir)
            except (OSError, ValueError) as exc:
                LOGGER.warning("update %s not fetched: %s", offer["version"], exc)
                self._taken.discard(offer["sha256"])  # offered again: tried again
                return
            LOGGER.info(
                "update %s fetched (%s): installed between matches", offer["version"], path.name
            )

        self._start(run)
        return True
