"""The order players enter a tournament: seed 1 first.

By rating (the club's, `ratings.py`), or by a recorded draw: the players shuffled by a seed
number with Python's own Mersenne Twister, so the desk can print the number before the draw
and anyone can repeat it (`drawn(players, seed)` gives the same order on any machine).
"""

import random


def by_rating(players: list[str], ratings: dict[str, float]) -> list[str]:
    """Highest rating first; the unrated last; ties in the order given."""
    order = {name: n for n, name in enumerate(players)}
    return sorted(players, key=lambda p: (p not in ratings, -ratings.get(p, 0.0), order[p]))


def drawn(players: list[str], seed: int) -> list[str]:
    """The players in the order a draw with `seed` gives (sorted first: the order they were
    typed in does not change the draw)."""
    order = sorted(players, key=lambda p: (p.casefold(), p))
    random.Random(seed).shuffle(order)
    return order


def bracket_size(players: int) -> int:
    """The smallest power of two that holds `players` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """The seed (1-based) at each position of a bracket of `size`, top to bottom: 1 and 2 in
    different halves, 1-4 in different quarters, and seed s meets seed size+1-s in round 1
    (for 8: 1 8 4 5 2 7 3 6). The seeds past the players' count are byes, so the byes go to
    the best seeds."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order
