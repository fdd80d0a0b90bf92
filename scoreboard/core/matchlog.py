"""The match-log text format: one event a line (see README); parse, format and replay it."""

import contextlib
import functools
import gc
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scoreboard.core.frame_clock import TimeMark, format_mark, parse_mark
from scoreboard.core.match import CANCEL, UNDO, Amend, Cancel, Item, Match, Undo
from scoreboard.rules.errors import RuleError
from scoreboard.rules.events import (
    Break,
    Choice,
    Choose,
    Event,
    JumpedBall,
    Lapse,
    NextFrame,
    Option,
    PenaltyRule,
    Players,
    Race,
    Shot,
    Target,
)
from scoreboard.rules.fouls import parse_kinds
from scoreboard.rules.sides import parse_side


class LogError(ValueError):
    """A log line that breaks the format or the rules; says which line and why."""

    def __init__(self, line_no: int, reason: str) -> None:
        super().__init__(f"line {line_no}: {reason}")
        self.line_no = line_no
        self.reason = reason


def _count(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()):  # str.isdigit() takes '٣' and '³' too
        raise ValueError(f"{what} must be a whole number, not {text!r}")
    return int(text)


def _yes_no(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"crossed must be yes or no, not {text!r}")
    return text == "yes"


SHOT_KEYS = {
    "pots": lambda v: ("pots", _count(v, "pots")),
    "foul": lambda v: ("fouls", parse_kinds(v)),
    "jumped": lambda v: ("jumped", _count(v, "jumped")),
    "cushions": lambda v: ("cushions", _count(v, "cushions")),
    "crossed": lambda v: ("crossed", _yes_no(v)),
    "by": lambda v: ("by", parse_side(v)),
}


def _shot(words: list[str]) -> Shot:
    fields = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or key not in SHOT_KEYS:
            raise ValueError(f"unknown shot field {word!r} (known: {', '.join(SHOT_KEYS)})")
        name, parsed = SHOT_KEYS[key](value)
        if name in fields:
            raise ValueError(f"{key}= given twice")
        fields[name] = parsed
    return Shot(**fields)


def _words(words: list[str], n: int, usage: str) -> list[str]:
    if len(words) != n:
        raise ValueError(f"expected: {usage}")
    return words


OPTIONS = {"jumped-ball": JumpedBall, "penalty": PenaltyRule}
OPTION_USAGE = "option jumped-ball=foul|spot or option penalty=ball|american"


def _option(words: list[str]) -> Option:
    key, _, value = _words(words, 1, OPTION_USAGE)[0].partition("=")
    kind = OPTIONS.get(key)
    if kind is None or value not in tuple(kind):
        raise ValueError(f"expected: {OPTION_USAGE}")
    return Option(**{key.replace("-", "_"): kind(value)})


def _choice(words: list[str]) -> Choose:
    (word,) = _words(words, 1, "choose " + "|".join(Choice))
    if word not in tuple(Choice):
        raise ValueError(f"unknown choice {word!r} (known: {', '.join(Choice)})")
    return Choose(Choice(word))


PARSERS = {
    "players": lambda w: Players(*_words(w, 2, "players NAME_A NAME_B")),
    "race": lambda w: Race(_count(_words(w, 1, "race N")[0], "race")),
    "target": lambda w: Target(_count(_words(w, 1, "target N")[0], "target")),
    "option": _option,
    "break": lambda w: Break(parse_side(_words(w, 1, "break A|B")[0])),
    "shot": _shot,
    "choose": _choice,
    "lapse": lambda w: (_words(w, 0, "lapse"), Lapse())[1],
    "next": lambda w: (_words(w, 0, "next"), NextFrame())[1],
    "undo": lambda w: (_words(w, 0, "undo"), UNDO)[1],
    "cancel": lambda w: (_words(w, 0, "cancel"), CANCEL)[1],
    "amend": lambda w: _amend(w),
}


