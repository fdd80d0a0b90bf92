"""The loop's part in the GPIO input tests, done by hand."""


def reading(lines, edges, events):
    """Each queued edge to `take()`, then a `tick()` at the clock: what the loop does."""

    def tick():
        while edges:
            events.extend(lines.take(edges.pop(0)))
        events.extend(lines.tick(lines.clock()))

    return tick
