"""Benchmark: `scoreboard net`'s memory under chunked bodies it refuses (issue 21). Prints the
process's resident memory before and after; asserts nothing.

The production app (net/server.py make_app) on a loopback port, in this process. Each round,
8 clients at once open a session (`GET /api/session`, open to anyone) and post a chunked body
of 2 MiB to `/api/pair` with the session's token and the table's own Origin; aiohttp read up
to 1 MiB of each before its 413 and kept it, so 8 in parallel grew the process to 2 GB in 12 s.

Run: .venv/bin/python bench/attack_memory.py [--rounds 20] [--clients 8]
"""

import argparse
import asyncio
import tempfile
from collections import Counter

import aiohttp
from aiohttp import web

from scoreboard.net import security
from scoreboard.net.server import make_app

CHUNK = b"x" * 65536


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def attack(url: str, statuses: Counter) -> None:
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        async with http.get(url + "/api/session") as r:
            csrf = (await r.json())["csrf"]

        async def body():
            for _ in range(32):  # 2 MiB
                yield CHUNK

        headers = {
            "Origin": url,
            security.CSRF_HEADER: csrf,
            "Content-Type": "application/json",
        }
        try:
            async with http.post(url + "/api/pair", data=body(), headers=headers) as r:
                statuses[r.status] += 1
        except aiohttp.ClientError as exc:
            statuses[type(exc).__name__] += 1


async def main(rounds: int, clients: int) -> None:
    with tempfile.TemporaryDirectory() as state_dir:
        runner = web.AppRunner(make_app(state_dir, lang="en"))
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        url = f"http://127.0.0.1:{port}"
        statuses: Counter = Counter()
        await attack(url, statuses)  # warm: the first session, the app's own caches
        before = rss_mb()
        for _ in range(rounds):
            await asyncio.gather(*(attack(url, statuses) for _ in range(clients)))
        after = rss_mb()
        await runner.cleanup()
    sent = rounds * clients * 2
    print(f"{rounds} rounds of {clients} chunked 2 MiB bodies ({sent} MiB offered)")
    print(f"answers: {dict(statuses)}")
    print(f"scoreboard net RSS before {before:.1f} MB, after {after:.1f} MB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8)
    args = parser.parse_args()
    asyncio.run(main(args.rounds, args.clients))
