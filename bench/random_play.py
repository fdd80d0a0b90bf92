"""The long run of random play (tests/test_random_play.py): SEQUENCES random sequences of
presses, holds, balls, pauses, UNDOs, phone requests and restarts through the real table,
every invariant checked after every step. Prints the figures; a failure prints the
sequence hypothesis shrank it to and exits 1.

`make random-play` runs 100,000 sequences in JOBS processes (each its own share, each
its own random seed); `python bench/random_play.py 5000 2` runs fewer.
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), "tests")
CHUNK = 5000


def run_share(sequences: int) -> None:
    """One process's share: random play as `make test` runs it, with more sequences."""
    sys.path.insert(0, TESTS)
    import test_random_play
    from hypothesis import settings
    from hypothesis.stateful import run_state_machine_as_test

    steps = 0
    machine = test_random_play.RandomPlay

    class Counted(machine):
        def check(self, state):
            nonlocal steps
            steps += 1
            super().check(state)

    done = 0
    while done < sequences:  # in chunks, each told on stderr as it ends
        chunk = min(CHUNK, sequences - done)
        run_state_machine_as_test(
            Counted,
            settings=settings(
                max_examples=chunk,
                stateful_step_count=test_random_play.STEPS,
                deadline=None,
                database=None,
            ),
        )
        done += chunk
        print(f"  {os.getpid()}: {done} sequences, {steps} steps", file=sys.stderr, flush=True)
    print(f"share: {sequences} sequences, {steps} steps checked", flush=True)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--share":
        run_share(int(sys.argv[2]))
        return 0
    sequences = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    jobs = int(sys.argv[2]) if len(sys.argv) > 2 else os.cpu_count() or 1
    share = -(-sequences // jobs)
    started = time.perf_counter()
    procs = [
        subprocess.Popen([sys.executable, __file__, "--share", str(share)], stdout=subprocess.PIPE)
        for _ in range(jobs)
    ]
    outputs = [p.communicate()[0].decode() for p in procs]
    seconds = time.perf_counter() - started
    steps = sum(int(o.split("sequences, ")[1].split()[0]) for o in outputs if "share:" in o)
    failed = [p.returncode for p in procs if p.returncode]
    cpu = os.times()
    print(f"random play: {share * jobs} sequences in {jobs} processes, {steps} steps checked")
    print(f"  {seconds:.0f} s wall, {cpu.children_user + cpu.children_system:.0f} s CPU")
    print(
        f"  {1000 * (cpu.children_user + cpu.children_system) / (share * jobs):.1f} ms CPU a"
        " sequence (the processes' start-up included)"
    )
    print("  every invariant held" if not failed else f"  FAILED in {len(failed)} process(es)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
