"""One simulator session: the appliance, the simulated table and board, the terminal, the keys."""

import contextlib
import os
import signal
import subprocess
import sys
import termios
import threading
import time
import tty
from dataclasses import dataclass, field, replace
from functools import partial

from gpiozero.pins.mock import MockFactory

from scoreboard.config import Config
from scoreboard.display import LANGUAGES, Screen, create_displays
from scoreboard.display.devices import panel_for
from scoreboard.inputs.simulated_board import SimulatedBoard
from scoreboard.sim.table import (
    BALL_SECONDS,
    LANGUAGE_KEY,
    QUIT_KEY,
    SETTLE_SECONDS,
    SimulatedTable,
    legend,
    web_problem,
)
from scoreboard.sim.terminal import FittedTerminal, TextScreen, fit
from scoreboard.table.wiring import Appliance
from scoreboard.texts.words import Timings


@dataclass(frozen=True)
class NextLanguage:
    """The language key was pressed: every screen goes on in the next language."""


@dataclass(frozen=True)
class Drained:
    """The keys have ended: set once the loop has handled everything before it."""

    done: threading.Event = field(default_factory=threading.Event)


@dataclass(frozen=True)
class Resized:
    """The terminal changed its size (SIGWINCH)."""


class Terminal:
    """The emulated display and the text under it in one terminal, laid out by its size."""

    def __init__(
        self, out, *, emulates: str, lang: str, keys=legend, timings: Timings | None = None
    ) -> None:
        self.out = out
        self.keys = keys
        self.panel = panel_for({"driver": "emulator-terminal", "emulates": emulates})
        layout = self._fit()
        self.device = FittedTerminal(
            layout.picture, width=self.panel.width, height=self.panel.height
        )
        # The hints name the configured holds ("hold 1.5 s"), as on the real displays.
        self.picture = Screen(
            self.device, name="terminal", panel=self.panel, lang=lang, timings=timings
        )
        self.text = TextScreen(out, layout=layout, legend=keys, lang=lang, timings=timings)

    def _fit(self):
        size = os.get_terminal_size(self.out.fileno())
        return fit(size.columns, size.lines, self.panel.width, self.panel.height, self.keys("uk"))

    def resize(self) -> None:
        layout = self._fit()
        self.device.box = layout.picture
        self.text.layout = layout
        self.out.write("\x1b[2J")
        self.device.redraw()
        self.text.redraw()


def screens_for(
    config: Config, *, interactive: bool, emulates: str, keys=legend
) -> tuple[list, object]:
    """The screens the app shows on, and the terminal (None when not a terminal)."""
    lang = config.display.language
    timings = Timings.from_config(config.timings)
    if not interactive:
        return [TextScreen(sys.stdout, layout=None, legend=keys, lang=lang, timings=timings)], None
    terminal = Terminal(sys.stdout, emulates=emulates, lang=lang, keys=keys, timings=timings)
    screens = [terminal.picture]
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        screens += create_displays(
            [{"driver": "emulator-pygame", "emulates": "max7219"}], lang=lang, timings=timings
        )
    return [*screens, terminal.text], terminal


def next_language(appliance: Appliance, _event=None) -> str:
    """On the loop: every screen on to the next language (uk, ru, en, uk...), redrawn."""
    app = appliance.app
    lang = LANGUAGES[(LANGUAGES.index(app.lang) + 1) % len(LANGUAGES)]
    app.set_language(lang)  # the match's from now on: a restart keeps it
    app.show()
    return lang


