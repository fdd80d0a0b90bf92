"""The piezo beeper, where one is fitted ([pins] beeper): short tunes on gpiozero's
TonalBuzzer for the shot clock, a frame's end and a new fault. It only tells; nothing waits
for it. Tunes are played on the app's event loop (its timers end each note), so a test
drives it in simulated time on gpiozero's MockFactory with PWM pins.
"""

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

from scoreboard.core.phase import OVER

# name -> (note, seconds) ...; notes within TonalBuzzer's default range A3 to A5
TUNES = {
    "warning": (("A4", 0.1),),  # the shot clock's last seconds begin
    "time-up": (("A5", 0.6),),  # the shot's time has run out (advisory, docs/decisions.md)
    "extension": (("E5", 0.08), ("A5", 0.08)),  # the striker took his extension
    "frame-over": (("C5", 0.12), ("E5", 0.12), ("A5", 0.3)),  # FP-1: a frame is won
    "fault": (("A3", 0.25), ("A3", 0.25)),  # a sensor or the board needs looking at
}
GAP = 0.05  # silence between two notes of a tune


class Beeper:
    def __init__(self, pin: int, *, call_later, pin_factory=None):
        self.buzzer = TonalBuzzer(pin, pin_factory=pin_factory)
        self.call_later = call_later
        self.played: list[str] = []  # the tunes begun, in order (the sim and tests read it)
        self._timers: list = []
        self._phase = None
        self._faults: set = set()

    def play(self, name: str) -> None:
        """Begin tune `name` now, cutting short one still playing."""
        self._silence()
        self.played.append(name)
        at = 0.0
        for note, seconds in TUNES[name]:
            self._timers.append(self.call_later(at, lambda n=note: self.buzzer.play(Tone(n))))
            self._timers.append(self.call_later(at + seconds, self.buzzer.stop))
            at += seconds + GAP

    # -- an observer of the app (App.observers): what is shown may call for a tune -------------
    def shown(self, shown) -> None:
        phase = shown.snapshot["phase"]
        kinds = {fault["kind"] for fault in shown.faults}
        if phase in OVER and self._phase is not None and self._phase not in OVER:
            self.play("frame-over")
        elif kinds - self._faults:
            self.play("fault")
        self._phase, self._faults = phase, kinds

    def written(self, lines, first) -> None:
        pass

    def _silence(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers = []
        self.buzzer.stop()

    def close(self) -> None:
        self._silence()
        self.buzzer.close()
