"""Benchmark: the running appliance's figures (issue 5). Prints them; asserts nothing.

- ball enters beam -> frame, p50 and p99 (target p99 <= 10 ms, issue 10): from the moment
  a ball breaks a mock GPIO beam, or a simulated sensor board's beam, to the new frame on a
  dummy display (the ball counts once blocked for beam_min; the journal's fsync included);
- idle CPU over 60 s (target <= 0.5 % of a core), with the sensor board linked;
- resident memory (target <= 60 MB);
- time from start to the first frame (target <= 1.5 s).

Run: .venv/bin/python bench/appliance_figures.py [--idle-seconds 60] [--samples 300]
"""

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from gpiozero.pins.mock import MockFactory

from scoreboard import config as configuration
from scoreboard.display import create_displays
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.store.storage import Storage
from scoreboard.table.wiring import Appliance


class TimedScreen:
    """Wraps a dummy display and notes when each new picture was drawn."""

    def __init__(self, screen):
        self.screen = screen
        self.shown = threading.Event()
        self.at = None

    def show(self, snapshot, **kwargs):
        sent = self.screen.show(snapshot, **kwargs)
        self.at = time.monotonic()
        self.shown.set()
        return sent


def with_source(source: str):
    cfg = configuration.default()
    return dataclasses.replace(cfg, sensors=dataclasses.replace(cfg.sensors, source=source))


def percentiles(samples):
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]


class JournalTimes:
    """How long each journal write took (write + fsync): the disk's share of a latency.

    Wraps the production `Storage.append` for the bench only; nothing else changes."""

    def __init__(self):
        self.last = 0.0
        self._append = Storage.append

        def timed(storage, lines):
            started = time.monotonic()
            try:
                return self._append(storage, lines)
            finally:
                self.last += time.monotonic() - started

        Storage.append = timed

    def take(self) -> float:
        spent, self.last = self.last, 0.0
        return spent

    def close(self):
        Storage.append = self._append


def latency_serial(samples: int, disk: JournalTimes) -> tuple[list, list]:
    board, port = SimulatedBoard.open_pty(time.monotonic)
    board.start(interval=0.001)  # the firmware's loop runs every millisecond
    screen = TimedScreen(create_displays([{"driver": "dummy"}], lang="uk")[0])
    with state_dir() as state:
        appliance = Appliance(
            with_source("board"),
            state_dir=state,
            screens=[screen],
            board_port=port,
            pin_factory=MockFactory(),
            log=lambda m: None,
        )
        thread = threading.Thread(target=appliance.run, daemon=True)
        thread.start()
        appliance.loop.put(_press("A"))  # lag: A breaks
        time.sleep(1.5)  # let the link say hello
        times, fsyncs = [], []
        for i in range(samples):
            screen.shown.clear()
            disk.take()
            enters_ms, _ = board.drop_ball(1 + i % 6)  # on the board's clock: time.monotonic
            if not screen.shown.wait(2.0):
                continue
            times.append(screen.at - enters_ms / 1000)
            fsyncs.append(disk.take())
            if i % 6 == 5:  # the balls joined one shot: take it back before the frame ends
                appliance.loop.put(_press("undo"))
                time.sleep(0.1)
            time.sleep(0.01)
        appliance.stop()
        thread.join()
    board.stop()
    board.close()
    return times, fsyncs


def latency_gpio(samples: int, disk: JournalTimes) -> tuple[list, list]:
    factory = MockFactory()
    cfg = with_source("gpio")
    screen = TimedScreen(create_displays([{"driver": "dummy"}], lang="uk")[0])
    with state_dir() as state:
        appliance = Appliance(
            cfg, state_dir=state, screens=[screen], pin_factory=factory, log=lambda m: None
        )
        thread = threading.Thread(target=appliance.run, daemon=True)
        thread.start()
        appliance.loop.put(_press("A"))
        time.sleep(0.2)
        times, fsyncs = [], []
        for i in range(samples):
            pin = factory.pin(cfg.pins.pockets[i % 6])
            screen.shown.clear()
            disk.take()
            enters = time.monotonic()
            pin.drive_low()  # the ball enters the beam: counted once blocked for beam_min
            if screen.shown.wait(2.0):
                times.append(screen.at - enters)
                fsyncs.append(disk.take())
            time.sleep(0.03)
            pin.drive_high()  # it has left
            if i % 6 == 5:
                appliance.loop.put(_press("undo"))
                time.sleep(0.1)
        appliance.stop()
        thread.join()
    return times, fsyncs


def _press(button):
    from scoreboard.inputs.events import ButtonPress

    return ButtonPress(button, time.monotonic())


