"""The table's faults as the displays show them: the sensor board lost or reporting losses,
stuck beams, and pockets that never fire (a sensor that is silent while the others count).

Fed every event the app handles (`note`); `shown()` is what goes over the score.
"""

from scoreboard.inputs.events import (
    BoardFault,
    BoardHello,
    BoardLost,
    Pot,
    SensorCleared,
    SensorStuck,
)

SILENT_AFTER_POTS = 24  # a pocket that never fired while others caught this many balls
POCKETS = 6


class Faults:
    def __init__(self) -> None:
        self._faults: dict[tuple, dict] = {}
        self.pocket_pots = [0] * POCKETS  # balls each pocket's sensor counted this match

    def note(self, event) -> None:
        """Follow one event: a fault that starts or clears, or a ball a sensor counted."""
        match event:
            case BoardHello():
                self._faults.pop(("board-lost",), None)
            case BoardFault(kind=kind, count=count):
                self._faults[("board", kind)] = {"kind": f"board-{kind}", "count": count}
            case BoardLost():
                self._faults[("board-lost",)] = {"kind": "board-lost"}
            case SensorStuck(pocket=pocket):
                self._faults[("sensor-stuck", pocket)] = {"kind": "sensor-stuck", "pocket": pocket}
            case SensorCleared(pocket=pocket):
                self._faults.pop(("sensor-stuck", pocket), None)
            case Pot(retract=False, pocket=pocket):
                self._count(pocket)

    def new_match(self) -> None:
        self.pocket_pots = [0] * POCKETS

    def shown(self) -> tuple[dict, ...]:
        return tuple(self._faults.values())

    def _count(self, pocket: int) -> None:
        if 1 <= pocket <= POCKETS:
            self.pocket_pots[pocket - 1] += 1
        if sum(self.pocket_pots) < SILENT_AFTER_POTS:
            return
        for number, count in enumerate(self.pocket_pots, start=1):
            key = ("sensor-silent", number)
            if count == 0:
                self._faults[key] = {"kind": "sensor-silent", "pocket": number}
            else:
                self._faults.pop(key, None)
