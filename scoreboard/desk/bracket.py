"""Single and double elimination, with byes where the players are not a power of two.

A bracket is a list of :class:`Game`: each of its two places is filled from a seed, or from
the winner or the loser of an earlier game. A place whose seed is past the players' count is
a bye (nobody): a game with nobody on one side is won by the other without being played, and
its loser is nobody (so a bye in the winners' bracket is a bye in the losers' too). Results
are recorded by game id; everything else is worked out from them, so a bracket is stored as
(players, format, results) and can never disagree with itself.

Double elimination is played as pyramid federations play it: out after two losses. The
losers' bracket takes each round's losers of the winners' bracket in turn; the final is the
winners' bracket's champion (no loss) against the losers' (one loss), and if the latter wins,
a second final (``GF2``) is played, for then both have lost once.

Game ids: ``W<round>-<n>`` and ``L<round>-<n>`` (rounds and games from 1), ``GF``, ``GF2``.
"""

from dataclasses import dataclass, field

from scoreboard.desk.draw import bracket_size, seed_positions

SINGLE, DOUBLE = "single", "double"


class BracketError(ValueError):
    """A result the bracket cannot take; the message says why."""


class PlayedSince(BracketError):
    """A result that cannot change: later games took a player from it and were played."""


@dataclass(frozen=True)
class Source:
    """Where a game's place is filled from: ``seed`` n (1-based), or the ``winner`` or
    ``loser`` of game `ref`."""

    kind: str  # "seed", "winner", "loser"
    ref: int | str


@dataclass(frozen=True)
class Game:
    id: str
    stage: str  # "W" winners', "L" losers', "F" the final(s)
    round: int  # within its stage, from 1
    a: Source
    b: Source
    needed_if_b_wins: str | None = None  # GF2: played only if the losers' champion won GF


NOBODY = None  # a bye
PENDING = object()  # a place not known yet: its game is not decided


@dataclass
class Result:
    winner: str
    frames: tuple[int, int] | None = None  # (a's, b's), as the table scored them
    walkover: bool = False  # given by staff (a player missing), not played


@dataclass
class Bracket:
    """`players` in seed order (seed 1 first); `results` by game id."""

    players: list[str]
    kind: str = SINGLE
    results: dict[str, Result] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise BracketError("a bracket needs two players at least")
        if len({p.casefold() for p in self.players}) != len(self.players):
            raise BracketError("a player is listed twice")
        if self.kind not in (SINGLE, DOUBLE):
            raise BracketError(f"no such format {self.kind!r}")
        self.games = _games(len(self.players), self.kind)
        self.by_id = {g.id: g for g in self.games}
        # Each game's outcome as worked out from the results, until a result changes: a
        # place is found through every game before it, which without this took 3 s to play
        # a 64-player double elimination through (and the club asks after every result).
        self._outcomes: dict[str, object] = {}

    # -- who plays --------------------------------------------------------------------------
    def place(self, source: Source):
        """The player a place holds: a name, NOBODY (a bye), or PENDING."""
        if source.kind == "seed":
            n = int(source.ref)
            return self.players[n - 1] if n <= len(self.players) else NOBODY
        outcome = self.outcome(str(source.ref))
        if outcome is PENDING:
            return PENDING
        winner, loser = outcome
        return winner if source.kind == "winner" else loser

    def sides(self, game_id: str) -> tuple:
        game = self.by_id[game_id]
        return self.place(game.a), self.place(game.b)

    def outcome(self, game_id: str):
        """(winner, loser) of a decided game (either may be NOBODY), else PENDING. A game with
        a bye is decided by itself; a GF2 not needed is decided with nobody in it."""
        if game_id not in self._outcomes:
            self._outcomes[game_id] = self._outcome(game_id)
        return self._outcomes[game_id]

    def _outcome(self, game_id: str):
        game = self.by_id[game_id]
        if game.needed_if_b_wins is not None and not self._needed(game):
            return PENDING if self.outcome(game.needed_if_b_wins) is PENDING else (None, None)
        a, b = self.sides(game_id)
        if a is PENDING or b is PENDING:
            return PENDING
        if a is NOBODY or b is NOBODY:
            return (a if b is NOBODY else b), NOBODY
        result = self.results.get(game_id)
        if result is None:
            return PENDING
        return result.winner, (b if result.winner == a else a)

    def _needed(self, gf2: Game) -> bool:
        first = self.outcome(gf2.needed_if_b_wins)
        if first is PENDING:
            return False
        gf = self.by_id[gf2.needed_if_b_wins]
        return first[0] is not NOBODY and first[0] == self.place(gf.b)

    def ready(self) -> list[Game]:
        """The games whose two players are known and that are not played yet, in order."""
        out = []
        for game in self.games:
            if game.id in self.results or self.outcome(game.id) is not PENDING:
                continue
            a, b = self.sides(game.id)
            if a not in (PENDING, NOBODY) and b not in (PENDING, NOBODY):
                out.append(game)
        return out

    def played(self) -> list[Game]:
        return [g for g in self.games if g.id in self.results]

    # -- results ----------------------------------------------------------------------------
    def record(self, game_id: str, winner: str, *, frames=None, walkover=False) -> None:
        """The result of a game that is ready, or a correction of one whose players have not
        played since (BracketError otherwise)."""
        if game_id not in self.by_id:
            raise BracketError(f"no game {game_id!r}")
        a, b = self.sides(game_id)
        if a in (PENDING, NOBODY) or b in (PENDING, NOBODY):
            raise BracketError(f"{game_id} is not ready: its players are not both known")
        if winner not in (a, b):
            raise BracketError(f"{winner!r} does not play in {game_id} ({a} – {b})")
        if game_id in self.results and (later := self._played_after(game_id)):
            raise PlayedSince(f"{game_id} cannot change: {', '.join(later)} played since")
        self.results[game_id] = Result(winner, tuple(frames) if frames else None, walkover)
        self._outcomes.clear()

    def _played_after(self, game_id: str) -> list[str]:
        """The played games that took a player from `game_id`, directly or further on."""
        later, todo = [], [game_id]
        while todo:
            ref = todo.pop()
            for g in self.games:
                if ref in (g.a.ref, g.b.ref, g.needed_if_b_wins):
                    if g.id in self.results:
                        later.append(g.id)
                    todo.append(g.id)
        return sorted(set(later))

    # -- the end -----------------------------------------------------------------------------
    def final(self) -> Game:
        return self.games[-1] if self.kind == SINGLE else self._decisive_final()

    def _decisive_final(self) -> Game:
        gf2 = self.by_id["GF2"]
        return gf2 if self._needed(gf2) else self.by_id["GF"]

    def champion(self) -> str | None:
        outcome = self.outcome(self.final().id)
        return None if outcome is PENDING else outcome[0]

    def done(self) -> bool:
        """The champion is known: nothing is left to play."""
        return self.champion() is not None

    def losses(self) -> dict[str, int]:
        """Games lost by each player (byes are not losses; a walkover is)."""
        lost = {p: 0 for p in self.players}
        for game in self.played():
            outcome = self.outcome(game.id)
            if outcome is not PENDING and outcome[1] is not NOBODY:
                lost[outcome[1]] += 1
        return lost

    def standings(self) -> list[tuple[int, list[str]]]:
        """(place, players) best first, when the champion is known: the champion, then the
        others by the game they went out in, later games better; players who went out in
        the same round share a place (as brackets are ranked: 3rd, 5th-6th, ...)."""
        champion = self.champion()
        if champion is None:
            return []
        limit = 1 if self.kind == SINGLE else 2
        out_in: dict[str, tuple[bool, int]] = {}
        lost = {p: 0 for p in self.players}
        order = {g.id: n for n, g in enumerate(self.games)}
        for game in sorted(self.played(), key=lambda g: order[g.id]):
            loser = self.outcome(game.id)[1]
            if loser is NOBODY:
                continue
            lost[loser] += 1
            if lost[loser] == limit:
                out_in[loser] = (game.stage == "F", game.round)  # later: a better place
        ranked = sorted(out_in.items(), key=lambda item: item[1], reverse=True)
        places: list[tuple[int, list[str]]] = [(1, [champion])]
        place = 2
        for key in sorted({k for _, k in ranked}, reverse=True):
            group = sorted(p for p, k in ranked if k == key)
            places.append((place, group))
            place += len(group)
        return places


