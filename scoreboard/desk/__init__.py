"""The club's desk (issue 22): players, tournaments and ratings, as pure logic.

Nothing here reads a clock, a file or the network: a tournament is its players, its format and
the results recorded so far, and everything else (who plays whom next, who is out, the
standings) follows from those. The club's process keeps them in its database and sends each
match that is ready to a free table; this package says which are ready.

- `draw.py`: the order players enter a bracket (by rating, or a recorded draw: a seed number
  anyone can repeat);
- `bracket.py`: single and double elimination with byes;
- `round_robin.py`: groups, their rounds (the circle method) and their tables;
- `groups.py`: a round robin in groups, or groups then a knockout, with a bracket's face;
- `formats.py`: each format's bracket by its name; `stages.py`: the race per stage;
- `ratings.py`: an Elo rating on frames.
"""
