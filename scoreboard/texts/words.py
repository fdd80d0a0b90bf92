"""What a screen says: the language's catalog plus the configured button timings, so every
"hold 1 s" on a screen is the hold the buttons really need ([timings] in the config).

Screens get one `Words` as `t`: `t.gettext`, `t.ngettext` translate, and `t.hold` /
`t.undo_hold` are the timings as the language writes them ("1 s", "1,5 с"; on a 256 px
display, where there is room, in words with the plural the number takes: "1 секунду",
"2 секунди", "5 секунд").
"""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Timings:
    """The timings the screens name, in seconds; the defaults are the config's."""

    hold: float = 1.0  # [timings] hold_time: A, B and FOUL held
    undo_hold: float = 3.0  # [timings] undo_hold_time

    @classmethod
    def from_config(cls, timings) -> "Timings":
        """From a config's [timings] (scoreboard.config.TimingsConfig)."""
        return cls(hold=timings.hold_time, undo_hold=timings.undo_hold_time)


def shown_seconds(value: float) -> float:
    """A timing as a screen names it: rounded up (holding that long always works), to a
    tenth below 10 s and to whole seconds from 10 s ("1.5 s", "30 s"; never "29.75 s")."""
    if value >= 10:
        return float(math.ceil(value - 1e-9))
    return math.ceil(round(value * 10, 6)) / 10


class Words:
    def __init__(self, translator, timings: Timings | None = None, *, wide: bool = False):
        self._t = translator
        self.timings = timings or Timings()
        self.wide = wide

    def gettext(self, message: str) -> str:
        return self._t.gettext(message)

    def ngettext(self, one: str, many: str, n: int) -> str:
        return self._t.ngettext(one, many, n)

    @property
    def hold(self) -> str:
        return self.seconds(self.timings.hold)

    @property
    def undo_hold(self) -> str:
        return self.seconds(self.timings.undo_hold)

    def timed(self, message: str) -> str:
        """`message` translated, with the timings it names filled in ("Hold {hold}: +1
        ball" → "Hold 1 s: +1 ball"); other fields stay for the caller, which may shorten
        a name to fit but never a timing."""
        text = self._t.gettext(message)
        return text.replace("{hold}", self.hold).replace("{undo_hold}", self.undo_hold)

    def seconds(self, value: float) -> str:
        """`value` seconds as the language writes it, with its decimal mark."""
        number = format(shown_seconds(value), "g")
        whole = number.isdigit()
        if not whole:
            number = number.replace(".", self._t.gettext("decimal-mark"))
        if not self.wide:
            return self._t.gettext("{n} s").format(n=number)
        # A fraction takes the form of "2" in all three languages: "1.5 seconds",
        # "1,5 секунди", "1,5 секунды" (uk/ru: the genitive singular, as for 2-4).
        count = int(number) if whole else 2
        return self._t.ngettext("{n} second", "{n} seconds", count).format(n=number)
