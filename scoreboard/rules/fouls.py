"""Foul kinds named in RULES.md ("Foul kinds worth naming") and their parsing."""

from enum import StrEnum


class FoulKind(StrEnum):
    CUE_TIP = "cue-tip"  # GR-5.1
    FEET = "feet"  # GR-5.2
    NO_CONTACT = "no-contact"  # GR-6.2 / GR-6.4
    OUT_OF_TURN = "out-of-turn"  # GR-7.3
    ILLEGAL_BREAK = "illegal-break"  # GR-13.1
    EARLY_STROKE = "early-stroke"  # GR-15.2
    TOUCHED_BALL = "touched-ball"  # GR-16
    DOUBLE_HIT = "double-hit"  # GR-17
    PUSH = "push"  # GR-18 / GR-19.1
    JUMPED_BALL = "jumped-ball"  # FP-8, D-4
    OTHER = "other"


FOUL_KINDS: tuple[FoulKind, ...] = tuple(FoulKind)


def parse_kinds(text: str) -> tuple[FoulKind, ...]:
    """``"push,double-hit"`` → kinds in the order given, duplicates dropped (D-6)."""
    kinds: list[FoulKind] = []
    for word in text.split(","):
        try:
            kind = FoulKind(word.strip().lower())
        except ValueError:
            known = ", ".join(FOUL_KINDS)
            raise ValueError(f"unknown foul kind {word!r} (known: {known})") from None
        if kind not in kinds:
            kinds.append(kind)
    return tuple(kinds)
