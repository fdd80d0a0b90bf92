"""Test helpers: play a match log given as text and look at the result."""

from scoreboard.core.match import Match
from scoreboard.core.matchlog import replay


def play(log: str) -> dict:
    """Replay ``log`` (one event a line) and return the snapshot."""
    return replay(log.strip().splitlines()).snapshot()


def match(log: str) -> Match:
    return replay(log.strip().splitlines())


def score(snapshot: dict) -> tuple[int, int]:
    return snapshot["score"]["A"], snapshot["score"]["B"]
