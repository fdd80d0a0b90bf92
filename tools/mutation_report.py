"""Prints what `mutmut run` left in mutants/: killed / survived per module and in total.

Killed counts the mutants some test failed on (a timeout too: the suite noticed). Survived
counts those every test passed with, and those no test ran. Each survivor must be explained
in tests/MUTANTS.md (one line naming it): the script lists those that are not. Exits 1 when a
module is under 90 % or not wholly checked, the total under 95 %, or a survivor is
unexplained; 2 with no results. `--survivors` only lists the survivors' names, one a line
(`make mutate` runs them again, so a test written since their run can kill them).
"""

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
EXPLAINED = ROOT / "tests" / "MUTANTS.md"
MODULE_AT_LEAST, TOTAL_AT_LEAST = 90.0, 95.0

KILLED = {
    1: "killed",
    3: "killed",
    36: "timeout",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    37: "killed",
    -11: "killed",
    -9: "killed",
}
SURVIVED = {0: "survived", 5: "no tests", 33: "no tests"}


def results() -> dict[str, dict[str, int | None]]:
    """Exit code of each mutant, by source file (relative to the repository)."""
    found = {}
    for meta in sorted(MUTANTS.glob("**/*.py.meta")):
        codes = json.loads(meta.read_text(encoding="utf-8")).get("exit_code_by_key", {})
        if codes:
            found[str(meta.relative_to(MUTANTS).with_suffix(""))] = codes
    return found


def percent(killed: int, survived: int) -> float:
    return 100.0 * killed / (killed + survived) if killed + survived else 100.0


def line(name: str, killed: int, survived: int, unchecked: int) -> str:
    score = f"{percent(killed, survived):5.1f} %" if killed + survived else "    - %"
    text = f"{name:<46} killed {killed:4d}  survived {survived:3d}  {score}"
    return text + (f"  ({unchecked} not checked)" if unchecked else "")


def surviving() -> list[str]:
    return [
        name for codes in results().values() for name, code in codes.items() if code in SURVIVED
    ]


def main() -> int:
    if sys.argv[1:] == ["--survivors"]:
        print("\n".join(surviving()))
        return 0
    found = results()
    if not found:
        print("no mutation results in mutants/: run `make mutate`")
        return 2
    explained = set(re.findall(r"[\w.]+__mutmut_\d+", EXPLAINED.read_text(encoding="utf-8")))
    totals = [0, 0, 0]
    failing, unexplained = [], []
    for path, codes in found.items():
        killed = sum(code in KILLED for code in codes.values())
        survivors = [name for name, code in codes.items() if code in SURVIVED]
        unchecked = len(codes) - killed - len(survivors)
        print(line(path, killed, len(survivors), unchecked))
        totals = [totals[0] + killed, totals[1] + len(survivors), totals[2] + unchecked]
        if percent(killed, len(survivors)) < MODULE_AT_LEAST or unchecked:
            failing.append(path)
        unexplained += [name for name in survivors if name not in explained]
    print(line("total", *totals))
    if percent(totals[0], totals[1]) < TOTAL_AT_LEAST or totals[2]:
        failing.append("total")
    for path in failing:
        print(
            f"under the bar ({MODULE_AT_LEAST:.0f} % a module, {TOTAL_AT_LEAST:.0f} % in total)"
            f" or not all checked: {path}"
        )
    for name in unexplained:
        print(f"survivor not explained in tests/MUTANTS.md: {name} (`mutmut show {name}`)")
    return 1 if failing or unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
