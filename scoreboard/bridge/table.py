"""The table's side of the socket: an asyncio server on a thread of its own.

The app's loop thread only calls :meth:`TableBridge.shown` and :meth:`TableBridge.written`
(the app's observers), which encode a line and hand it over with ``call_soon_threadsafe``: a
non-blocking write to a pipe, whatever the clients do. Each client's unsent lines are bounded
(``buffer_limit``); a client that lets them grow past it is dropped. Commands from a client are
put on the app's one queue as :class:`BridgeCommand` and run on the loop thread like a button.
"""

import asyncio
import contextlib
import os
import socket
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scoreboard.bridge.protocol import (
    MAX_LINE,
    Command,
    ProtocolError,
    encode,
    event_message,
    parse_command,
    reply_message,
    state_message,
)
from scoreboard.bridge.rates import Rates

BUFFER_LIMIT = 256 * 1024  # a client's unsent bytes before it counts as not reading
# Commands waiting for the table's loop: a client may have this many, all clients this many;
# more are answered "busy" at once, never queued (issue 21: 30 s of `setup` over the socket
# queued 952,950 of them and the table grew to 1.25 GB).
WAITING_PER_CLIENT = 4
WAITING_AT_MOST = 16
# And how often: a client may send this many at once, then so many a second; all clients
# together twice that. The net process (every phone's writes, at most 2 a second each, and the
# club's assigns) is one client. A button waits behind these at most: never a flood.
COMMANDS_BURST, COMMANDS_PER_SECOND = 20, 10.0
CLIENTS_AT_MOST = 32  # more connections are closed at once (the net process needs one)
# A command the loop takes later than this is withdrawn, not run, and says so: before its
# client gives up on the answer (bridge/client.py ANSWER_WITHIN, 5 s), so a client that got no
# answer in time can tell "withdrawn" (not run: send again) from a command that ran.
WITHDRAW_AFTER = 4.0
MAX_PATH = 107  # sun_path holds 108 bytes with its NUL


class BridgeError(Exception):
    """The socket cannot be served (a path too long, a folder it cannot bind in)."""


@dataclass(frozen=True)
class BridgeCommand:
    """A command from a client, on the app's queue; `reply(ok, message)` answers it."""

    command: Command
    reply: Callable[[bool, str], None]
    deadline: float = float("inf")  # by the bridge's clock: later, it is withdrawn


