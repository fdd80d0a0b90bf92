"""docs/threat-model.md names a test for each line: every one it names must exist."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[1]
NAMED = re.compile(r"`tests/(test_\w+\.py)::(test_\w+)`")


def named_tests() -> list[tuple[str, str]]:
    return NAMED.findall((ROOT / "docs" / "threat-model.md").read_text(encoding="utf-8"))


def test_the_threat_model_names_tests():
    assert len(set(named_tests())) >= 30


def test_every_test_the_threat_model_names_exists():
    missing = []
    for file, name in set(named_tests()):
        path = ROOT / "tests" / file
        defined = set()
        if path.exists():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            defined = {
                n.name
                for n in ast.walk(tree)
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
        if name not in defined:
            missing.append(f"{file}::{name}")
    assert sorted(missing) == []
