"""Power cuts: the board, the host or both lose power at random moments while balls keep
falling; every ball the board counted must end up in the journal exactly once.

The real pieces, in simulated time (no sleeping): the firmware's logic on the simulated
board as `make sim` runs it (with its flash: a write stalls the board for 20-60 ms while
edges latch, and is atomic; its line loses 3 % of its writes), the appliance's host side as `scoreboard run` wires it (the
sensor-board link over a pseudo-terminal, the app's board-pot path, the pot ledger) and
the journal in a real directory. A seeded random schedule cuts the host (its process
dies: whatever it had not made durable is gone), the board (its RAM is gone, its flash
keeps the last complete write) or both at once, at any moment, including inside a
journal write (a torn write: only some of the record's bytes reach the file) and inside
the board's flash write. Each is off for a while; balls keep falling; buttons are
pressed and new matches started, so board pots are carried across matches.

What counts. A ball is the system's from the moment the board has seen all of it
(broken the beam and cleared it while powered, and not stopped in a flash write the
power then cut) or counted it. It is excused only when
a cut took every copy of it before any could be durable: counted less than the longest
the board may wait to begin a flash write (Board.longest_unsaved_ms) + a write ago, in
no complete flash write and in no durable journal record, when the power went from the
board. Those are printed apart
and are not in D; everything else is. Each journaled board-pot mark is traced back to
the physical ball through the serial the board gave it:
  lost L = balls in D with no mark; doubled X = marks beyond one per ball (or for no
  ball at all); J = board-pot marks in the journal and the archive.

Run: python bench/power_cut.py [CUTS] [SEED] [--dir DIR]
A board is off for 0.2 s at the least (BOARD_BOOT_S): a Pico cannot power-cycle and boot
MicroPython any faster, and the slowest ball is 150 ms in a beam, so a ball in a beam as it
starts counting came after the power did (counted on its leading edge, it counts then).

The journal goes to a fresh directory in /dev/shm if there is one (an fsync there costs
nothing, and power cuts are the harness's to make, not the disk's), else the temp dir.
The last line: power cuts: N, balls dropped: D, journaled: J, lost: L, doubled: X
"""

import argparse
import bisect
import contextlib
import dataclasses
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.inputs.events import ButtonHold, ButtonPress
from scoreboard.inputs.portable.board import Board
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store import journal as journal_module
from scoreboard.store.pot_ledger import parse_mark
from scoreboard.table.loop import ManualClock
from scoreboard.table.wiring import Appliance

STEP = 0.002  # s of simulated time per round
BOARD_BOOT_S = 0.2  # the shortest a board is off: its power cycle and boot
FLASH_MS = (20, 60)  # an RP2040 littlefs write (sector erase and program)
SAME_POCKET_GAP_MS = 80  # two balls through one pocket: more than a flash stall apart


class PowerCut(BaseException):
    """The host's power goes in the middle of something (not an error any code handles)."""


@dataclasses.dataclass
class Ball:
    number: int
    pocket: int
    start: float  # ms
    end: float
    counted_at: float | None = None  # when the board counted it
    excused: str | None = None  # why it is not the system's to lose
    serials: set = dataclasses.field(default_factory=set)  # (store, serial)


class Truth:
    """What really happened on the table, for the count at the end."""

    def __init__(self):
        self.balls: list[Ball] = []
        self.by_serial: dict[tuple[int, int], Ball] = {}
        self.collisions = 0  # a serial given to a ball while another still had it
        self.reused = 0  # a serial given again, its first ball gone from everywhere
        self.alive = None  # the rig's: is this ball anywhere it could still count from?
        self.phantoms = 0  # a count with no ball behind it
        self.now = 0.0

    def ball_counted(self, pocket, t_ms):
        """The board counted a ball in `pocket` whose blocked span began at `t_ms`."""
        best = None
        for ball in reversed(self.balls):
            if ball.start > self.now + 1:
                continue
            if ball.pocket == pocket and ball.counted_at is None and ball.end >= t_ms - 1:
                best = ball  # the earliest such, as the beam sees them in order
            elif ball.end < t_ms - 1000:
                break
        if best is None:
            self.phantoms += 1
            return None
        best.counted_at = self.now
        return best

    def numbered(self, store, serial, ball, alive):
        """The board gave `ball` this serial. A serial is given again only if the ball
        that had it is gone from everywhere (never stored, never journaled): if that
        ball is still `alive` (journaled, in flash, in the outbox) two balls share it."""
        if ball is None:
            return
        key = (store, serial)
        old = self.by_serial.get(key)
        if old is not None and old is not ball:
            if alive(key, old):
                self.collisions += 1
                return
            old.serials.discard(key)
            self.reused += 1
        self.by_serial[key] = ball
        ball.serials.add(key)


