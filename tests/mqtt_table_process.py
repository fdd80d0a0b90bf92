"""A table's network side in a process of its own, for the fault tests: the real publisher
on a real broker, fed one state of a match in play; prints "ready" once the broker has it.
Killed with SIGKILL by the test, so the broker's Last Will must say it went.

    python tests/mqtt_table_process.py PORT TABLE STATE_DIR KEEPALIVE
"""

import asyncio
import sys

from helpers import until
from mqtt_table import Feed, match_lines, state_message

from scoreboard import config as configuration
from scoreboard.mqtt.publisher import Publisher


async def main(port: str, table: str, state_dir: str, keepalive: str) -> None:
    config = configuration.loads(
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {port}\ntable = "{table}"\n'
        f"keepalive = {keepalive}\n"
    )
    publisher = Publisher(config, state_dir=state_dir)
    publisher.start()
    feed = Feed()
    feed.put(state_message(match_lines("2026-12-03T10:00:00Z", pots=(3,))))
    task = asyncio.ensure_future(publisher.follow(feed))
    await until(lambda: publisher.connected and publisher.state, what="the broker")
    print("ready", flush=True)
    await task


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