def _amend(words: list[str]) -> Amend:
    """``amend shot pots=2``: the last event becomes the event the rest of the line is."""
    if not words or words[0] in ("undo", "cancel", "amend"):
        raise ValueError("expected: amend EVENT (e.g. amend shot pots=2)")
    return Amend(_event(tuple(words)))


def parse_line(text: str) -> Item | TimeMark | None:
    """One line → an event, :data:`UNDO`, an amend, :data:`CANCEL`, a time mark, or ``None``
    for a blank line or comment.

    Raises :class:`ValueError` with the reason when the line is not in the format.
    """
    words = tuple(text.split("#", 1)[0].split())
    if words:
        return _event(words)
    return parse_mark(text.strip())  # a comment, or a time mark (frame_clock.py)


@functools.lru_cache(maxsize=512)
def _event(words: tuple[str, ...]) -> Event | str:
    """Events are immutable, so a line seen before gives the same object: a long log's
    undo stack then holds one ``shot`` for all its misses, not one each."""
    verb, *rest = words
    if verb not in PARSERS:
        raise ValueError(f"unknown event {verb!r} (known: {', '.join(PARSERS)})")
    return PARSERS[verb](rest)


@dataclass(frozen=True, slots=True)
class Entry:
    line_no: int
    item: Item | TimeMark


def entries(lines: Iterable[str]) -> Iterator[Entry]:
    """The log's events one at a time, as the lines are read (a log is never held whole)."""
    for line_no, text in enumerate(lines, start=1):
        try:
            item = parse_line(text)
        except ValueError as exc:
            raise LogError(line_no, str(exc)) from None
        if item is not None:
            yield Entry(line_no, item)


def parse(lines: Iterable[str]) -> list[Entry]:
    """Every event of a log, with its line number."""
    return list(entries(lines))


@contextlib.contextmanager
def gc_paused():
    """Replay makes only immutable, acyclic records that reference counting frees; the
    cyclic collector would only walk the growing history again and again (a quarter of
    replay's time), so it rests until the replay is done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def replay(lines: Iterable[str], match: Match | None = None) -> Match:
    """Replay a log, applying each line as it is read; the first refused line raises
    :class:`LogError`. ``lines`` may be an open file: memory then does not grow with it."""
    match = match or Match()
    with gc_paused():
        for entry in entries(lines):
            try:
                match.step(entry.item)
            except RuleError as exc:
                raise LogError(entry.line_no, str(exc)) from None
    return match


def format_event(event: Item | TimeMark) -> str:
    """The canonical log line for an event (what the journal writes)."""
    match event:
        case TimeMark():
            return format_mark(event)
        case Undo():
            return "undo"
        case Cancel():
            return "cancel"
        case Amend(event=amended):
            return "amend " + format_event(amended)
        case Players(a, b):
            return f"players {a} {b}"
        case Race(frames):
            return f"race {frames}"
        case Target(points):
            return f"target {points}"
        case Option(jumped_ball=jumped_ball, penalty=None) if jumped_ball is not None:
            return f"option jumped-ball={jumped_ball}"
        case Option(jumped_ball=None, penalty=rule) if rule is not None:
            return f"option penalty={rule}"
        case Break(side):
            return f"break {side}"
        case Choose(choice):
            return f"choose {choice}"
        case Lapse():
            return "lapse"
        case NextFrame():
            return "next"
        case Shot():
            return _format_shot(event)
    raise TypeError(f"not an event: {event!r}")


def _format_shot(shot: Shot) -> str:
    words = ["shot"]
    if shot.pots:
        words.append(f"pots={shot.pots}")
    if shot.fouls:
        words.append("foul=" + ",".join(shot.fouls))
    if shot.jumped:
        words.append(f"jumped={shot.jumped}")
    if shot.cushions is not None:
        words.append(f"cushions={shot.cushions}")
    if shot.crossed is not None:
        words.append(f"crossed={'yes' if shot.crossed else 'no'}")
    if shot.by:
        words.append(f"by={shot.by}")
    return " ".join(words)
