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


def defined_in(file: str) -> set[str]:
    """The test functions a file of tests/ defines (none if there is no such file)."""
    path = ROOT / "tests" / file
    if not path.exists():
        return set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def test_every_test_the_threat_model_names_exists():
    named = set(named_tests())
    defined = {file: defined_in(file) for file in {file for file, _ in named}}  # each file once
    missing = [f"{file}::{name}" for file, name in named if name not in defined[file]]
    assert sorted(missing) == []
