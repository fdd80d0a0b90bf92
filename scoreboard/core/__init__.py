"""The match above the rules: its phases and lifecycle, its log, frame times, summary and the
settings a match starts with. Pure: it imports only the rules (checked by import-linter)."""
