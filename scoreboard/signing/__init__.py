"""Results signed by the table (issue 34): each table's own Ed25519 key and what it signs.

- `table_key.py`: the key, made once in the table's state folder by whichever process needs it
  first, never replaced, never anywhere else;
- `signature.py`: what a signed result is (its canonical bytes), signing it, and checking it
  against a table's public key (the club, `scoreboard verify`).
"""
