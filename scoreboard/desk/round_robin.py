"""Round robin: groups, their rounds, their tables.

Groups are filled by snake seeding (seeds 1..g across the groups, then g..1 back), so each
group has one of the best and one of the weakest. A group's rounds are the circle method's
(Berger tables): everyone meets everyone once, nobody plays twice in a round, and with an odd
count one player a round sits out. A group's table ranks by matches won, then frame
difference, then frames won, then the match between two still tied, then the seed.
"""

from dataclasses import dataclass


def groups(players: list[str], count: int) -> list[list[str]]:
    """`players` (seed order) into `count` groups by snake seeding."""
    if not 1 <= count <= len(players) // 2:
        raise ValueError(f"{len(players)} players cannot make {count} groups of two or more")
    out: list[list[str]] = [[] for _ in range(count)]
    for n, player in enumerate(players):
        lap, at = divmod(n, count)
        out[at if lap % 2 == 0 else count - 1 - at].append(player)
    return out


def rounds(players: list[str]) -> list[list[tuple[str, str]]]:
    """Every pair once, in rounds where nobody plays twice (the circle method: the first
    player stays, the others turn)."""
    ring: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    out = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if (r + i) % 2 == 0 else (b, a))  # who is A: in turn
        out.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return out


@dataclass
class Row:
    player: str
    played: int = 0
    won: int = 0
    frames_for: int = 0
    frames_against: int = 0

    @property
    def difference(self) -> int:
        return self.frames_for - self.frames_against


def table(players: list[str], results: list[tuple[str, str, int, int]]) -> list[Row]:
    """The group's table from its results (a, b, a's frames, b's frames), best first."""
    rows = {p: Row(p) for p in players}
    beat: set[tuple[str, str]] = set()
    for a, b, fa, fb in results:
        for me, mine, theirs in ((a, fa, fb), (b, fb, fa)):
            row = rows[me]
            row.played += 1
            row.frames_for += mine
            row.frames_against += theirs
        winner, loser = (a, b) if fa > fb else (b, a)
        rows[winner].won += 1
        beat.add((winner, loser))
    seed = {p: n for n, p in enumerate(players)}

    def key(row: Row):
        return (-row.won, -row.difference, -row.frames_for)

    ranked = sorted(rows.values(), key=lambda r: (key(r), seed[r.player]))
    for n in range(len(ranked) - 1):  # two still tied: the match between them
        first, second = ranked[n], ranked[n + 1]
        tied = [r for r in ranked if key(r) == key(first)]
        if len(tied) == 2 and key(second) == key(first) and (second.player, first.player) in beat:
            ranked[n], ranked[n + 1] = second, first
    return ranked


def knockout_seeds(tables: list[list[Row]], qualify: int) -> list[str]:
    """Who goes on from the groups, in seed order for the knockout: the groups' winners
    first (group order), then the runners-up in reverse group order, and so on, so that two
    from one group meet as late as the bracket allows."""
    seeds = []
    for place in range(qualify):
        row = [t[place].player for t in tables if place < len(t)]
        seeds += row if place % 2 == 0 else row[::-1]
    return seeds
