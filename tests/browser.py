"""Debian's chromium driven by Playwright for Python (no browser download: none is possible
here). `.ci/run` installs chromium with apt; where it is missing the browser tests say so: they
fail under CI and skip elsewhere, naming the package.

One chromium (and one Playwright driver) serves every browser test of a test process: starting
both costs 1.3 s of CPU a test (measured: ten tests 18.3 s of CPU each with its own, 5.0 s
sharing one). Each test still gets a browser of its own to the page: every page it opens is in
a new context (cookies, storage, cache, as a new profile), all closed when the test ends. The
async tests share one event loop per process (pyproject's asyncio loop scopes), the loop the
shared chromium lives on; a test on another loop gets a chromium of its own, as before."""

import asyncio
import contextlib
import os
import shutil

import pytest
from helpers import PATIENCE

CHROMIUM = os.environ.get("SCOREBOARD_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
LAUNCH_PATIENCE_MS = PATIENCE * 1000  # Playwright counts in ms
# Only loopback, nothing fetched behind the test's back, no sandbox (root in CI).
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


def missing() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "playwright is missing: pip install -e '.[test]' (make test does it)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no chromium at {CHROMIUM}: apt-get install chromium (.ci/run does it)"
    return None


class Browser:
    """A test's own browser on a chromium it may share: what Playwright's Browser offers the
    tests (new_page and new_context with their options, close), each page in a new context."""

    def __init__(self, browser):
        self._browser = browser
        self._contexts = []

    async def new_context(self, **options):
        context = await self._browser.new_context(**options)
        self._contexts.append(context)
        return context

    async def new_page(self, **options):
        return await (await self.new_context(**options)).new_page()

    async def close(self) -> None:
        while self._contexts:
            await self._contexts.pop().close()


class _Shared:
    """The process's chromium, on the test session's loop (conftest tells which)."""

    home = playwright = browser = None

    @classmethod
    async def get(cls):
        if asyncio.get_running_loop() is not cls.home:
            return None  # a test on a loop of its own (asyncio.run)
        if cls.browser is not None and not cls.browser.is_connected():
            await cls.close()  # a test that crashed it: a new one for the next
        if cls.browser is None:
            from playwright.async_api import async_playwright

            cls.playwright = await async_playwright().start()
            cls.browser = await _launch(cls.playwright)
        return cls.browser

    @classmethod
    async def close(cls) -> None:
        playwright, cls.playwright, cls.browser = cls.playwright, None, None
        if playwright is not None:
            await playwright.stop()  # the browser goes with its driver


async def _launch(playwright):
    # Playwright's own 30 s bound on the start: a busy machine may need longer.
    return await playwright.chromium.launch(
        executable_path=CHROMIUM, args=ARGS, timeout=LAUNCH_PATIENCE_MS
    )


@contextlib.asynccontextmanager
async def chromium():
    """A headless chromium of the test's own (see Browser), closed however the test ends."""
    if why := missing():
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    shared = await _Shared.get()
    async with contextlib.AsyncExitStack() as stack:
        if shared is None:
            from playwright.async_api import async_playwright

            playwright = await stack.enter_async_context(async_playwright())
            shared = await _launch(playwright)
        view = Browser(shared)
        stack.push_async_callback(view.close)
        yield view


@contextlib.asynccontextmanager
async def shared_on_this_loop():
    """The test session's loop: the browser tests on it share one chromium, stopped at the end."""
    _Shared.home = asyncio.get_running_loop()
    try:
        yield
    finally:
        await _Shared.close()
        _Shared.home = None
