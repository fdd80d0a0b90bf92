"""The club database's tables (SQLAlchemy Core). Alembic's migrations (migrations/versions/)
make them; a test checks the newest migration gives exactly these."""

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
)

metadata = MetaData()

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(40), nullable=False),  # as the tables show it, 12 letters at most
    Column("key", String(160), nullable=False, unique=True),  # the name casefolded: one Olena
    Column("full_name", String(120), nullable=False, default=""),
    Column("nickname", String(40), nullable=False, default=""),
    Column("merged_into", Integer, ForeignKey("players.id"), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(120), nullable=False),
    Column("format", String(20), nullable=False),  # desk/bracket.py SINGLE or DOUBLE
    Column("settings", JSON, nullable=False),  # race, target, options
    Column("draw_seed", Integer, nullable=True),  # a recorded draw's number; None: by rating
    Column("created", DateTime(timezone=True), nullable=False),
)

entries = Table(
    "entries",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("seed", Integer, primary_key=True),  # 1 first
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    UniqueConstraint("tournament_id", "player_id"),
)

games = Table(
    "games",
    metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), primary_key=True),
    Column("game", String(12), primary_key=True),  # desk/bracket.py's id: W1-3, L2-1, GF
    Column("winner_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("frames_a", Integer, nullable=True),
    Column("frames_b", Integer, nullable=True),
    Column("walkover", Boolean, nullable=False, default=False),
    Column("table_id", String(32), nullable=True),  # where it was played
    Column("recorded", DateTime(timezone=True), nullable=False),
    Column("recorded_by", String(40), nullable=False),  # "table t3", "staff"
)

# Every result and every correction, never changed: who, when, what (issue 22).
corrections = Table(
    "corrections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id"), nullable=False),
    Column("game", String(12), nullable=False),
    Column("winner_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("frames_a", Integer, nullable=True),
    Column("frames_b", Integer, nullable=True),
    Column("walkover", Boolean, nullable=False, default=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("by", String(40), nullable=False),
)

# Every finished match a table sent (issue 22), one row per (table, match id): a changed result
# (UNDO at the table after the end, then another end) replaces it. The ratings come from these.
matches = Table(
    "matches",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("match_id", String(64), primary_key=True),
    Column("started", DateTime(timezone=True), nullable=True),
    Column("ended", DateTime(timezone=True), nullable=True),
    Column("player_a", String(40), nullable=False),  # as the table sent them
    Column("player_b", String(40), nullable=False),
    Column("winner", String(1), nullable=True),  # A, B, or none
    Column("frames_a", Integer, nullable=False),
    Column("frames_b", Integer, nullable=False),
    Column("assign_id", String(64), nullable=True),  # the club's assign it was for
    Column("digest", String(16), nullable=False),  # what it came to (mqtt/results.py digest)
    Column("result", JSON, nullable=False),  # as sent
)

# Every name each player has had on the roster and since when (issue 22): a match's players
# are found by the name the table sent, as the roster had it when the match ended; a rename
# keeps a player's matches, and a name freed and taken by another takes none of them.
player_names = Table(
    "player_names",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("key", String(160), nullable=False),  # the name casefolded, as players.key
    Column("since", DateTime(timezone=True), nullable=False),
)

# Table time (issue 22): for each table and day (the club's time zone), the seconds it was in
# play and idle, from the tables' own state as the club saw it; offline time is not counted.
table_time = Table(
    "table_time",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("in_play", Integer, nullable=False, default=0),  # seconds
    Column("idle", Integer, nullable=False, default=0),  # seconds
)

# The tables' public keys (issue 34): a table's result is taken only when it is signed by a key
# the staff approved for that table. A key a table announces (its `info`, or a result signed by
# it) waits for the staff as "awaiting", one a table at most; a stolen one is "withdrawn".
table_keys = Table(
    "table_keys",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("key", String(64), primary_key=True),  # Ed25519: its 32 bytes in base64
    Column("status", String(10), nullable=False),  # awaiting | approved | withdrawn
    Column("seen", DateTime(timezone=True), nullable=False),  # first announced or registered
    Column("decided", DateTime(timezone=True), nullable=True),
    Column("decided_by", String(40), nullable=True),  # "staff Ira"
)

# The tables' results not taken (issue 34), one per (table, match id): held until the staff
# approve the key that signed it, or refused, with why (a signature that did not verify).
results_not_taken = Table(
    "results_not_taken",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("match_id", String(64), primary_key=True),
    Column("state", String(10), nullable=False),  # held | refused
    Column("reason", String(200), nullable=False),
    Column("key", String(64), nullable=True),  # the key it names
    Column("at", DateTime(timezone=True), nullable=False),
    Column("result", JSON, nullable=False),  # as sent
)
