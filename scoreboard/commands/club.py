"""`scoreboard club`: the club's screen. Subscribes to every table on the club's MQTT broker and
serves the hall TV's page, each table's overlay, the staff's setup of a table's next match and
a day's results as CSV (docs/API.md "Club"). Runs on any Linux box, or on one of the Pis."""

import asyncio
import importlib.util
import logging
import signal
from pathlib import Path

from scoreboard.commands import UsageError, require


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "club",
        help="the club's screen: every table on the MQTT broker, on one page",
        description="Subscribe to every table on the club's MQTT broker (each table appears "
        "when it publishes there) and serve the hall TV's page (/), each table's overlay "
        "(/table/ID/overlay), the staff's setup of a table's next match (/setup/ID), the "
        "staff's desk for players and tournaments (/desk), the players' pages (/players) and a "
        "day's results (/results.csv?day=YYYY-MM-DD). Pages on http://THIS-MACHINE:8090/.",
    )
    parser.add_argument("--broker", default="localhost", metavar="HOST", help="default localhost")
    parser.add_argument("--broker-port", type=int, default=1883, metavar="PORT")
    parser.add_argument("--username", default="", help="the club's user on the broker")
    parser.add_argument("--password-file", metavar="PATH", help="its password, in a file")
    parser.add_argument("--tls-ca", default="", metavar="PATH", help="TLS: the broker's CA file")
    parser.add_argument(
        "--keepalive", type=int, default=30, help="seconds between pings to the broker"
    )
    parser.add_argument("--listen", default="0.0.0.0", metavar="ADDRESS", help="default 0.0.0.0")
    parser.add_argument("--port", type=int, default=8090, help="the web port (default 8090)")
    parser.add_argument(
        "--data-dir", default="club-data", metavar="DIR", help="where results are kept"
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        help="the club's players and tournaments: sqlite:///PATH or postgresql+psycopg://... "
        "(default: club.db in the data directory)",
    )
    parser.add_argument(
        "--staff-password-file",
        metavar="PATH",
        help="a password the staff give (user 'staff') to set up a match; without it, "
        "nobody can (the pages only show)",
    )
    parser.add_argument(
        "--name",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the club's page is reached by besides this machine's own (its DNS name "
        "in the club); staff writes to any other Host are refused (DNS rebinding)",
    )
    parser.set_defaults(run=run)


def _secret(path: str | None, what: str) -> str:
    if not path:
        return ""
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise UsageError(f"cannot read the {what} file {path}: {exc.strerror}") from None


def run(args) -> int:
    require("the club's screen", "aiohttp", "paho")
    from scoreboard.club.broker import BrokerSettings
    from scoreboard.club.results import ResultBook

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    settings = BrokerSettings(
        host=args.broker,
        port=args.broker_port,
        username=args.username,
        password=_secret(args.password_file, "password"),
        tls_ca=args.tls_ca,
        keepalive=args.keepalive,
    )
    try:
        book = ResultBook(args.data_dir)
    except OSError as exc:
        raise UsageError(f"cannot keep results in {args.data_dir}: {exc.strerror}") from None
    staff = _secret(args.staff_password_file, "staff password")
    if not staff:
        logging.getLogger("scoreboard.club").warning(
            "club: no --staff-password-file: the pages show the tables, nobody can set up a match"
        )
    database = open_club_database(
        args.database or f"sqlite:///{Path(args.data_dir).resolve()}/club.db"
    )
    if database is not None:
        import_results(database, args.data_dir)
    asyncio.run(
        serve(
            settings,
            book,
            listen=args.listen,
            port=args.port,
            staff=staff,
            names=args.name,
            database=database,
            updates_dir=Path(args.data_dir) / "updates",
        )
    )
    return 0


def open_club_database(url: str):
    """The club's database (players, tournaments), migrated to the newest schema; None, said
    in the log, without the desk extra (the hall and results work without it)."""
    log = logging.getLogger("scoreboard.club")
    if (
        importlib.util.find_spec("sqlalchemy") is None
        or importlib.util.find_spec("alembic") is None
    ):
        log.warning(
            "club: no database: players and tournaments need the desk extra (pip install '.[desk]')"
        )
        return None
    from sqlalchemy.exc import SQLAlchemyError

    from scoreboard.clubdb.database import open_database

    logging.getLogger("alembic").setLevel(logging.WARNING)  # its steps are not the club's news
    try:
        engine = open_database(url)
    except (SQLAlchemyError, OSError, ImportError) as exc:  # ImportError: a driver not installed
        raise UsageError(f"cannot open the club's database {url}: {exc}") from None
    log.info(
        "club: the players and tournaments in %s", engine.url.render_as_string(hide_password=True)
    )
    return engine


def import_results(engine, data_dir) -> None:
    """The result books' every match into the database (club/book_import.py), said in the log
    with each line skipped and why."""
    from scoreboard.club.book_import import import_books

    log = logging.getLogger("scoreboard.club")
    done = import_books(engine, data_dir)
    log.info("club: the result books in the database: %s", done)
    for line in done.skipped:
        log.warning("club: result book %s: skipped", line)


async def serve(
    settings,
    book,
    *,
    listen: str,
    port: int,
    staff: str = "",
    names=(),
    database=None,
    updates_dir=None,
) -> None:
    """Run until SIGTERM or SIGINT."""
    from scoreboard.club.broker import ClubClient
    from scoreboard.club.server import Club
    from scoreboard.net.listen import Served

    club = Club(
        book=book,
        staff_password=staff,
        names=names,
        database=database,
        updates_dir=updates_dir,
    )
    club.desk.start()  # the tournaments not over, played on
    client = ClubClient(settings, on_message=club.take, on_link=club.link)
    club.client = client
    client.start()
    served = Served(club.app())
    try:
        await served.start(listen, port)
    except OSError as exc:
        client.stop()
        raise UsageError(f"cannot serve on {listen}:{port}: {exc.strerror}") from None
    logging.getLogger("scoreboard.club").info(
        "club: serving http://%s:%s/ from the broker at %s:%s",
        listen,
        port,
        settings.host,
        settings.port,
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    client.stop()
    await served.stop()
