"""An aiohttp application served on a TCP port with its connections bounded (issue 21).

aiohttp keeps a connection as long as its client likes: a client that sends a request's
head a byte at a time, or never ends it, holds it for ever. 1,100 such clients took the
process's 1,024 files, and asyncio's accept loop then wrote 232,050 tracebacks (94 MB of
log) in 40 s. Here every connection

- counts against a cap for its address and one for all: over either, it is closed at once,
  before a byte of it is read, so the files never run out and accept never fails;
- must bring its first request's head within ``REQUEST_WITHIN`` seconds, or is closed; the
  next request on it too (aiohttp's keep-alive timeout, set to the same);
- must bring a body it announced within the same time (:func:`read_body`).

aiohttp's own protocol serves each connection; :class:`Connections` only wraps it.
"""

import asyncio
import contextlib
import ipaddress
import os
import resource
import signal
import socket

from aiohttp import web

REQUEST_WITHIN = 10.0  # seconds for a request's head (and its body) to arrive
PER_ADDRESS = 64  # connections from one address (a phone, OBS, a browser's tabs)
AT_MOST = 1024  # connections in all, lowered to fit the files the process may open
# asyncio accepts up to the backlog's count of connections at once before any is counted: the
# files kept free must hold those, besides the process's own (its journal, the socket, logs).
BACKLOG = 32
FILES_KEPT = BACKLOG + 64


def connection_cap(at_most: int = AT_MOST) -> int:
    """How many connections may be open at once: `at_most`, or fewer if the process may
    not open that many files (its soft limit is raised to the hard one first)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = at_most + FILES_KEPT
        if soft != resource.RLIM_INFINITY and soft < wanted:
            with contextlib.suppress(ValueError, OSError):
                soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
                resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
            soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return at_most
    return max(1, min(at_most, soft - max(FILES_KEPT, _open_files() + BACKLOG + 16)))


def _open_files() -> int:
    """The files this process has open now (0 where /proc does not say)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


class Connections:
    """The open connections of one server, by address; see the module's docstring."""

    def __init__(
        self,
        *,
        per_address: int = PER_ADDRESS,
        at_most: int | None = None,
        request_within: float | None = None,
    ) -> None:
        self.per_address = per_address
        self.at_most = connection_cap() if at_most is None else at_most
        self.request_within = REQUEST_WITHIN if request_within is None else request_within
        self.by_address: dict[str, int] = {}
        self.refused = 0  # closed at once: over a cap (a figure for tests and benches)
        self.timed_out = 0  # closed: no request's head in time
        self._waiting: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}

    @property
    def open(self) -> int:
        return sum(self.by_address.values())

    def protocol_factory(self, make):
        """Wrap `make` (aiohttp's protocol factory, the runner's server) for create_server."""
        return lambda: _Counted(self, make())

    @web.middleware
    async def middleware(self, request: web.Request, handler):
        """A request's head arrived: its connection's deadline is met."""
        timer = self._waiting.pop(request.transport, None)
        if timer is not None:
            timer.cancel()
        return await handler(request)

    # -- _Counted's --------------------------------------------------------------------------
    def admit(self, transport: asyncio.BaseTransport) -> str | None:
        """The connection's address if it may stay, else None (and it is to be closed)."""
        address = _address(transport)
        if self.by_address.get(address, 0) >= self.per_address or self.open >= self.at_most:
            self.refused += 1
            return None
        self.by_address[address] = self.by_address.get(address, 0) + 1
        loop = asyncio.get_running_loop()
        self._waiting[transport] = loop.call_later(self.request_within, self._late, transport)
        return address

    def gone(self, transport: asyncio.BaseTransport, address: str) -> None:
        timer = self._waiting.pop(transport, None)
        if timer is not None:
            timer.cancel()
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    def _late(self, transport: asyncio.BaseTransport) -> None:
        if self._waiting.pop(transport, None) is not None:
            self.timed_out += 1
            transport.abort()


class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, counted: it sees the connection only if the
    connection may stay."""

    def __init__(self, connections: Connections, inner: asyncio.Protocol) -> None:
        self.connections, self.inner = connections, inner
        self.address: str | None = None
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport) -> None:
        self.address = self.connections.admit(transport)
        if self.address is None:
            transport.abort()  # connection_lost follows; aiohttp never saw it
            return
        self.transport = transport
        self.inner.connection_made(transport)

    def connection_lost(self, exc) -> None:
        if self.address is None:
            return
        self.connections.gone(self.transport, self.address)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.address is not None:
            self.inner.data_received(data)

    def eof_received(self):
        return self.inner.eof_received() if self.address is not None else None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


def _address(transport: asyncio.BaseTransport) -> str:
    """Who a connection counts against: its IPv4 address, or its IPv6 /64 (one machine may
    use as many addresses of its network as it likes)."""
    peer = transport.get_extra_info("peername")
    if not (isinstance(peer, tuple) and peer):
        return "?"
    try:
        address = ipaddress.ip_address(str(peer[0]).split("%")[0])
    except ValueError:
        return str(peer[0])
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


async def read_body(request: web.Request) -> bytes:
    """The body a request announced (its Content-Length), within REQUEST_WITHIN seconds:
    TimeoutError if it did not come in time."""
    async with asyncio.timeout(REQUEST_WITHIN):
        return await request.read()


class Served:
    """An application served with its connections bounded: :meth:`start`, :meth:`stop`."""

    def __init__(self, app: web.Application, connections: Connections | None = None) -> None:
        self.connections = connections or Connections()
        app.middlewares.insert(0, self.connections.middleware)
        self.runner = web.AppRunner(
            app, keepalive_timeout=self.connections.request_within, shutdown_timeout=2
        )
        self._servers: list[asyncio.Server] = []

    async def start(self, host: str | None, port: int) -> list[tuple]:
        """Listen on `host` (None: every address) and `port` (0: a free one); the addresses
        listened on. OSError if the port cannot be had."""
        await self.runner.setup()
        loop = asyncio.get_running_loop()
        factory = self.connections.protocol_factory(self.runner.server)
        server = await loop.create_server(factory, host, port, reuse_address=True, backlog=BACKLOG)
        self._servers.append(server)
        return [s.getsockname() for s in server.sockets if s.family != socket.AF_UNIX]

    async def stop(self) -> None:
        for server in self._servers:
            server.close()
        await self.runner.cleanup()
        for server in self._servers:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2)


async def serve_until_stopped(served: Served, host: str | None, port: int, *, started=None):
    """Serve until SIGTERM or SIGINT (as web.run_app does); `started(addresses)` once
    listening."""
    addresses = await served.start(host, port)
    if started is not None:
        started(addresses)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await served.stop()
