"""The tables' public keys, and the results not taken: held for a key, or refused (issue 34).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "table_keys",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.String(40), nullable=True),
    )
    op.create_table(
        "results_not_taken",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("match_id", sa.String(64), primary_key=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("key", sa.String(64), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("results_not_taken")
    op.drop_table("table_keys")
