"""Settings and fixtures every test shares."""

import os
import shutil
import tempfile

import broker as mosquitto
import browser
import pytest
import pytest_asyncio
from app_screens import JournalCheckingScreen
from hypothesis import HealthCheck, settings

from scoreboard import config as configuration
from scoreboard.table.app import App
from scoreboard.table.loop import ManualClock

# The tests' files (tmp_path, and every temporary file of the processes they start) go to RAM:
# the journal syncs every record, and on a disk shared with other work each fsync waits for it
# (test_journal's every-byte truncation: 4.7 s on the disk, 1.4 s here). No test can tell: a
# sync is never undone by a kill. tests/test_storage_faults.py keeps a folder on the disk: tmpfs
# lets a file already open be written after chattr +i.
# An explicit TMPDIR or --basetemp is followed, and a small /dev/shm (a container's) is not
# used, nor one mounted noexec (Docker's): some tests run scripts they write there.
RAM = "/dev/shm"
# Given by the user, not by this file (whose TMPDIR the xdist workers inherit, marked).
TMPDIR_GIVEN = "TMPDIR" in os.environ and "SCOREBOARD_TESTS_IN_RAM" not in os.environ
if "TMPDIR" not in os.environ and os.access(RAM, os.W_OK):
    free = os.statvfs(RAM)
    if free.f_bavail * free.f_frsize >= 1 << 30 and not free.f_flag & os.ST_NOEXEC:
        os.environ["TMPDIR"] = RAM
        os.environ["SCOREBOARD_TESTS_IN_RAM"] = "1"
        tempfile.tempdir = None  # gettempdir() looks again

PG_RECORD = "SCOREBOARD_TESTS_POSTGRES"

# No test may depend on the machine's speed (CI is a busy machine): hypothesis's per-example
# deadline would turn a slow moment into a failure, so it is off for every property test, and
# so is its health check that generating the data is too slow.
settings.register_profile("scoreboard", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("scoreboard")


# Tests that mostly wait on a real process (the disk's 2 s retries, the watchdog's pings, a
# kill at each chosen step) go first: their waits then overlap the tests that keep the CPU
# busy, where last in the alphabet they ended the run alone. Any order is correct.
WAIT_MOSTLY = ("test_storage_faults.py", "test_kill.py")
# Then the longest tests that keep the CPU busy (random play's parts), so that none of them
# is left to run alone at the end (longest first; its effect on the time not yet measured).
LONG = ("test_random_play.py",)


def pytest_collection_modifyitems(items):
    def rank(item):
        name = item.path.name
        return 0 if name in WAIT_MOSTLY else 1 if name in LONG else 2

    items.sort(key=rank)  # stable: the rest as it was


def pytest_configure(config):
    if hasattr(config, "workerinput"):
        return
    # The user's --basetemp, told to the xdist workers (which get a --basetemp of xdist's).
    if config.option.basetemp:
        os.environ["SCOREBOARD_TESTS_BASETEMP_GIVEN"] = "1"
    # Where the run's one PostgreSQL is written down (tests/postgres.py), for the workers.
    os.environ[PG_RECORD] = os.path.join(tempfile.mkdtemp(prefix="scoreboard-run-"), "postgres")


def pytest_unconfigure(config):
    if hasattr(config, "workerinput") or PG_RECORD not in os.environ:
        return
    import postgres as pg

    record = os.environ.pop(PG_RECORD)
    try:
        pg.stop_shared(record)
    finally:
        shutil.rmtree(os.path.dirname(record), ignore_errors=True)


@pytest.fixture
def tmp_path_was_given() -> bool:
    """Whether --basetemp or an explicit TMPDIR says where tmp_path is (not this file's RAM)."""
    return TMPDIR_GIVEN or "SCOREBOARD_TESTS_BASETEMP_GIVEN" in os.environ


@pytest.fixture
def make_app(tmp_path):
    apps = []

    def make(text=None, **match):
        """An App on `tmp_path`, started, from config `text` or [match] keys (else defaults)."""
        cfg = configuration.default() if text is None else configuration.loads(text)
        if match:
            cfg = configuration.loads(
                "[match]\n" + "".join(f"{k} = {v!r}\n".replace("'", '"') for k, v in match.items())
            )
        clock = ManualClock(1000.0)
        screen = JournalCheckingScreen(tmp_path)
        app = App(cfg, state_dir=tmp_path, screens=[screen], clock=clock, log=lambda m: None)
        app.start()
        app.clock, app.screen = clock, screen
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.close()


@pytest.fixture
def broker(tmp_path):
    """A real Mosquitto on a free loopback port, stopped after the test."""
    if not mosquitto.available():
        pytest.skip("mosquitto is not installed (apt install mosquitto; .ci/run does it)")
    b = mosquitto.Broker(tmp_path / "broker").start()
    yield b
    b.stop()


@pytest.fixture(scope="session")
def postgres():
    """A real PostgreSQL, one for the whole run (tests/postgres.py), stopped at its end."""
    import postgres as pg

    if pg.binaries() is None:
        pytest.skip("PostgreSQL is not installed (apt install postgresql; .ci/run does it)")
    return pg.shared(os.environ[PG_RECORD])


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path):
    """The club's database, on each engine it runs on: a file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/club.db"
    return request.getfixturevalue("postgres").url(f"test_{tmp_path.name}".lower()[:60])


@pytest_asyncio.fixture(scope="session", loop_scope="session", autouse=True)
async def _one_chromium_a_process():
    """The async tests' loop (one a process: pyproject's loop scopes), whose browser tests
    share one chromium (tests/browser.py)."""
    async with browser.shared_on_this_loop():
        yield
