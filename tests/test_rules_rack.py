"""The rack: GR-9.1 (full) and GR-9.3 (incomplete) layouts."""

import pytest

from scoreboard.rules.errors import RuleError
from scoreboard.rules.rack import layout

EXPECTED = {
    15: [[1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]],
    14: [[0], [1, 1], [1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1, 1]],
    13: [[1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1, 0]],
    12: [[0], [1, 1], [1, 1, 1], [1, 1, 1, 1], [0, 1, 1, 1, 0]],
    11: [[1], [1, 1], [1, 1, 1], [1, 1, 1, 1], [0, 0, 1, 0, 0]],
    10: [[1], [1, 1], [1, 1, 1], [1, 1, 1, 1]],
    7: [[0], [1, 1], [1, 1, 1], [0, 1, 1, 0]],
    4: [[1], [1, 1], [0, 1, 0]],
    2: [[0], [1, 1]],
    1: [[1]],
}


@pytest.mark.parametrize("whites, rows", sorted(EXPECTED.items()))
def test_GR_9_3_known_layouts(whites, rows):
    assert [list(r) for r in layout(whites)] == rows


@pytest.mark.parametrize("whites", range(1, 16))
def test_GR_9_3_every_layout_holds_its_balls_symmetric_and_filled_from_the_apex(whites):
    rows = layout(whites)
    assert sum(map(sum, rows)) == whites
    assert [len(r) for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert row == row[::-1]  # symmetric about the long axis
    for row in rows[1:-1]:
        assert all(row)  # every row between apex and base is full
    # the base row is filled from its middle outward: its balls are contiguous
    base = "".join(map(str, rows[-1])).strip("0")
    assert "0" not in base


@pytest.mark.parametrize("bad", [0, 16, -1, "3", None, True])
def test_GR_9_3_rack_sizes_outside_1_to_15_are_refused(bad):
    with pytest.raises(RuleError):
        layout(bad)
