"""bench/power_cut.py in a short run: power cuts of the host, the board and both, at random
moments (inside journal and flash writes too), and every ball journaled exactly once."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "power_cut.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("power_cut", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_power_cuts_lose_and_double_no_ball(tmp_path):
    lines = []
    figures = load_bench().power_cuts(60, 2026, parent=str(tmp_path), out=lines.append)
    assert figures["lost"] == 0 and figures["doubled"] == 0, "\n".join(lines)
    assert figures["J"] == figures["D"], "\n".join(lines)
    assert lines[-1] == (
        f"power cuts: {figures['cuts']}, balls dropped: {figures['D']}, "
        f"journaled: {figures['J']}, lost: 0, doubled: 0"
    )
    # The run did what it says: many balls, cuts of every kind and inside both writes.
    assert figures["cuts"] >= 60 and figures["D"] >= 200
    cuts = figures["kinds"]
    assert min(cuts.values()) > 0, cuts
