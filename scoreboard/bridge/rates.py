"""How often a source may ask: a token bucket for each (issue 21). `burst` at once, then
`per_second`; the phones' writes (net/writes.py) and the socket's clients (bridge/table.py)."""

from collections.abc import Callable, Hashable


class Rates:
    def __init__(self, burst: float, per_second: float, *, clock: Callable[[], float]) -> None:
        self.burst, self.per_second, self.clock = burst, per_second, clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # source -> (tokens, when)

    def wait(self, source: Hashable) -> float:
        """0.0 if `source` may ask now, else the seconds until it may; nothing is counted."""
        tokens = self._tokens(source)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.per_second

    def take(self, source: Hashable) -> float:
        """0.0 if `source` may ask now (it is counted), else the seconds until it may."""
        if wait := self.wait(source):
            return wait
        self._buckets[source] = (self._tokens(source) - 1, self.clock())
        return 0.0

    def _tokens(self, source: Hashable) -> float:
        now = self.clock()
        tokens, at = self._buckets.get(source, (self.burst, now))
        return min(self.burst, tokens + max(0.0, now - at) * self.per_second)

    def forget(self, source: Hashable) -> None:
        """`source` is gone (a client disconnected): its bucket with it."""
        self._buckets.pop(source, None)
