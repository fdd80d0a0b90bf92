"""The small helpers many test files share, one copy of each (issue 20): feeding an app's loop,
letting simulated time pass, pressing a mock button, waiting for a real process, a free port."""

import asyncio
import dataclasses
import socket
import time

# Seconds: only how long a broken test takes to fail, a bound on a hang, never a measure of
# speed. A correct run never waits that long; 60 s failed on a CPU shared by busy test runs.
PATIENCE = 300.0


def last_shown(app):
    """(snapshot, hint) of the last frame the app's screen showed."""
    return app.screen.shown[-1]


def last_frame(app):
    """The last frame the app's screen showed, whole (its screen's tuple)."""
    return app.screen.frames[-1]


def last_snapshot(app):
    """The snapshot of the last frame the app's screen showed."""
    return app.screen.frames[-1][0]


def feed(app, *events, each=True, start=None, last=last_shown):
    """Put `events` on the app's loop and run it: after each event, or with `each=False` once
    after all of them (one frame for the lot). With `start`, an event's `t` counts from
    `start` (0.0: its own time) and the loop's clock follows the events, never back.
    Returns `last(app)`: by default (snapshot, hint) of the last frame shown."""
    for event in events:
        if start is not None:
            event = dataclasses.replace(event, t=start + event.t)
            app.clock.now = max(app.clock.now, event.t)
        app.loop.put(event)
        if each:
            app.loop.run_pending()
    if not each:
        app.loop.run_pending()
    return last(app)


def at(app, t, *, start=0.0, last=last_shown):
    """Simulated time passes to `t` (counted from `start`): the loop runs the timers due.
    Returns `last(app)`."""
    app.clock.now = start + t
    app.loop.run_pending()
    return last(app)


def settle(a, seconds, *, step=0.005):
    """Let `seconds` of simulated time pass on appliance `a` in steps of `step`, running its
    loop after each as it would."""
    end = a.clock() + seconds
    a.loop.run_pending()
    while a.clock() < end:
        a.clock.advance(step)
        a.loop.run_pending()


def press(a, pin, seconds=0.1):
    """Hold the button on mock `pin` of appliance `a` down for `seconds`, then let it go."""
    a.factory.pin(pin).drive_low()
    settle(a, seconds)
    a.factory.pin(pin).drive_high()
    settle(a, 0.1)


def wait_for(check, *, what: str, patience: float = PATIENCE, every: float = 0.02):
    """Poll `check` every `every` seconds until it returns something true, and return that;
    fail saying `what` after `patience` (for what runs in real time: a process, a thread)."""
    give_up = time.monotonic() + patience
    while not (value := check()):
        if time.monotonic() > give_up:
            raise AssertionError(f"never: {what} (gave up after {patience} s)")
        time.sleep(every)
    return value


async def until(check, *, what: str, patience: float = PATIENCE):
    """`wait_for` on the asyncio loop: poll `check` until true, letting the loop run between."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + patience
    while not (value := check()):
        if loop.time() > give_up:
            raise AssertionError(f"never: {what} (gave up after {patience} s)")
        await asyncio.sleep(0.02)
    return value


def free_port() -> int:
    """A TCP port on loopback that nothing listens on (the kernel's pick for port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
