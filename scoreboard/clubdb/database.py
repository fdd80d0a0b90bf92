"""Open the club's database by URL, migrated to the newest schema (Alembic, at every start:
a database made by an older club is brought up to date, and nothing is ever lost on the way).

`sqlite:///path/club.db` (the default, `club-data/club.db`): write-ahead logging, so the
hall's reads never wait on a result being written, and foreign keys on. Any other URL
SQLAlchemy knows, e.g. `postgresql+psycopg://user@host/club`.
"""

from importlib import resources

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event


def open_database(url: str) -> Engine:
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    migrate(engine)
    return engine


def _sqlite_pragmas(connection, record) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # a result acknowledged is on the disk
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the database to `revision` (the newest by default)."""
    config = Config()
    config.set_main_option("script_location", str(resources.files(__package__) / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
