"""The two players, A and B, and a pair of values kept per player."""

from typing import Generic, Literal, NamedTuple, TypeVar

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")

T = TypeVar("T")


def other(side: Side) -> Side:
    """The opponent of ``side``."""
    return "B" if side == "A" else "A"


def parse_side(text: str) -> Side:
    """``"A"`` or ``"B"`` (any case); anything else is a :class:`ValueError`."""
    side = text.upper()
    if side not in SIDES:
        raise ValueError(f"expected A or B, got {text!r}")
    return side  # type: ignore[return-value]


class Pair(NamedTuple, Generic[T]):
    """One value for player A and one for player B; immutable (a named tuple: a score
    changes on every pot, and a tuple is the cheapest record to make)."""

    A: T
    B: T

    def __getitem__(self, side: Side) -> T:
        return self.A if side == "A" else self.B

    def set(self, side: Side, value: T) -> "Pair[T]":
        return Pair(value, self.B) if side == "A" else Pair(self.A, value)

    def as_dict(self) -> dict[str, T]:
        return {"A": self.A, "B": self.B}
