"""How long each frame took, from time marks in the match log (statistics, not rules).

A time mark is a comment line the parser understands, ``# at 2026-12-03T12:40:01.250Z``
(UTC, to the millisecond): to any other reader it is a comment, so it never changes what
a log scores. The app writes one at the head of the two records of a frame that its time
needs: the frame's first shot (its start) and the step that ends it. A mark dates the next
event applied after it; undo takes a frame's start or end back with the event that set it,
so a replay of the journal gives exactly the times the table showed. A log without marks
(written by hand, or before marks existed) has frames of unknown time (``None``).
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime

MARK = "# at "
_MARK = re.compile(r"# at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?)Z")


@dataclass(frozen=True, slots=True)
class TimeMark:
    """When the next event of the log happened: seconds since the epoch (UTC)."""

    t: float


def parse_mark(text: str) -> TimeMark | None:
    """A time-mark line as a TimeMark; any other line (a comment among them) None."""
    if not text.startswith(MARK) or not (found := _MARK.fullmatch(text.rstrip())):
        return None
    return TimeMark(datetime.fromisoformat(found.group(1) + "+00:00").timestamp())


def format_mark(mark: TimeMark) -> str:
    """The log line of a mark, to the millisecond."""
    when = datetime.fromtimestamp(round(mark.t, 3), UTC)
    return f"{MARK}{when.strftime('%Y-%m-%dT%H:%M:%S')}.{when.microsecond // 1000:03d}Z"


# A frame's (start, end) in seconds since the epoch; None where the log has no mark for it.
Span = tuple[float | None, float | None]


class FrameClock:
    """The frames' start and end times, kept beside the match's events so undo is exact.

    :meth:`after` is told each applied event (the number of events then, the rules' state
    before and after it); :meth:`undo` the number of events left after an undo.
    """

    def __init__(self) -> None:
        self.pending: float | None = None  # the last mark, until an event takes it
        self.spans: tuple[Span, ...] = ()  # one per frame begun, in order
        self.used = 0  # how many times a mark has dated a frame's start or end
        self._history: list[tuple[int, tuple[Span, ...]]] = []  # (events, spans before)
        # The spans an undo just took back, until the next mark or event: a frame's first
        # shot entered again in the same record (the panel adds a ball to the open break:
        # `undo` and the shot again) keeps the time it was first entered.
        self._undone: tuple[Span, ...] | None = None

    def mark(self, t: float) -> None:
        self.pending, self._undone = t, None

    def after(self, count: int, before, after) -> None:
        """Event number ``count`` turned rules state ``before`` into ``after``."""
        t, self.pending = self.pending, None
        undone, self._undone = self._undone, None
        starts = after.frame_shots and not before.frame_shots  # its first shot: the break
        ends = after.frame_winner is not None and before.frame_winner is None  # FP-1, D-2
        if not (starts or ends):
            return
        start = t
        if starts and undone is not None and len(undone) == len(self.spans) + 1:
            start = undone[-1][0]  # the same break, amended
        spans = (*self.spans, (start, None)) if starts else self.spans
        if ends:
            spans = (*spans[:-1], (spans[-1][0] if spans else None, t))
        self.used += 1
        self._history.append((count, self.spans))
        self.spans = spans

    def undo(self, count: int) -> None:
        """Only ``count`` events are left: the starts and ends later events set go."""
        undone = self.spans
        while self._history and self._history[-1][0] > count:
            self.spans = self._history.pop()[1]
        self._undone = undone if undone is not self.spans else None

    def put_back(self, spans: tuple[Span, ...]) -> None:
        """The frames' times as they were before a step that UNDO took back (an amend's or a
        cancel's old event goes back in with its own time, not the UNDO's mark)."""
        self.spans = spans

    def save(self) -> tuple:
        return self.pending, self.spans, self.used, len(self._history), self._undone

    def restore(self, saved: tuple) -> None:
        self.pending, self.spans, self.used, length, self._undone = saved
        del self._history[length:]

    def frame_times(self, frames: int) -> list[int | None]:
        """Seconds each of the first ``frames`` finished frames took (None: not known)."""
        times = []
        for start, end in self.spans[:frames]:
            known = start is not None and end is not None
            times.append(round(end - start) if known else None)
        times += [None] * (frames - len(times))
        return times


def clock_text(seconds: int) -> str:
    """Seconds as a clock reads them: "7:05", "1:02:40"."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
