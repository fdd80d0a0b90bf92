"""Debian's chromium driven by Playwright for Python (no browser download: none is possible
here). `.ci/run` installs chromium with apt; where it is missing the browser tests say so: they
fail under CI and skip elsewhere, naming the package."""

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


@contextlib.asynccontextmanager
async def chromium():
    """A headless chromium, closed however the test ends."""
    if why := missing():
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        # Playwright's own 30 s bound on the start: a busy machine may need longer.
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=ARGS, timeout=LAUNCH_PATIENCE_MS
        )
        try:
            yield browser
        finally:
            await browser.close()