def run_sim(
    config: Config,
    *,
    state_dir: str,
    emulates: str = "ssd1306",
    web_port: int | None = None,
    net_args: list[str] = (),
    lang: str | None = None,
) -> int:
    """Runs until the quit key; raises JournalError when another process holds `state_dir`.
    With `web_port`, the web face too: `scoreboard net` on localhost only, its own process
    (given `net_args`: the config, the MQTT broker to publish to)."""
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    url = f"http://127.0.0.1:{web_port}/" if web_port else None
    web_note = None  # why the web face is not served, said where its address would be
    if url and (web_note := web_problem(web_port)):
        url, web_port = None, None
    if url:
        config = replace(config, web=replace(config.web, enabled=True, port=web_port))
    # The simulated board stands in for the USB sensor board; buttons are mock pins.
    config = replace(config, sensors=replace(config.sensors, source="board"))
    factory = MockFactory()
    board, port = SimulatedBoard.open_pty(time.monotonic)
    screens: list = []  # filled once the state folder is ours (a second sim stops first)
    try:
        appliance = Appliance(
            config,
            state_dir=state_dir,
            screens=screens,
            pin_factory=factory,
            board_port=port,
            log=lambda message: None if interactive else print(f"log: {message}", flush=True),
        )
    except BaseException:
        board.close()
        raise
    keys = partial(legend, web=url or web_note)
    if lang and lang != appliance.app.lang:  # asked for now (--lang): the match's from now on
        appliance.app.set_language(lang)
    # In the match's language (the journal may hold one chosen with the language key).
    in_lang = replace(config, display=replace(config.display, language=appliance.app.lang))
    shown, terminal = screens_for(in_lang, interactive=interactive, emulates=emulates, keys=keys)
    screens += shown
    appliance.app.on(NextLanguage, lambda event: next_language(appliance))
    appliance.app.on(Drained, lambda event: caught_up(appliance, event))
    table = SimulatedTable(config, factory, board)
    reader = threading.Thread(
        target=_read_keys, args=(table, appliance, interactive), name="keyboard", daemon=True
    )
    if (url or web_note) and not interactive:
        print(f"web: {url or web_note}", flush=True)
    with _web(state_dir, web_port, net_args), _cbreak(interactive), _on_resize(appliance, terminal):
        board.start()
        reader.start()
        try:
            appliance.run()
        except KeyboardInterrupt:
            pass
        finally:
            board.stop()
            board.close()
    return 0


def caught_up(appliance: Appliance, event: Drained) -> None:
    """On the loop: what time alone has decided (the last release) is decided now, then the
    key reader may stop the appliance."""
    appliance.catch_up()
    event.done.set()


def _read_keys(table: SimulatedTable, appliance: Appliance, interactive: bool) -> None:
    fd = sys.stdin.fileno()
    while True:
        data = os.read(fd, 1)
        if not data or data == QUIT_KEY.encode():
            break
        key = data.decode(errors="replace")
        if key == LANGUAGE_KEY:
            appliance.loop.put(NextLanguage())
            time.sleep(SETTLE_SECONDS)
            continue
        settle = table.key(key)
        if settle is None:
            if not interactive and key.strip():
                print(f"unknown key {key!r}", flush=True)
            continue
        time.sleep(settle)
    time.sleep(BALL_SECONDS)  # let the last ball and press reach the loop
    # ...and wait until the loop has handled them (a busy machine can be slower than that):
    # it handles this after everything put before it and every timer due by then.
    drained = Drained()
    appliance.loop.put(drained)
    drained.done.wait(timeout=30)
    appliance.stop()


@contextlib.contextmanager
def _web(state_dir: str, port: int | None, net_args=()):
    """`scoreboard net` for the simulated table, on localhost only, while the sim runs; what
    it says goes to <state_dir>/net.log."""
    if port is None:
        yield
        return
    command = [sys.executable, "-m", "scoreboard", "net", "--state-dir", str(state_dir)]
    command += ["--host", "127.0.0.1", "--port", str(port), *net_args]
    with open(os.path.join(state_dir, "net.log"), "w") as log:
        net = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        yield
    finally:
        net.terminate()
        try:
            net.wait(timeout=10)
        except subprocess.TimeoutExpired:
            net.kill()
            net.wait()


@contextlib.contextmanager
def _on_resize(appliance: Appliance, terminal: Terminal | None):
    """A terminal that changes its size is laid out again (on the loop, like everything)."""
    if terminal is None:
        yield
        return
    appliance.app.on(Resized, lambda event: terminal.resize())
    previous = signal.signal(signal.SIGWINCH, lambda *_: appliance.loop.put(Resized()))
    try:
        yield
    finally:
        signal.signal(signal.SIGWINCH, previous)


@contextlib.contextmanager
def _cbreak(interactive: bool):
    """Keys without Enter and without echo, restored however the simulator ends."""
    if not interactive:
        yield
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    sys.stdout.write("\x1b[?25l")  # hide the cursor
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write("\x1b[?25h\n")
        sys.stdout.flush()
