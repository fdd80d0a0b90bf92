"""The players, the tournaments, their entries, games and corrections (issue 22).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("full_name", sa.String(120), nullable=False),
        sa.Column("nickname", sa.String(40), nullable=False),
        sa.Column("merged_into", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("format", sa.String(20), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("draw_seed", sa.Integer, nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "entries",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("seed", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.UniqueConstraint("tournament_id", "player_id"),
    )
    op.create_table(
        "games",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("game", sa.String(12), primary_key=True),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("frames_a", sa.Integer, nullable=True),
        sa.Column("frames_b", sa.Integer, nullable=True),
        sa.Column("walkover", sa.Boolean, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("recorded", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(40), nullable=False),
    )
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("game", sa.String(12), nullable=False),
        sa.Column("winner_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("frames_a", sa.Integer, nullable=True),
        sa.Column("frames_b", sa.Integer, nullable=True),
        sa.Column("walkover", sa.Boolean, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    for table in ("corrections", "games", "entries", "tournaments", "players"):
        op.drop_table(table)
