"""Every finished match the tables sent, and every name each player has had (issue 22).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match_id", sa.String(64), primary_key=True),
        sa.Column("started", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended", sa.DateTime(timezone=True), nullable=True),
        sa.Column("player_a", sa.String(40), nullable=False),
        sa.Column("player_b", sa.String(40), nullable=False),
        sa.Column("winner", sa.String(1), nullable=True),
        sa.Column("frames_a", sa.Integer, nullable=False),
        sa.Column("frames_b", sa.Integer, nullable=False),
        sa.Column("assign_id", sa.String(64), nullable=True),
        sa.Column("digest", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
    )

    names = op.create_table(
        "player_names",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("key", sa.String(160), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    # The names the players have now (a merged one's as it was: "merged <id>: <key>").
    players = sa.table(
        "players", sa.column("id"), sa.column("key"), sa.column("created", sa.DateTime)
    )
    rows = op.get_bind().execute(sa.select(players.c.id, players.c.key, players.c.created))
    op.bulk_insert(
        names,
        [{"player_id": r.id, "key": r.key.split(": ", 1)[-1], "since": r.created} for r in rows],
    )


def downgrade() -> None:
    op.drop_table("player_names")
    op.drop_table("matches")
