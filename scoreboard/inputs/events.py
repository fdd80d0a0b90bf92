"""Input events put on the loop's queue by buttons, pocket sensors and the sensor board.

Every event is frozen and carries `t`: seconds on the clock of the thread that made it
(the loop's clock, `time.monotonic` unless a test passes its own).
"""

from dataclasses import dataclass
from enum import StrEnum


class Button(StrEnum):
    """The four buttons at the table; a StrEnum, so each is still its config key's word."""

    A = "A"  # player A: shoots, chooses, breaks
    B = "B"
    FOUL = "foul"  # the shot being played was a foul; further presses cycle its kind
    UNDO = "undo"  # takes back the last step; held: a new match


BUTTONS = tuple(Button)


@dataclass(frozen=True)
class ButtonPress:
    """A short press, known on release: `t` is when the release settled."""

    button: Button | str
    t: float


@dataclass(frozen=True)
class ButtonHold:
    """A press held for the button's hold time; `t` is when the hold time was reached.

    The release of a hold gives no ButtonPress.
    """

    button: Button | str
    t: float


@dataclass(frozen=True)
class Pot:
    """A ball counted in `pocket` (1-6); `t` is when it broke the beam.

    `source` is "gpio" or "board"; a board pot carries its `serial`, unique within the
    board's `store`, so a journal can recognise a pot it has already seen, and `prev`,
    the serial the board sent before it: it may count only once that one is held
    (scoreboard/store/pot_ledger.py). A board's `pocket` is as it came: the ledger checks it.
    `retract`: the ball counted in `pocket` on its leading edge was a stuck beam, not a
    ball, and is taken back (pocket_counter.RETRACT).
    """

    pocket: int
    t: float
    source: str = "gpio"
    serial: int | None = None
    store: int | None = None
    prev: int | None = None
    retract: bool = False


@dataclass(frozen=True)
class BoardHello:
    """The sensor board answered; `reset` is True when its boot id changed (it restarted).

    `store` and `acked` are the board's store id and the last serial a host acked to it,
    as its flash remembers: the pot ledger answers with what the journal holds.
    """

    version: str
    boot_id: int
    t: float
    reset: bool = False
    store: int | None = None
    acked: int = 0


@dataclass(frozen=True)
class BoardFault:
    """The board says it lost something: `kind` "pots-dropped" (its outbox was full while
    no host acked) or "edges-missed" (its edge ring overflowed); `count` so far this boot."""

    kind: str
    count: int
    t: float


@dataclass(frozen=True)
class BoardLost:
    """The sensor board went silent or its port failed; `reason` is for people."""

    t: float
    reason: str = ""


@dataclass(frozen=True)
class SensorStuck:
    """A beam blocked too long: that pocket is ignored until SensorCleared."""

    pocket: int
    t: float


@dataclass(frozen=True)
class SensorCleared:
    """A stuck beam has stayed clear long enough: the pocket counts again."""

    pocket: int
    t: float
