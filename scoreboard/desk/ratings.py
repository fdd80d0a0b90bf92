"""The club's rating: Elo on frames.

Each frame of a match counts as one game between the two players: the expected share of
frames from the ratings before the match (the logistic curve of Elo, 400 points a factor of
ten), and each player moves by K times the frames won above or below that share. A 3:0 moves
more than a 3:2, a longer race more than a shorter; a walkover moves nothing (no frame was
played). Elo rather than Glicko-2: a club's players see every step and can check it by hand,
and no Glicko-2 library on PyPI is kept up; the rating starts at 1500 for everyone.
"""

from dataclasses import dataclass

START = 1500.0
K = 16.0  # points a frame at most


def expected(rating: float, other: float) -> float:
    """The share of frames a player rated `rating` is expected to win against `other`."""
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


@dataclass(frozen=True)
class Change:
    player: str
    before: float
    after: float


def rate(ratings: dict[str, float], a: str, b: str, frames_a: int, frames_b: int) -> list[Change]:
    """The two players' new ratings after a match of `frames_a`:`frames_b` (`ratings` is
    updated; the unrated start at START)."""
    ra, rb = ratings.get(a, START), ratings.get(b, START)
    frames = frames_a + frames_b
    if frames == 0:
        return []
    share = expected(ra, rb)
    delta = K * (frames_a - frames * share)
    ratings[a], ratings[b] = ra + delta, rb - delta
    return [Change(a, ra, ratings[a]), Change(b, rb, ratings[b])]


def replay(matches) -> tuple[dict[str, float], list[Change]]:
    """Ratings from every match in the order played: (a, b, frames_a, frames_b) each; the
    ratings and their history."""
    ratings: dict[str, float] = {}
    history: list[Change] = []
    for a, b, fa, fb in matches:
        history += rate(ratings, a, b, fa, fb)
    return ratings, history
