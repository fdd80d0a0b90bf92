"""The sensor-board logic under real MicroPython (the WebAssembly port, run by Node)."""

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import PATIENCE

ROOT = Path(__file__).resolve().parent.parent
RUNNER_DIR = ROOT / "firmware" / "tests"
PORTABLE = ROOT / "scoreboard" / "inputs" / "portable"
PACKAGE = RUNNER_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"


def _micropython_in_node():
    """Node, with the npm package installed from the committed lock file if missing."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the MicroPython (WebAssembly) tests need it")
    if not PACKAGE.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not installed, so @micropython/micropython-webassembly-pyscript")
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=RUNNER_DIR,
            capture_output=True,
            text=True,
            timeout=PATIENCE,
        )
        if done.returncode != 0 or not PACKAGE.exists():
            pytest.skip(f"npm ci in firmware/tests failed: {done.stderr.strip()[-300:]}")
    return node


def run_under_micropython(*scripts):
    node = _micropython_in_node()
    return subprocess.run(
        [node, "run_micropython.mjs", str(PORTABLE), *map(str, scripts)],
        cwd=RUNNER_DIR,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


def test_counting_framing_and_link_logic_pass_under_micropython():
    done = run_under_micropython(RUNNER_DIR / "mp_test_logic.py")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "micropython logic tests passed" in done.stdout


def test_runner_fails_when_the_python_raises(tmp_path):
    # The package's own CLI exits 0 on an exception; our runner must not.
    script = tmp_path / "boom.py"
    script.write_text(
        "import sys\nassert sys.implementation.name == 'micropython'\nraise ValueError(42)\n"
    )
    done = run_under_micropython(script)
    assert done.returncode == 1
    assert "ValueError" in done.stderr
