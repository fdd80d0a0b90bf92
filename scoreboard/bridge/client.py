"""The network side of the socket: an asyncio client that connects, and connects again by
itself whenever the table restarts, and hands out what the table says.

    async with TableClient(socket_path(state_dir)) as table:
        async for message in table.messages():   # {"type": "state" | "event" | "link", ...}
            ...
        reply = await table.command("undo")      # {"type": "reply", "ok": ..., "message": ...}
                                                 # (TableUnreachable: not there, no answer)

`messages()` yields ``{"type": "link", "connected": bool}`` when the link comes or goes, and,
on each (re)connect, the table's state first. `state` always holds the last state message.
"""

import asyncio
import contextlib
import itertools
import json
import os

from scoreboard.bridge.protocol import MAX_LINE, command_message, encode

RETRY_FIRST, RETRY_MAX = 0.2, 2.0  # seconds between connection attempts, doubling
QUEUE_SIZE = 256  # a subscriber that falls this far behind loses its oldest messages


ANSWER_WITHIN = 5.0  # seconds a command waits for the table's reply


class TableUnreachable(ConnectionError):
    """The table is not connected, went away, or did not answer a command in time."""


class TableClient:
    def __init__(
        self,
        path: str | os.PathLike,
        *,
        retry_max: float = RETRY_MAX,
        answer_within: float = ANSWER_WITHIN,
    ) -> None:
        self.path = str(path)
        self.retry_max = retry_max
        self.answer_within = answer_within
        self.state: dict | None = None  # the last {"type": "state", ...} message
        self.connected = False
        self._subscribers: set[asyncio.Queue] = set()
        self._pending: dict[str, asyncio.Future] = {}
        self._ids = itertools.count(1)
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task | None = None

    async def __aenter__(self) -> "TableClient":
        self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="table-client")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def wait_connected(self, timeout: float | None = None) -> None:
        """Until the first state has arrived (the table is there and has spoken)."""
        queue = self.subscribe()
        try:
            async with asyncio.timeout(timeout):
                while self.state is None or not self.connected:
                    await queue.get()
        finally:
            self.unsubscribe(queue)

    # -- what the table says --------------------------------------------------------------------
    def subscribe(self) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
        self._subscribers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue) -> None:
        self._subscribers.discard(queue)

    async def messages(self):
        """Every message from now on, as it comes (the current state first, if known)."""
        queue = self.subscribe()
        try:
            if self.state is not None:
                yield self.state
            while True:
                yield await queue.get()
        finally:
            self.unsubscribe(queue)

    def _publish(self, message: dict) -> None:
        for queue in self._subscribers:
            if queue.full():  # it fell behind: the oldest goes (a later state supersedes it)
                queue.get_nowait()
            queue.put_nowait(message)

    # -- asking it ------------------------------------------------------------------------------
    async def command(self, cmd: str, **args) -> dict:
        """Send a command and return the table's reply (``ok`` false: it refused); raise
        :class:`TableUnreachable` when it is not there or does not answer in time."""
        id = f"c{next(self._ids)}"
        if self._writer is None or not self.connected:
            raise TableUnreachable("it is not connected")
        future = asyncio.get_running_loop().create_future()
        self._pending[id] = future
        try:
            self._writer.write(encode(command_message(id, cmd, **args)))
            async with asyncio.timeout(self.answer_within):
                return await future
        except TimeoutError:
            raise TableUnreachable(f"no answer in {self.answer_within:g} s") from None
        except ConnectionError as exc:
            raise TableUnreachable(f"it went away ({exc})") from None
        finally:
            self._pending.pop(id, None)

    # -- the link -------------------------------------------------------------------------------
    async def _run(self) -> None:
        delay = RETRY_FIRST
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(self.path, limit=MAX_LINE * 16)
            except OSError:
                await asyncio.sleep(delay)
                delay = min(delay * 2, self.retry_max)
                continue
            delay = RETRY_FIRST
            self._writer = writer
            try:
                await self._read(reader)
            except (OSError, ValueError, asyncio.IncompleteReadError):
                pass
            finally:
                self._writer = None
                writer.close()
                self._link(False)
                for future in self._pending.values():
                    if not future.done():
                        future.set_exception(TableUnreachable("the link closed"))
            await asyncio.sleep(RETRY_FIRST)

    def _link(self, up: bool) -> None:
        if self.connected != up:
            self.connected = up
            self._publish({"type": "link", "connected": up})

    async def _read(self, reader: asyncio.StreamReader) -> None:
        while line := await reader.readline():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            kind = message.get("type")
            if kind == "reply":
                future = self._pending.get(message.get("id"))
                if future is not None and not future.done():
                    future.set_result(message)
                continue
            if kind == "state":
                self.state = message
                self._link(True)
            self._publish(message)