def child(state: str, port: str) -> None:
    """The appliance alone in a process: reports its first frame, then idles until killed."""
    screen = create_displays([{"driver": "dummy"}], lang="uk")[0]

    class FirstFrame:
        said = False

        def show(self, snapshot, **kwargs):
            screen.show(snapshot, **kwargs)
            if not self.said:
                self.said = True
                print(json.dumps({"first_frame": time.time()}), flush=True)

    appliance = Appliance(
        with_source("board"),
        state_dir=state,
        screens=[FirstFrame()],
        board_port=port,
        pin_factory=MockFactory(),
        log=lambda m: None,
    )
    appliance.run()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_idle_memory(idle_seconds: float) -> dict:
    board, port = SimulatedBoard.open_pty(time.monotonic)
    board.start()
    with state_dir() as state:
        started = time.time()
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", state, port], stdout=subprocess.PIPE, text=True
        )
        first = json.loads(proc.stdout.readline())["first_frame"]
        time.sleep(2.0)  # the link comes up; then measure the quiet table
        cpu0, t0 = cpu_seconds(proc.pid), time.time()
        time.sleep(idle_seconds)
        cpu1, t1 = cpu_seconds(proc.pid), time.time()
        memory = rss_mb(proc.pid)
        proc.kill()
        proc.wait()
    board.stop()
    board.close()
    return {
        "start": first - started,
        "idle_cpu": (cpu1 - cpu0) / (t1 - t0) * 100,
        "rss": memory,
        "idle_seconds": t1 - t0,
    }


def journal_bytes_per_frame(frames: int = 30) -> tuple[float, float]:
    """Play random table inputs through the real App until `frames` frames have ended."""
    import random

    from scoreboard.inputs.events import ButtonPress, Pot
    from scoreboard.table.app import App
    from scoreboard.table.loop import ManualClock

    rng, clock = random.Random(5), ManualClock()
    cfg = configuration.loads("[match]\nrace = 99\n")
    with state_dir() as state:
        app = App(cfg, state_dir=state, screens=[], clock=clock, log=lambda m: None)
        app.loop.put(ButtonPress("A", 0.0))
        steps = 0
        while len(app.match.state.frame_scores) < frames:
            clock.advance(rng.uniform(1.0, 8.0))
            roll, t = rng.random(), clock()
            if roll < 0.45:
                event = Pot(rng.randint(1, 6), t)
            elif roll < 0.9:
                event = ButtonPress(rng.choice("AB"), t)
            else:
                event = ButtonPress("foul", t)
            app.loop.put(event)
            app.loop.run_pending()
            steps += 1
        written = app.storage.bytes_written
        app.close()
    return written / frames, written / steps


# The journal's fsync is part of every latency: measure it on a real disk, as on the Pi's SD
# card, not on a tmpfs /tmp. BENCH_STATE_DIR picks the disk; by default the checkout's own.
DISK = os.environ.get("BENCH_STATE_DIR") or os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))
)


def state_dir():
    return tempfile.TemporaryDirectory(prefix=".bench-state-", dir=DISK)


def filesystem(path: str) -> tuple[str, str, str]:
    """(mount point, type, device) of the filesystem holding ``path``, from /proc/self/mounts."""
    path, best = os.path.realpath(path), ("/", "?", "?")
    with open("/proc/self/mounts") as mounts:
        for line in mounts:
            device, point, kind = line.split()[:3]
            point = point.replace("\\040", " ")
            if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(
                best[0]
            ):
                best = (point, kind, device)
    return best


def unit_nice() -> int:
    """The Nice= the service unit runs the appliance at (systemd/scoreboard.service)."""
    unit = os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        "systemd",
        "scoreboard.service",
    )
    with open(unit) as f:
        for line in f:
            if line.startswith("Nice="):
                return int(line.split("=", 1)[1])
    return 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--child", nargs=2, metavar=("STATE", "PORT"))
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    # The appliance runs at the unit's priority (Nice=), as systemd starts it on the Pi.
    nice = unit_nice()
    try:
        os.setpriority(os.PRIO_PROCESS, 0, nice)
        print(f"measured at the service unit's priority: Nice={nice}")
    except PermissionError:
        print(f"NOT at the service unit's priority (Nice={nice} needs root): at Nice=0")
    point, kind, device = filesystem(DISK)
    warning = "  NOT A REAL DISK: set BENCH_STATE_DIR" if kind in ("tmpfs", "ramfs") else ""
    print(f"journal fsync measured on {DISK}: {kind} on {device} (mounted at {point}){warning}")
    disk = JournalTimes()
    for source, measure in (("GPIO sensors", latency_gpio), ("sensor board", latency_serial)):
        times, fsyncs = measure(args.samples, disk)
        p50, p99 = percentiles(times)
        f50, f99 = percentiles(fsyncs)
        rest50, rest99 = percentiles([t - f for t, f in zip(times, fsyncs, strict=True)])
        print(
            f"ball enters beam -> frame: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
            f"({source}, frame on dummy, journal fsync included; target p99 <= 10 ms)"
        )
        print(
            f"  of which the journal's write+fsync: p50 {f50:.1f} ms, p99 {f99:.1f} ms; "
            f"the rest: p50 {rest50:.1f} ms, p99 {rest99:.1f} ms"
        )
    disk.close()
    per_frame, per_input = journal_bytes_per_frame()
    print(f"journal writes: {per_frame:.0f} bytes per frame, {per_input:.1f} bytes per input")
    figures = start_idle_memory(args.idle_seconds)
    print(f"start to first frame: {figures['start']:.2f} s (target <= 1.5 s)")
    print(
        f"idle CPU over {figures['idle_seconds']:.0f} s: {figures['idle_cpu']:.3f} % of a core "
        "(target <= 0.5 %)"
    )
    print(f"resident memory: {figures['rss']:.1f} MB (target <= 60 MB)")


if __name__ == "__main__":
    main()
