"""A server for tests/test_attack_connections.py, in a process that may open few files: the
production `Served` with the cap it computes. On stdin: `stall` blocks its loop for 1.5 s
(a busy machine) after printing `stalled`; `report` prints what it counted as JSON: the
connections open and refused, and how often asyncio's accept failed for want of files."""

import asyncio
import json
import resource
import sys
import threading
import time

from aiohttp import web

from scoreboard.net.listen import Connections, Served


async def ok(request):
    return web.Response(text="ok")


async def main() -> None:
    loop = asyncio.get_running_loop()
    failed = []
    loop.set_exception_handler(lambda loop, context: failed.append(context.get("message")))
    app = web.Application()
    app.router.add_get("/ok", ok)
    served = Served(app, Connections(request_within=300.0))  # the held ones stay
    port = (await served.start("127.0.0.1", 0))[0][1]
    print(json.dumps({"port": port, "cap": served.connections.at_most}), flush=True)
    done = asyncio.Event()

    def stall() -> None:
        print("stalled", flush=True)
        time.sleep(1.5)

    def report() -> None:
        c = served.connections
        resource_failures = sum("out of system resource" in str(m) for m in failed)
        print(json.dumps({"open": c.open, "refused": c.refused, "failed": resource_failures}))
        sys.stdout.flush()

    def commands() -> None:
        for line in sys.stdin:
            word = line.strip()
            if word == "stall":
                loop.call_soon_threadsafe(stall)
            elif word == "report":
                loop.call_soon_threadsafe(report)
        loop.call_soon_threadsafe(done.set)

    threading.Thread(target=commands, daemon=True).start()
    await done.wait()
    await served.stop()


if __name__ == "__main__":
    files = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))
    asyncio.run(main())
