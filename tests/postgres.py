"""A real PostgreSQL for the tests: Debian's server (apt's `postgresql`; `.ci/run` and the
Makefile install it), a cluster made by `initdb` in a temporary folder and started by `pg_ctl`
on a free loopback port. One serves the whole run: the first test process (xdist worker)
that needs it starts it and writes down where it is, the others use that one (each test makes a
database of its own), and the run's end stops it (a server a worker: 1.3 s of CPU each to make
and start). As root, the server runs as the `postgres` user the package made (PostgreSQL
refuses to run as root). Where the server is missing and cannot be installed, the tests that
need it skip and say why."""

import fcntl
import glob
import json
import os
import pwd
import shutil
import subprocess
import tempfile

from helpers import PATIENCE, free_port, wait_for


def binaries() -> str | None:
    """The folder of Debian's PostgreSQL server programs (the newest version), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


def shared(record: str) -> "Postgres":
    """The run's server, started by the first to ask; `record` says where it is."""
    with open(record + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the others wait while the first starts it
        if os.path.exists(record):
            with open(record) as f:
                return Postgres(**json.load(f))
        server = Postgres().start()
        with open(record, "w") as f:
            json.dump({"folder": server.folder, "port": server.port}, f)
        return server


def stop_shared(record: str) -> None:
    """The run's server stopped, if one was started."""
    if os.path.exists(record):
        with open(record) as f:
            Postgres(**json.load(f)).stop()
        os.remove(record)


class Postgres:
    def __init__(self, folder: str | None = None, port: int | None = None) -> None:
        """A new cluster's folder and port, or those of one already made (`shared`)."""
        self.bin = binaries()
        # Not under TMPDIR: `make mutate` points it into the clone, which may be a private
        # (0700) folder the `postgres` user cannot enter.
        base = "/dev/shm" if os.access("/dev/shm", os.W_OK | os.X_OK) else "/tmp"
        self.folder = folder or tempfile.mkdtemp(prefix="scoreboard-pg-", dir=base)
        self.data = os.path.join(self.folder, "data")
        self.port = port or free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # initdb and postgres refuse root: the package's own user
            user = pwd.getpwnam("postgres")
            if folder is None:
                os.chown(self.folder, user.pw_uid, user.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def run(self, *args: str) -> None:
        subprocess.run(
            [*self.as_user, *args], check=True, capture_output=True, timeout=PATIENCE, cwd="/"
        )

    def start(self) -> "Postgres":
        self.run(
            os.path.join(self.bin, "initdb"),
            "-D",
            self.data,
            "-U",
            "scoreboard",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C.UTF-8",
        )
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -F"
        log = os.path.join(self.folder, "server.log")  # not our pipes: pg_ctl returns
        self.run(
            os.path.join(self.bin, "pg_ctl"),
            "-D",
            self.data,
            "-o",
            options,
            "-l",
            log,
            "-w",
            "start",
        )
        wait_for(self.ready, what=f"PostgreSQL on port {self.port}")
        return self

    def ready(self) -> bool:
        import psycopg

        try:
            with psycopg.connect(self.dsn("postgres"), connect_timeout=5):
                return True
        except psycopg.OperationalError:
            return False

    def dsn(self, database: str) -> str:
        return f"postgresql://scoreboard@127.0.0.1:{self.port}/{database}"

    def url(self, database: str) -> str:
        """A new, empty database, as SQLAlchemy's URL."""
        import psycopg

        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        return f"postgresql+psycopg://scoreboard@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            self.run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)