class WatchedBoard(Board):
    """The firmware's Board, telling the harness which physical ball each pot is.

    Each outbox entry carries its ball as a sixth item; flash keeps the balls of the
    pots it holds beside its bytes, so they survive a reset as the pots do."""

    truth: Truth = None

    def _pot(self, pocket, t_ms):
        before = len(self.outbox)
        super()._pot(pocket, t_ms)
        ball = self.truth.ball_counted(pocket, t_ms)
        if len(self.outbox) > before:
            self.outbox[-1].append(ball)
            self._tell_serials()

    def _number(self):
        super()._number()
        self._tell_serials()

    def _tell_serials(self):
        for entry in self.outbox:
            if entry[0] is not None and len(entry) > 5:
                self.truth.numbered(self.store_id, entry[0], entry[5], self.truth.alive)

    def flash_image(self):
        self._writing_balls = [entry[5] if len(entry) > 5 else None for entry in self.outbox]
        return super().flash_image()

    def flashed(self):
        super().flashed()
        self.store.balls = self._writing_balls

    def _load(self):
        super()._load()
        for entry, ball in zip(self.outbox, getattr(self.store, "balls", []), strict=False):
            entry.append(ball)
        self._tell_serials()

    def flash_balls(self):
        return {id(b) for b in getattr(self.store, "balls", []) if b is not None}


class LossyBoard(SimulatedBoard):
    """The simulated board on a line that now and then loses what the board wrote (so
    pots arrive out of order and wait for the resend, as the link is built for)."""

    loss = 0.03
    stalls = None  # (began, ended) of each flash write that completed, in ms

    def _write(self, data):
        if self.random.random() >= self.loss:
            super()._write(data)

    def _end_flash_write(self):
        self.stalls = self.stalls or []
        self.stalls.append((self._flashing[1], self._flashing[0]))
        super()._end_flash_write()


