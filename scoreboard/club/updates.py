"""Updates for the tables from the club's desk (issue 23).

The staff send a signed update (the .raucb `make image` built) to `POST /api/updates`; the
club keeps it in its data folder as <sha256>.raucb, serves it at `GET /updates/<sha256>.raucb`
and offers it to every table on the broker (topics.UPDATE, retained): its version (from the
file's name, scoreboard-<version>-arm64.raucb), SHA-256, size and address. Each card-image
table fetches it, checks the SHA-256, and installs it between matches once RAUC has checked
the club's signature (scoreboard/mqtt/update_offer.py, `scoreboard update --ready`): the club
holds no key, and a file that is not signed with it goes nowhere. `GET /api/updates` says
what is offered and which version each table runs (its `info`); `DELETE` withdraws it.
"""

import asyncio
import hashlib
import json
import os
import re
from pathlib import Path

from aiohttp import web

from scoreboard.mqtt import topics

NAME = re.compile(r"^scoreboard-([A-Za-z0-9._+~-]{1,40})-arm64\.raucb$")
OFFER = "offer.json"


class Updates:
    """`club`: check_staff(request), client (publish_update), hall. `folder`: where the file goes."""

    def __init__(self, club, folder: Path | None):
        self.club, self.folder = club, folder

    def routes(self) -> list:
        return [
            web.get("/api/updates", self.show),
            web.post("/api/updates", self.upload),
            web.delete("/api/updates", self.withdraw),
            web.get("/updates/{file}", self.serve),
        ]

    def offer(self) -> dict | None:
        try:
            return json.loads((self.folder / OFFER).read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            return None

    async def show(self, request: web.Request) -> web.Response:
        tables = [
            {
                "table": v["table"],
                "name": v["name"],
                "version": v.get("version"),
                "online": v["online"],
            }
            for v in self.club.hall.views()
        ]
        return web.json_response({"offer": self.offer(), "tables": tables})

    async def upload(self, request: web.Request) -> web.Response:
        self.club.check_staff(request)
        if self.folder is None:
            raise web.HTTPServiceUnavailable(text="the club keeps no files (no data folder)")
        if self.club.client is None or not self.club.linked:
            raise web.HTTPServiceUnavailable(text="the club is not connected to the broker")
        name = request.query.get("name", "")
        found = NAME.match(name)
        if not found:
            raise web.HTTPBadRequest(
                text="name the file as make image does: scoreboard-<version>-arm64.raucb"
            )
        self.folder.mkdir(parents=True, exist_ok=True)
        part = self.folder / "upload.part"
        digest, size = hashlib.sha256(), 0
        with open(part, "wb") as out:
            async for chunk in request.content.iter_chunked(1 << 20):
                size += len(chunk)
                if size > topics.MAX_UPDATE_BYTES:
                    out.close()
                    part.unlink(missing_ok=True)
                    raise web.HTTPRequestEntityTooLarge(
                        max_size=topics.MAX_UPDATE_BYTES, actual_size=size
                    )
                digest.update(chunk)
                await asyncio.to_thread(out.write, chunk)
            await asyncio.to_thread(os.fsync, out.fileno())
        if size == 0:
            part.unlink(missing_ok=True)
            raise web.HTTPBadRequest(text="the file is empty")
        sha = digest.hexdigest()
        os.replace(part, self.folder / f"{sha}.raucb")
        for old in self.folder.glob("*.raucb"):
            if old.name != f"{sha}.raucb":
                old.unlink(missing_ok=True)
        url = f"{request.scheme}://{request.host}/updates/{sha}.raucb"
        offer = {"version": found.group(1), "sha256": sha, "size": size, "url": url}
        (self.folder / OFFER).write_text(json.dumps(offer), encoding="utf-8")
        self.club.client.update(offer)
        return web.json_response({"ok": True, "offer": offer})

    async def withdraw(self, request: web.Request) -> web.Response:
        self.club.check_staff(request)
        if self.club.client is None or not self.club.linked:
            raise web.HTTPServiceUnavailable(text="the club is not connected to the broker")
        if self.folder is not None:
            (self.folder / OFFER).unlink(missing_ok=True)
        self.club.client.update(None)
        return web.json_response({"ok": True})

    async def serve(self, request: web.Request) -> web.StreamResponse:
        file = request.match_info["file"]
        offer = self.offer()
        if self.folder is None or not offer or file != f"{offer['sha256']}.raucb":
            raise web.HTTPNotFound(text="no such update")
        return web.FileResponse(self.folder / file)