class TableBridge:
    """`commands`: ``name in commands`` and ``commands.run(name, args) -> (ok, message)``, run
    on the table's loop thread (the wiring's command table, bound to the table's controls);
    `put(event)` puts an event on that loop; `show()` redraws after a command."""

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        commands,
        put,
        show=lambda: None,
        log=print,
        warn=print,
        clock=time.monotonic,
        buffer_limit: int = BUFFER_LIMIT,
    ):
        self.commands = commands
        self.put, self.show = put, show
        self.log, self.warn = log, warn
        self.clock = clock
        self._waiting: dict[asyncio.StreamWriter, int] = {}  # commands put, not yet answered
        self._rates = Rates(COMMANDS_BURST, COMMANDS_PER_SECOND, clock=clock)
        self._all_rates = Rates(2 * COMMANDS_BURST, 2 * COMMANDS_PER_SECOND, clock=clock)
        self.path = Path(path)
        self.buffer_limit = buffer_limit
        self.dropped = 0  # clients dropped for not reading (a figure for tests and benches)
        self.turned_away = 0  # clients over CLIENTS_AT_MOST, closed at once
        self._aio: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server = None
        self._clients: set[asyncio.StreamWriter] = set()
        self._last_state: bytes | None = None  # the last state sent (the socket's thread)
        self._last_posted: bytes | None = None  # the last state posted (the loop's thread)

    # -- start and stop (the wiring's thread) ---------------------------------------------------
    def start(self) -> None:
        sock = self._bind()
        self._aio = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._aio.run_forever, name="bridge", daemon=True)
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._serve(sock), self._aio)
        future.result(timeout=10)
        self.log(f"bridge: serving {self.path}")

    def _bind(self) -> socket.socket:
        if len(os.fsencode(self.path)) > MAX_PATH:
            raise BridgeError(f"{self.path}: too long for a Unix socket ({MAX_PATH} bytes at most)")
        with contextlib.suppress(FileNotFoundError):
            # Left by a table that was killed; the state folder's lock says none runs now.
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                self.path.unlink()
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(str(self.path))
            os.chmod(self.path, 0o660)  # the scoreboard group may connect (the net service)
            sock.listen(16)
        except OSError as exc:
            sock.close()
            raise BridgeError(f"cannot serve {self.path}: {exc.strerror or exc}") from None
        sock.setblocking(False)
        return sock

    async def _serve(self, sock: socket.socket) -> None:
        self._server = await asyncio.start_unix_server(self._client, sock=sock, limit=MAX_LINE)

    def stop(self) -> None:
        if self._aio is None:
            return
        asyncio.run_coroutine_threadsafe(self._close(), self._aio).result(timeout=10)
        self._aio.call_soon_threadsafe(self._aio.stop)
        self._thread.join(timeout=10)
        self._aio.close()
        self._aio = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for writer in list(self._clients):
            writer.transport.abort()
        self._clients.clear()

    # -- the app's observer (the loop's thread): never waits -----------------------------------
    def shown(self, shown) -> None:
        """A new picture on the screens (presenter.Shown), in the screens' language."""
        snapshot, faults = shown.data()  # the match's, never the screens' own ticks
        line = encode(state_message(snapshot, faults=faults, hint=shown.hint, lang=shown.lang))
        if line != self._last_posted:  # the same state again is no news
            self._last_posted = line
            self._post(self._state, line)

    def written(self, lines: list[str], first: int) -> None:
        """A record the app accepted; `first` is its first line's number in the journal."""
        for n, line in enumerate(lines, first):
            if line and not line.startswith("#"):
                self._post(self._broadcast, encode(event_message(n, line)))

    def pairing_asked(self) -> None:
        """UNDO held, then FOUL, at the table (scoreboard/table/phone_control.py): the net process is asked for a
        code."""
        self._post(self._broadcast, encode({"type": "pairing-asked"}))

    def run_command(self, event: BridgeCommand) -> None:
        """On the loop's thread, like a button: run it, then answer, then show. One that
        waited longer than its client waits for the answer is withdrawn, never run late."""
        if self.clock() > event.deadline:
            event.reply(False, "withdrawn: it waited too long for the table")
            return
        ok, message = self.commands.run(event.command.cmd, event.command.args)
        event.reply(ok, message)
        self.show()

    def _post(self, fn, *args) -> None:
        if self._aio is not None:
            with contextlib.suppress(RuntimeError):  # closed while stopping
                self._aio.call_soon_threadsafe(fn, *args)

    # -- the bridge's thread --------------------------------------------------------------------
    def _state(self, line: bytes) -> None:
        self._last_state = line
        self._broadcast(line)

    def _broadcast(self, line: bytes) -> None:
        for writer in list(self._clients):
            self._send(writer, line)

    def _send(self, writer: asyncio.StreamWriter, line: bytes) -> None:
        transport = writer.transport
        if transport.is_closing():
            self._clients.discard(writer)
            return
        if transport.get_write_buffer_size() + len(line) > self.buffer_limit:
            self.dropped += 1
            self.warn(f"bridge: a client that does not read was dropped ({self.dropped})")
            self._clients.discard(writer)
            transport.abort()
            return
        writer.write(line)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._clients) >= CLIENTS_AT_MOST:
            self.turned_away += 1
            if self.turned_away & (self.turned_away - 1) == 0:  # 1, 2, 4, 8...: the log stays small
                self.warn(f"bridge: {self.turned_away} clients over {CLIENTS_AT_MOST} turned away")
            writer.transport.abort()
            return
        self._clients.add(writer)
        if self._last_state is not None:
            self._send(writer, self._last_state)
        try:
            while not writer.transport.is_closing():
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    self._send(writer, encode(reply_message("", False, "line too long")))
                    break
                if not line:
                    break
                if line.strip():
                    self._take(writer, line)
        except ConnectionError:
            pass
        finally:
            self._clients.discard(writer)
            self._rates.forget(writer)
            writer.transport.abort()  # its commands waiting still count until each is answered

    def _take(self, writer: asyncio.StreamWriter, line: bytes) -> None:
        try:
            command = parse_command(line)
        except ProtocolError as exc:
            self._send(writer, encode(reply_message("", False, str(exc))))
            return
        if command.cmd not in self.commands:  # answered here: the table is not disturbed
            ok, message = self.commands.run(command.cmd, command.args)
            self._send(writer, encode(reply_message(command.id, ok, message)))
            return

        waiting = self._waiting.get(writer, 0)
        if waiting >= WAITING_PER_CLIENT or sum(self._waiting.values()) >= WAITING_AT_MOST:
            busy = f"busy: {waiting} of your commands wait for the table; send again later"
            self._send(writer, encode(reply_message(command.id, False, busy)))
            return
        # Both buckets asked before either counts: a command refused costs its client nothing.
        if wait := max(self._rates.wait(writer), self._all_rates.wait(None)):
            busy = f"busy: too many commands; send again in {wait:.1f} s"
            self._send(writer, encode(reply_message(command.id, False, busy)))
            return
        self._rates.take(writer)
        self._all_rates.take(None)
        self._waiting[writer] = waiting + 1

        def reply(ok: bool, message: str) -> None:  # on the loop's thread
            self._post(self._answered, writer, encode(reply_message(command.id, ok, message)))

        self.put(BridgeCommand(command, reply, self.clock() + WITHDRAW_AFTER))

    def _answered(self, writer: asyncio.StreamWriter, line: bytes) -> None:
        left = self._waiting.get(writer, 0) - 1
        if left > 0:
            self._waiting[writer] = left
        else:
            self._waiting.pop(writer, None)
        self._send(writer, line)
