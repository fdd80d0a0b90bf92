"""The club's database (issue 22): the players, the tournaments and their results, kept by
SQLAlchemy Core with Alembic's migrations. SQLite (WAL) is the default, one file beside the
club's results, needing nothing else on a fresh machine; PostgreSQL for a club that outgrows
one box or a federation gathering many clubs: the same code and the same tests on both.

- `schema.py`: the tables;
- `database.py`: open a database by URL, migrated to the newest schema;
- `players.py`: add, rename and merge players (a merge keeps both histories);
- `tournaments.py`: a tournament's players, format and results; its bracket worked out by
  scoreboard/desk/ from them;
- `table_keys.py`: the tables' public keys (awaiting, approved, withdrawn) and the results
  not taken, held for a key or refused (issue 34).
"""
