"""Benchmark: what signing a result costs the table and checking it costs the club (issue 34).
Prints; asserts nothing.

Results of realistic size: matches of a club's evening replayed through the real Match (race 1
to 5, every frame to 8 with misses, fouls and their choices, time marks), made into the
`result` payload as the publisher makes it (summarise, history row, mqtt/results.py payload)
with its log's SHA-256. Timed per result, each a median over many: the log's digest, signing
(canonical JSON + Ed25519 + base64, signing/signature.py `sign`), checking (`check`, as the club
and `scoreboard verify` do), and the key read from its file (once a process: the publisher's
start). The first figure a table pays once per finished match, the second the club per result.
"""

import os
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from scoreboard.core.matchlog import replay  # noqa: E402
from scoreboard.core.summary import log_sha256, summarise  # noqa: E402
from scoreboard.mqtt.results import payload  # noqa: E402
from scoreboard.mqtt.topics import encode  # noqa: E402
from scoreboard.signing import signature  # noqa: E402
from scoreboard.signing.table_key import load_or_make  # noqa: E402

RESULTS = 500  # distinct results
ROUNDS = 5  # each timed this many times


def match_log(rng: random.Random, n: int) -> list[str]:
    """A whole match: race 1 to 5, each frame to 8, with misses and fouls (FP-6, GR-7.4)."""
    race = rng.randint(1, 5)
    t = datetime(2026, 12, 3, 18, 0, tzinfo=UTC).timestamp() + n * 3600
    lines = [
        "# match started 2026-12-03T18:00:00Z",
        f"players Olena{n % 7} Тарас{n % 5}",
        f"race {race}",
        "target 8",
        f"break {rng.choice('AB')}",
    ]
    match = replay(lines)
    while match.phase != "match-over":
        if match.phase == "frame-over":
            event = "next"
        elif match.phase in ("foul", "break-foul"):
            event = f"choose {match.snapshot()['choices'][0]}"
        else:
            roll = rng.random()
            event = "shot foul=push" if roll < 0.1 else "shot" if roll < 0.4 else "shot pots=1"
        t += rng.randint(5, 40)
        step = [f"# at {datetime.fromtimestamp(t, UTC):%Y-%m-%dT%H:%M:%S.000Z}", event]
        replay(step, match)
        lines += step
    return lines


def median_us(fn, items) -> float:
    times = []
    for item in items:
        for _ in range(ROUNDS):
            start = time.perf_counter_ns()
            fn(item)
            times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1000


def main() -> None:
    rng = random.Random(34)
    logs = [match_log(rng, n) for n in range(RESULTS)]
    results = []
    for n, lines in enumerate(logs):
        row = {"number": None, **summarise(replay(lines), lines), "archived": False}
        results.append(payload(f"t{n % 8 + 1}", row))
    with tempfile.TemporaryDirectory() as folder:
        load_or_make(folder)  # made once, as at the table's first start
        key = load_or_make(folder)
        signed = [signature.sign(r, key) for r in results]
        digest_us = median_us(log_sha256, logs)
        sign_us = median_us(lambda r: signature.sign(r, key), results)
        check_us = median_us(lambda r: signature.check(r, key=key.public), signed)
        load_us = median_us(lambda _: load_or_make(folder), range(200))
    sizes = sorted(len(encode(r)) for r in signed)
    plain = statistics.median(len(encode(r)) for r in results)
    print(
        f"signing, {RESULTS} results of real matches (race 1 to 5; log lines median "
        f"{statistics.median(len(x) for x in logs):.0f}), {ROUNDS} rounds each:"
    )
    print(
        f"  result payload: median {statistics.median(sizes):.0f} bytes signed "
        f"({plain:.0f} unsigned), largest {sizes[-1]}"
    )
    print(f"  the match log's SHA-256 (table, once a match): median {digest_us:.1f} µs")
    print(f"  sign a result (table, per result sent): median {sign_us:.1f} µs")
    print(f"  check a result (club, per result received; verify): median {check_us:.1f} µs")
    print(f"  the key read from its file (the publisher's start): median {load_us:.1f} µs")


if __name__ == "__main__":
    main()