class Rig:
    """A table: the simulated board on a pty, the appliance's host side, one clock."""

    def __init__(self, state_dir, seed):
        self.rng = random.Random(seed)
        self.state_dir = state_dir
        self.clock = ManualClock(1000.0)
        self.truth = Truth()
        WatchedBoard.truth = self.truth
        self.truth.alive = self._alive
        self.board, self.port = LossyBoard.open_pty(
            self.clock, seed=seed, flash_ms=FLASH_MS, board_class=WatchedBoard
        )
        # How long a counted pot may live in the board's RAM alone, by design: until its
        # flash write begins at the latest, then the write itself.
        self.exposure_ms = Board(0).longest_unsaved_ms + FLASH_MS[1] + STEP * 1000
        cfg = configuration.default()
        self.config = dataclasses.replace(
            cfg, sensors=dataclasses.replace(cfg.sensors, source="board")
        )
        self.host = None
        self.durable = set()  # (store, serial) of take marks in records that reached disk
        self.tear = False  # the next journal write is torn by a cut...
        self.tear_board_too = False  # ...of both
        self.board_off_spans = []  # (from ms, to ms)
        self.falling = True  # balls keep falling
        self.free_at = [0.0] * 7  # per pocket: when the next ball may start (ms)
        self.next_ball = 0.0
        self.balls_since_match = 0
        self.cuts = {"host": 0, "board": 0, "both": 0, "journal write": 0, "flash write": 0}
        self.host_on()

    def _alive(self, key, ball):
        stored = getattr(self.board.store, "balls", [])
        outbox = self.board.board.outbox if self.board.powered else []
        return (
            key in self.durable
            or any(b is ball for b in stored)
            or any(len(e) > 5 and e[5] is ball and e[0] == key[1] for e in outbox)
        )

    # -- the host ----------------------------------------------------------------------
    def host_on(self):
        host = Appliance(
            self.config,
            state_dir=str(self.state_dir),
            screens=[],
            pin_factory=MockFactory(),
            board_port=self.port,
            clock=self.clock,
            log=lambda message: None,
        )
        host.link.read_timeout = 0  # the rig steps it; a read must not wait
        storage = host.app.storage
        journal = storage._journal  # the storage reopens it only after a disk fault
        real_append, real_durable = journal.append, storage.on_durable

        def append(lines):
            if self.tear:
                self.tear = False
                record = journal_module.encode(list(lines), journal._seq + 1)
                cut = self.rng.randrange(1, len(record))
                os.write(journal._fd, record[:cut])  # the rest never reaches the file
                raise PowerCut
            real_append(lines)

        def durable(lines):
            for line in lines:
                found = parse_mark(line)
                if found and found[0] == "take":
                    self.durable.add(found[1:])
            real_durable(lines)

        journal.append, storage.on_durable = append, durable
        self.host = host
        host.app.start()
        host.loop.put(ButtonPress("A", self.clock()))  # whoever is at the table breaks

    def host_off(self):
        """The host's power goes: nothing more is written; its files and port close."""
        if self.host is not None:
            with contextlib.suppress(Exception):
                self.host.close()  # closes descriptors only, as the kernel would
            self.host = None

    # -- the board ---------------------------------------------------------------------
    def board_off(self, why):
        """The board's power goes: pots only in its RAM die with it."""
        now_ms = self.clock() * 1000
        board = self.board.board
        in_flash = {id(ball) for ball in getattr(self.board.store, "balls", []) if ball}
        for entry in board.outbox:
            ball = entry[5] if len(entry) > 5 else None
            if ball is None or id(ball) in in_flash or ball.serials & self.durable:
                continue
            if now_ms - ball.counted_at < self.exposure_ms:
                ball.excused = why
        # A board cut inside a flash write stopped looking at its beams when the write
        # began: the edges it latched since die with it.
        stopped = self.board._flashing[1] if self.board.writing_flash else now_ms
        self.board.power_off()
        self.board_off_spans.append([stopped, float("inf")])

    def board_on(self):
        self.board_off_spans[-1][1] = self.clock() * 1000
        self.board.power_on()

    # -- time passes -------------------------------------------------------------------
    def run(self, seconds, *, until=None):
        """Let `seconds` pass, or less once `until()` holds; True if it did."""
        end = self.clock() + seconds
        while self.clock() < end:
            self.step()
            if until is not None and until():
                return True
        return False

    def step(self):
        self.clock.advance(STEP)
        now_ms = self.clock() * 1000
        self.truth.now = now_ms
        if self.falling and now_ms >= self.next_ball:
            self._ball(now_ms)
        self.board.step()
        if self.host is None:
            return
        try:
            self.host.link.step(self.clock())
            self.host.loop.run_pending()
        except PowerCut:
            self.cuts["journal write"] += 1
            self.host_off()
            if self.tear_board_too and self.board.powered:
                self.board_off("a cut of both inside a journal write")

    def _ball(self, now_ms):
        self.next_ball = now_ms + self.rng.uniform(100, 700)
        pocket = self.rng.randint(1, 6)
        if self.free_at[pocket] > now_ms:
            return
        start, end = self.board.drop_ball(pocket, duration_ms=self.rng.uniform(15, 150))
        self.free_at[pocket] = end + SAME_POCKET_GAP_MS
        self.truth.balls.append(Ball(len(self.truth.balls) + 1, pocket, start, end))
        if self.host is None:
            return
        # Play goes on: the other player's button now and then, a new match now and then.
        if self.rng.random() < 0.15:
            self.host.loop.put(ButtonPress(self.rng.choice("AB"), self.clock()))
        self.balls_since_match += 1
        if self.balls_since_match > 150:
            self.balls_since_match = 0
            self.host.loop.put(ButtonHold("undo", self.clock()))
            self.host.loop.put(ButtonPress("undo", self.clock() + 0.1))


def run_schedule(rig, cuts):
    """`cuts` power cuts at random moments, each followed by a random time off."""
    rng = rig.rng
    for _ in range(cuts):
        rig.run(rng.uniform(0.2, 2.0))
        kind = rng.choices(["host", "board", "both"], weights=[4, 3, 3])[0]
        rig.cuts[kind] += 1
        roll = rng.random()
        if kind != "board" and roll < 0.4:
            # Inside a journal write: the next record is torn by the cut.
            rig.tear, rig.tear_board_too = True, kind == "both"
            if not rig.run(3.0, until=lambda: rig.host is None):
                rig.tear = False  # no write came: cut now instead
        elif kind != "host" and roll < 0.7:
            # Inside a flash write. The board writes when the host is slow to ack, so
            # the host is gone first (a cut of its own, or the first half of both).
            if kind == "board" and rig.host is not None:
                rig.cuts["host"] += 1
            rig.host_off()
            if rig.run(3.0, until=lambda: rig.board.writing_flash):
                rig.run(rng.uniform(0, FLASH_MS[0] / 1000))
                rig.cuts["flash write"] += 1
        if kind != "board":
            rig.host_off()
        if kind != "host" and rig.board.powered:
            rig.board_off(f"a {'board cut' if kind == 'board' else 'cut of both'}")
        # Off for a while, balls falling; then the power comes back.
        if not rig.board.powered:
            # A Pico powered off and on is counting again no sooner than its MicroPython has
            # booted (~0.5 s; 0.2 s at the least, more than the slowest ball's 150 ms in a
            # beam): a ball in a beam when it starts came after the power did.
            rig.run(rng.uniform(BOARD_BOOT_S, 0.8))
            rig.board_on()
        if rig.host is None:
            rig.run(rng.uniform(0.01, 2.5))
            rig.host_on()


