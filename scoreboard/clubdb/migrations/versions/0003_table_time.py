"""Table time: each table's seconds in play and idle, by day (issue 22).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "table_time",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("in_play", sa.Integer, nullable=False),
        sa.Column("idle", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_time")
