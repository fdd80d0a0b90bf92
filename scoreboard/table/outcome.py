"""What an input comes to, as the panel says it and the table carries it out."""

from dataclasses import dataclass

from scoreboard.rules.events import Option, Players, Race, Target


@dataclass(frozen=True)
class Outcome:
    """What an input comes to: items to apply as one step, and/or a hint for the display."""

    items: tuple = ()
    # A message key (see scoreboard.display's catalogs), or (key, ((field, value), ...)) for
    # a message with fields, e.g. ("undone-foul", (("name", "Тарас"),)).
    hint: str | tuple | None = None
    hint_seconds: float | None = None  # how long it shows: a question as long as it is asked
    new_match: bool = False
    restore_match: bool = False  # UNDO with nothing to take back: the archived match, if just made
    pairing: bool = False  # FOUL pressed to the question UNDO held asks: a code to pair a phone
    # A FOUL step that would end the frame waits (Panel.settle) until this moment, unless
    # another FOUL press steps on from it first or another input takes it sooner.
    settle_at: float | None = None


IGNORED = Outcome()


SETUP = (Players, Race, Target, Option)  # the match's settings: UNDO never takes them back