def count(rig):
    """Trace every board-pot mark in the journal and the archive back to its ball."""
    logs = [journal_module.read_journal(rig.state_dir).lines]
    logs += [archived.lines() for archived in journal_module.list_archive(rig.state_dir)]
    takes = []
    for lines in logs:
        for line in lines:
            found = parse_mark(line)
            if found is not None and found[0] == "take":
                takes.append(found[1:])
    marks_of = {}
    doubled = 0
    for key in takes:
        ball = rig.truth.by_serial.get(key)
        if ball is None:
            doubled += 1  # a mark no ball stands behind
        else:
            marks_of[id(ball)] = marks_of.get(id(ball), 0) + 1
    excused = {}
    dropped = lost = 0
    stalls = rig.board.stalls or []  # in time order, never overlapping
    for ball in rig.truth.balls:
        # The board learns of a ball that left during a flash write when the write ends,
        # and counts it once the beam has then stayed clear for its chatter time.
        seen = ball.end
        at = bisect.bisect_right(stalls, (ball.end, float("inf"))) - 1
        if at >= 0 and stalls[at][0] <= ball.end <= stalls[at][1]:
            seen = stalls[at][1]
        seen_whole = not any(
            a < seen + STEP * 1000 + 4 and ball.start < b for a, b in rig.board_off_spans
        )
        marks = marks_of.get(id(ball), 0)
        if not (seen_whole or ball.counted_at is not None):
            continue  # the board was off while it passed: nothing could see it whole
        if ball.excused and not marks:
            excused[ball.excused] = excused.get(ball.excused, 0) + 1
            continue
        dropped += 1
        lost += marks == 0
        doubled += max(0, marks - 1)
    unseen = sum(1 for b in rig.truth.balls) - dropped - sum(excused.values())
    details = [
        f"balls fell: {len(rig.truth.balls)}; not seen whole by a powered board: {unseen}",
        "in flight, counted but durable nowhere when the power went (not in D): "
        + (", ".join(f"{n} at {why}" for why, n in sorted(excused.items())) or "none"),
        f"serials given again after their ball was gone: {rig.truth.reused}; "
        f"given to a second ball while the first still counted: {rig.truth.collisions}; "
        f"counts with no ball: {rig.truth.phantoms}",
    ]
    return {"D": dropped, "J": len(takes), "lost": lost, "doubled": doubled, "details": details}


def power_cuts(cuts, seed, *, parent=None, out=print):
    """Run `cuts` power cuts from `seed`; print the figures, the last line as the issue
    asks, and return them."""
    began = time.perf_counter()
    parent = parent or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    with tempfile.TemporaryDirectory(prefix="power-cut-", dir=parent) as state_dir:
        rig = Rig(Path(state_dir), seed)
        try:
            run_schedule(rig, cuts)
            rig.falling = False  # the power stays on; the last balls settle
            rig.run(10.0)
            figures = count(rig)
        finally:
            rig.host_off()
            rig.board.close()
    c = rig.cuts
    out(
        f"seed {seed}: {time.perf_counter() - began:.1f} s for {rig.clock() - 1000:.0f} s "
        f"of play; cuts of the host {c['host']}, the board {c['board']}, both {c['both']}; "
        f"inside a journal write {c['journal write']}, inside a flash write "
        f"{c['flash write']}; board flash writes: {rig.board.flash_writes}"
    )
    for line in figures["details"]:
        out(line)
    n = c["host"] + c["board"] + c["both"]
    figures["cuts"], figures["kinds"] = n, dict(c)
    figures["line"] = (
        f"power cuts: {n}, balls dropped: {figures['D']}, journaled: {figures['J']}, "
        f"lost: {figures['lost']}, doubled: {figures['doubled']}"
    )
    out(figures["line"])
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cuts", nargs="?", type=int, default=2000)
    parser.add_argument("seed", nargs="?", type=int, default=1)
    parser.add_argument("--dir", help="where to make the state directory")
    args = parser.parse_args(argv)
    figures = power_cuts(args.cuts, args.seed, parent=args.dir)
    return 0 if figures["lost"] == figures["doubled"] == 0 and figures["D"] == figures["J"] else 1


if __name__ == "__main__":
    sys.exit(main())
