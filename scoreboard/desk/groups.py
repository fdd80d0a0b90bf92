"""Round robin in one or more groups, and groups then a knockout, as one more format the club
plays on the tables: the same face as a bracket (desk/bracket.py Bracket: `games`, `by_id`,
`results`, `sides`, `ready`, `record`, `champion`, `standings`, `done`), so the club's runner
and pages need not know which format they play.

The groups' games are ``G<group>R<round>-<n>`` (``G2R3-1``), stage "G"; a group's round is
ready when its round before is decided, so nobody is asked to two tables at once. With
`qualify` players going on from each group, the knockout (single or double elimination) is
the bracket of the qualifiers seeded by round_robin.knockout_seeds, its games named as a
bracket's (``W1-1``, ``GF``); its places wait until every group game is decided. A group's
result cannot change once the knockout has a result (the seeds came from it)."""

from scoreboard.desk import round_robin
from scoreboard.desk.bracket import (
    PENDING,
    SINGLE,
    Bracket,
    BracketError,
    Game,
    PlayedSince,
    Result,
    Source,
)

ROUND_ROBIN, GROUPS = "round_robin", "groups"


class Groups:
    def __init__(
        self, players: list[str], groups: int = 1, qualify: int = 0, knockout: str = SINGLE
    ) -> None:
        if len({p.casefold() for p in players}) != len(players):
            raise BracketError("a player is listed twice")
        try:
            self.groups = round_robin.groups(players, groups)
        except ValueError as exc:
            raise BracketError(str(exc)) from None
        if qualify and (groups * qualify < 2 or qualify > min(len(g) for g in self.groups)):
            raise BracketError(f"{qualify} from each of {groups} groups cannot make a knockout")
        self.players, self.qualify, self.knockout_kind = players, qualify, knockout
        self.kind = GROUPS if qualify else ROUND_ROBIN
        self.results: dict[str, Result] = {}
        seed = {p: n for n, p in enumerate(players, 1)}
        group_games = []
        for g, members in enumerate(self.groups, 1):
            for r, pairs in enumerate(round_robin.rounds(members), 1):
                group_games += [
                    Game(f"G{g}R{r}-{n}", "G", r, Source("seed", seed[a]), Source("seed", seed[b]))
                    for n, (a, b) in enumerate(pairs, 1)
                ]
        self.group_games = sorted(group_games, key=lambda game: game.round)
        # The knockout's shape depends on its count only: its games are known from the start.
        self._shape = (
            Bracket([f"#{n}" for n in range(groups * qualify)], knockout) if qualify else None
        )
        self.games = self.group_games + (self._shape.games if self._shape else [])
        self.by_id = {g.id: g for g in self.games}

    # -- the groups ---------------------------------------------------------------------------
    def _group_of(self, game: Game) -> int:
        return int(game.id[1 : game.id.index("R")])

    def _groups_done(self) -> bool:
        return all(g.id in self.results for g in self.group_games)

    def tables(self) -> list[list[round_robin.Row]]:
        """Each group's table as it stands."""
        out = []
        for g, members in enumerate(self.groups, 1):
            played = []
            for game in self.group_games:
                result = self.results.get(game.id)
                if self._group_of(game) == g and result is not None:
                    a, b = self.sides(game.id)
                    fa, fb = result.frames or ((1, 0) if result.winner == a else (0, 1))
                    played.append((a, b, fa, fb))
            out.append(round_robin.table(members, played))
        return out

    def knockout(self) -> Bracket | None:
        """The knockout with its results so far, once every group game is decided."""
        if self._shape is None or not self._groups_done():
            return None
        seeds = round_robin.knockout_seeds(self.tables(), self.qualify)
        bracket = Bracket(seeds, self.knockout_kind)
        order = {g.id: n for n, g in enumerate(bracket.games)}
        for game_id in sorted((k for k in self.results if k in order), key=order.get):
            r = self.results[game_id]
            bracket.record(game_id, r.winner, frames=r.frames, walkover=r.walkover)
        return bracket

    # -- a bracket's face ---------------------------------------------------------------------
    def sides(self, game_id: str) -> tuple:
        game = self.by_id[game_id]
        if game.stage == "G":
            return self.players[int(game.a.ref) - 1], self.players[int(game.b.ref) - 1]
        knockout = self.knockout()
        return knockout.sides(game_id) if knockout else (PENDING, PENDING)

    def ready(self) -> list[Game]:
        out = []
        for g in range(1, len(self.groups) + 1):
            waiting = [
                game
                for game in self.group_games
                if self._group_of(game) == g and game.id not in self.results
            ]
            if waiting:
                first = min(game.round for game in waiting)
                out += [game for game in waiting if game.round == first]
        if out:
            return sorted(out, key=lambda game: game.round)
        knockout = self.knockout()
        return knockout.ready() if knockout else []

    def played(self) -> list[Game]:
        return [g for g in self.games if g.id in self.results]

    def record(self, game_id: str, winner: str, *, frames=None, walkover=False) -> None:
        if game_id not in self.by_id:
            raise BracketError(f"no game {game_id!r}")
        game = self.by_id[game_id]
        if game.stage != "G":
            knockout = self.knockout()
            if knockout is None:
                raise BracketError(f"{game_id} is not ready: the groups are not over")
            knockout.record(game_id, winner, frames=frames, walkover=walkover)
        else:
            a, b = self.sides(game_id)
            if winner not in (a, b):
                raise BracketError(f"{winner!r} does not play in {game_id} ({a} – {b})")
            if game_id in self.results and (
                later := sorted(g.id for g in self.played() if g.stage != "G")
            ):
                raise PlayedSince(f"{game_id} cannot change: {', '.join(later)} played since")
        self.results[game_id] = Result(winner, tuple(frames) if frames else None, walkover)

    def champion(self) -> str | None:
        if self._shape is not None:
            knockout = self.knockout()
            return knockout.champion() if knockout else None
        if len(self.groups) == 1 and self._groups_done():
            return self.tables()[0][0].player
        return None

    def done(self) -> bool:
        """Every game that decides something is decided."""
        if self._shape is not None:
            return self.champion() is not None
        return self._groups_done()

    def standings(self) -> list[tuple[int, list[str]]]:
        """(place, players) best first, when done: the knockout's places, then those who
        did not go on, by their place in their group (the same place in different groups
        shared); without a knockout, by group place the same way."""
        if not self.done():
            return []
        places: list[tuple[int, list[str]]] = []
        knockout = self.knockout()
        if knockout is not None:
            places = knockout.standings()
        place = sum(len(p) for _, p in places) + 1
        tables = self.tables()
        for at in range(self.qualify, max(len(t) for t in tables)):
            shared = sorted(t[at].player for t in tables if at < len(t))
            places.append((place, shared))
            place += len(shared)
        return places