def _games(players: int, kind: str) -> list[Game]:
    size = bracket_size(players)
    seeds = seed_positions(size)
    rounds = size.bit_length() - 1
    winners: list[list[Game]] = []
    first = [
        Game(f"W1-{n + 1}", "W", 1, Source("seed", seeds[2 * n]), Source("seed", seeds[2 * n + 1]))
        for n in range(size // 2)
    ]
    winners.append(first)
    for r in range(2, rounds + 1):
        before = winners[-1]
        winners.append(
            [
                Game(
                    f"W{r}-{n + 1}",
                    "W",
                    r,
                    Source("winner", before[2 * n].id),
                    Source("winner", before[2 * n + 1].id),
                )
                for n in range(len(before) // 2)
            ]
        )
    games = [g for row in winners for g in row]
    if kind == SINGLE:
        return games
    losers = _losers(winners)
    champion_of_losers = (
        Source("winner", losers[-1].id) if losers else Source("loser", winners[0][0].id)
    )
    final = Game("GF", "F", 1, Source("winner", winners[-1][0].id), champion_of_losers)
    reset = Game("GF2", "F", 2, Source("winner", "GF"), Source("loser", "GF"), "GF")
    return games + losers + [final, reset]


def _losers(winners: list[list[Game]]) -> list[Game]:
    """The losers' bracket: round 1 pairs the losers of the winners' round 1; then in turn a
    round that takes the next winners' round's losers (in reverse order, so two who met
    do not meet again at once) and a round among the survivors."""
    if len(winners) < 2:
        return []
    games: list[Game] = []
    row = [
        Game(f"L1-{n + 1}", "L", 1, Source("loser", w[0].id), Source("loser", w[1].id))
        for n, w in enumerate(zip(winners[0][::2], winners[0][1::2], strict=True))
    ]
    games += row
    number = 1
    for r in range(1, len(winners)):
        dropping = winners[r][::-1]
        number += 1
        row = [
            Game(f"L{number}-{n + 1}", "L", number, Source("winner", g.id), Source("loser", d.id))
            for n, (g, d) in enumerate(zip(row, dropping, strict=True))
        ]
        games += row
        if len(row) > 1:
            number += 1
            row = [
                Game(
                    f"L{number}-{n + 1}",
                    "L",
                    number,
                    Source("winner", row[2 * n].id),
                    Source("winner", row[2 * n + 1].id),
                )
                for n in range(len(row) // 2)
            ]
            games += row
    return games
