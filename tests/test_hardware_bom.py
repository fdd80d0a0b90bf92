"""hardware/BOM.md adds up: its items make its stated total, and its parts are on the schematics."""

import re
from pathlib import Path

import pytest

HARDWARE = Path(__file__).resolve().parent.parent / "hardware"
BOM = (HARDWARE / "BOM.md").read_text(encoding="utf-8")
TYPICAL = BOM.split("## Typical build", 1)[1].split("\n## ", 1)[0]


def items() -> list[dict]:
    rows = [line for line in TYPICAL.splitlines() if re.match(r"\| \d+ \|", line)]
    header = [c.strip() for c in TYPICAL.split("\n| #", 1)[1].split("\n", 1)[0].split("|")][1:-1]
    return [
        dict(zip(["#", *header], (c.strip() for c in row.strip("|").split("|")), strict=True))
        for row in rows
    ]


def test_the_items_add_up_to_the_stated_total():
    rows = items()
    assert [int(row["#"]) for row in rows] == list(range(1, len(rows) + 1))
    total = sum(float(row["qty"]) * float(row["each"]) for row in rows)
    stated = re.search(r"\*\*Total: ([\d.]+) EUR\*\*", TYPICAL)
    assert stated, "the typical build states no total"
    assert round(total, 2) == float(stated.group(1)), f"the items add up to {total:.2f} EUR"


def refs(text: str) -> list[str]:
    """'(D1-D7)' -> D1..D7; '(R2, R4 ... R12)' -> R2, R4, ..., R12; '(U1)' -> U1."""
    if m := re.search(r"\(([A-Z])(\d+)-\1(\d+)", text):
        return [f"{m[1]}{n}" for n in range(int(m[2]), int(m[3]) + 1)]
    if m := re.search(r"\(([A-Z])(\d+), \1(\d+) \.\.\. \1(\d+)", text):
        return [f"{m[1]}{n}" for n in range(int(m[2]), int(m[4]) + 1, int(m[3]) - int(m[2]))]
    if m := re.search(r"\(([A-Z]\d+)[,)]", text):
        return [m[1]]
    return []


@pytest.mark.parametrize("row", [r for r in items() if refs(r["part"])], ids=lambda r: r["part"])
def test_each_part_with_references_is_on_a_schematic_as_often_as_bought(row):
    sheets = "".join(path.read_text(encoding="utf-8") for path in HARDWARE.glob("schematic-*.svg"))
    wanted = refs(row["part"])
    assert len(wanted) == float(row["qty"]), row
    for ref in wanted:
        assert re.search(rf"\b{ref}\b", sheets), f"{ref} ({row['part']}) is on no schematic"
