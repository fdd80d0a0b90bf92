"""Alembic's environment: run by database.py with the connection to migrate."""

from alembic import context

from scoreboard.clubdb.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
