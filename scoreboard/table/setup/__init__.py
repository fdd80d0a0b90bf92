"""Setting up the next match at the table (issue 11) and from the network (issue 12).

- `settings.py`: `MatchSettings`, what a match starts with (players, race, target, rule
  options, language, who breaks), its journal lines and its JSON payload.
- `command.py`: `SetupNext`, the command event the app takes from its one queue: the next
  match's settings from a phone (`pair`), the club (`mqtt` `assign`) or a test.
"""
