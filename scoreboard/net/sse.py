"""Server-Sent Events to many browsers, none of which can hold up another or grow the server.

Each client has a small queue of encoded messages. A client that does not read lets its queue
fill (aiohttp's write waits on its socket): the next message drops it, aborting its
connection, so 50 clients that never read cost at most their queue and socket buffers each.
"""

import asyncio
import json

from aiohttp import web

HEARTBEAT_SECONDS = 2.0
QUEUE_SIZE = 16  # messages waiting for one client before it counts as not reading
RETRY_MS = 1000  # how soon a browser's EventSource connects again


def sse(event: str, data) -> bytes:
    """One SSE message; `data` as one line of JSON."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"event: {event}\ndata: {text}\n\n".encode()


class Client:
    def __init__(self, transport) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE_SIZE)
        self.transport = transport


class Hub:
    """The SSE clients of one server: `publish()` the latest state, `stream()` a request."""

    def __init__(self, *, heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.heartbeat = heartbeat
        self.clients: set[Client] = set()
        self.current: bytes | None = None  # the last state, sent to each client on connect
        self.dropped = 0

    def publish(self, message: bytes, *, state: bool = True) -> None:
        if state:
            self.current = message
        for client in list(self.clients):
            try:
                client.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.drop(client)

    def drop(self, client: Client) -> None:
        self.dropped += 1
        self.clients.discard(client)
        if client.transport is not None:
            client.transport.abort()  # its buffers go now; its handler ends on the next write

    def close(self) -> None:
        """The server stops: every stream ends."""
        for client in list(self.clients):
            self.clients.discard(client)
            if client.transport is not None:
                client.transport.abort()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        client = Client(request.transport)
        self.clients.add(client)
        try:
            first = f"retry: {RETRY_MS}\n\n".encode() + (self.current or b"")
            await response.write(first)
            while client in self.clients:
                try:
                    async with asyncio.timeout(self.heartbeat):
                        message = await client.queue.get()
                except TimeoutError:
                    message = sse("heartbeat", {})
                await response.write(message)
        except (ConnectionError, RuntimeError):
            pass  # gone, or dropped for not reading
        finally:
            self.clients.discard(client)
        return response
