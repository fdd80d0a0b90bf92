"""Every finished match the tables sent (issue 22).

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


def downgrade() -> None:
    op.drop_table("matches")
