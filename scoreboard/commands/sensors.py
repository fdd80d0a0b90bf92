"""`scoreboard sensors [--port PORT] [--json]`: watch the sensor board as an installer would.

Prints the link state, the board's hello, sensor faults, beams as they are blocked and
each pot as it happens; with --json one object a line, a pot as {"pocket": N, ...}.
It keeps going through garbage on the line, unplugging and board resets until Ctrl-C.
`--simulate` runs it against the simulated board, dropping a ball every `--every` s.
"""

import json
import time

from scoreboard.commands import UsageError
from scoreboard.inputs.events import (
    BoardFault,
    BoardHello,
    BoardLost,
    Pot,
    SensorCleared,
    SensorStuck,
)
from scoreboard.inputs.sensorboard import SensorBoardLink
from scoreboard.store.pot_ledger import PotLedger


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sensors",
        help="watch the pocket-sensor board: link, faults and pots",
        description="Watch the pocket-sensor board: link state, hello, faults, beams, pots.",
    )
    parser.add_argument("--port", help="serial port (default: find the board by USB id)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--simulate", action="store_true", help="watch a simulated board instead of a real one"
    )
    parser.add_argument(
        "--every", type=float, default=1.0, help="with --simulate: seconds between balls"
    )
    parser.add_argument("--duration", type=float, help="stop after this many seconds")
    parser.add_argument(
        "--stop-firmware",
        action="store_true",
        help="ask the board to leave its program for the REPL (to update it), then exit",
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    if args.every <= 0:
        raise UsageError("--every must be more than 0 seconds")
    if args.duration is not None and args.duration < 0:
        raise UsageError("--duration must not be negative")
    board = None
    port = args.port
    if args.simulate:
        from scoreboard.inputs.simulated_board import SimulatedBoard

        board, port = SimulatedBoard.open_pty(time.monotonic)
        board.start()
    monitor = Monitor(port=port, as_json=args.json)
    end = None if args.duration is None else time.monotonic() + args.duration
    if args.stop_firmware and end is None:  # no board answering is an answer too
        end = time.monotonic() + STOP_FIRMWARE_WAIT
    next_ball, pocket = time.monotonic() + args.every, 1
    try:
        while end is None or time.monotonic() < end:
            monitor.step()
            if args.stop_firmware and monitor.link.state == "up":
                monitor.link.stop_firmware()
                return 0
            if monitor.link.state == "searching":
                time.sleep(0.1)  # no port yet: the read does not wait for us
            if board is not None and time.monotonic() >= next_ball:
                board.drop_ball(pocket)
                next_ball, pocket = next_ball + args.every, pocket % 6 + 1
    finally:
        monitor.link.close()
        if board is not None:
            board.close()
    if args.stop_firmware:
        raise UsageError(
            f"no sensor board answered on {monitor.looking_for()} within "
            f"{STOP_FIRMWARE_WAIT if args.duration is None else args.duration:g} s: nothing "
            f"was stopped. {CHECK_CABLE}"
        )
    return 0


STOP_FIRMWARE_WAIT = 10.0  # seconds --stop-firmware waits for a board to answer

# What to check, said once while the link waits (hardware/README.md has the details).
CHECK_CABLE = (
    "Check that the board's USB cable is in the Pi, that the board runs the scoreboard's "
    'firmware (hardware/README.md, "Flashing the sensor board"), and that this user may open '
    "serial ports (the dialout group)"
)
CHECK_FIRMWARE = (
    "If none comes, the board runs other firmware or the MicroPython prompt: flash it again "
    '(hardware/README.md, "Flashing the sensor board"), or give the right port with --port'
)


class Monitor:
    """A link and the lines it prints; `step()` reads once and prints what happened."""

    def __init__(self, *, port=None, as_json=False, write=None, clock=time.monotonic, **link):
        self.as_json = as_json
        self.write = write or (lambda line: print(line, flush=True))
        self.events = []
        self.link = SensorBoardLink(
            self.events.append, port=port, clock=clock, own_ledger=PotLedger, **link
        )
        self._shown = {"state": None, "blocked": 0, "errors": 0}

    def step(self, now=None):
        self.link.step(now)
        events, self.events[:] = list(self.events), []
        for event in events:
            self._event(event)
        self._changes()

    def _event(self, event):
        if isinstance(event, Pot):
            text, kind = f"POT pocket {event.pocket}", "pot"
            if event.retract:
                text = f"NOT A BALL pocket {event.pocket}: its beam is stuck, the pot is taken back"
                kind = "retract"
            self._say(text, kind, pocket=event.pocket, t=event.t, serial=event.serial)
        elif isinstance(event, BoardHello):
            self._show_state()
            reset = " (it restarted)" if event.reset else ""
            self._say(
                f"hello: {event.version}, boot {event.boot_id:08x}{reset}",
                "hello",
                version=event.version,
                boot_id=event.boot_id,
                reset=event.reset,
            )
        elif isinstance(event, BoardLost):
            self._say(f"LOST: {event.reason}", "lost", reason=event.reason)
        elif isinstance(event, SensorStuck):
            self._say(
                f"FAULT: pocket {event.pocket} beam stuck, ignored until it clears",
                "stuck",
                pocket=event.pocket,
            )
        elif isinstance(event, BoardFault):
            what = {
                "pots-dropped": f"{event.count} pots not kept (its outbox was full)",
                "edges-missed": f"{event.count} beam edges missed (its edge ring was full)",
                "firmware": "runs another protocol version: update its firmware",
            }.get(event.kind, event.kind)
            self._say(
                f"FAULT: the board {what}", "board-fault", fault=event.kind, count=event.count
            )
        elif isinstance(event, SensorCleared):
            self._say(f"pocket {event.pocket} beam clear again", "cleared", pocket=event.pocket)

    def _changes(self):
        self._show_state()
        blocked = self.link.status.get("blocked", 0) if self.link.state == "up" else 0
        if blocked != self._shown["blocked"]:
            self._shown["blocked"] = blocked
            pockets = [p for p in range(1, 7) if blocked & (1 << (p - 1))]
            text = ", ".join(map(str, pockets)) or "none"
            self._say(f"beams blocked: {text}", "beams", blocked=pockets)
        d = self.link.decoder
        if d.errors != self._shown["errors"]:
            self._shown["errors"] = d.errors
            self._say(
                f"line noise: {d.errors} bad frames, {d.skipped} bytes dropped",
                "noise",
                errors=d.errors,
                skipped=d.skipped,
            )

    def _show_state(self):
        link = self.link
        state = (link.state, link.open_error if link.state == "searching" else None)
        if state == self._shown["state"]:
            return
        self._shown["state"] = state
        if link.state == "searching":
            text = f"link searching: waiting for the sensor board on {self.looking_for()}"
            text += f" ({link.open_error})" if link.open_error else " (not there yet)"
            self._say(
                f"{text}. {CHECK_CABLE}",
                "link",
                state=link.state,
                port=None,
                waiting_for=self.looking_for(),
                error=link.open_error,
            )
        elif link.state == "waiting":
            self._say(
                f"link waiting ({link.path}): the port is open, the board has not answered yet. "
                f"{CHECK_FIRMWARE}",
                "link",
                state=link.state,
                port=link.path,
            )
        else:
            self._say(f"link {link.state} ({link.path})", "link", state=link.state, port=link.path)

    def looking_for(self) -> str:
        """The port given, else where the board is looked for: its by-id name, its USB id."""
        if self.link.port:
            return self.link.port
        vid, pid = self.link.usb_id
        return f"{self.link.by_id} or a port with USB id {vid:04x}:{pid:04x} (the Pico)"

    def _say(self, text, kind, **fields):
        if self.as_json:
            self.write(json.dumps({"event": kind, **fields}, sort_keys=True))
        else:  # JSON escapes on its own; a terminal would obey what the board sends raw
            self.write(time.strftime("%H:%M:%S ") + printable(text))


def printable(text: str) -> str:
    """Text from the board (or a port name) as a terminal can show it: anything that is not
    printable, such as an escape sequence, is written as its Python escape."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )
