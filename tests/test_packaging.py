"""`pip install .` says nothing a user must act on: the metadata in today's form."""

import re
import tomllib
from pathlib import Path

PYPROJECT = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())


def test_the_licence_is_an_spdx_expression_as_setuptools_asks():
    """A `license = { text = ... }` table made every install print setuptools' deprecation
    (it stops building in 2027); PEP 639's string needs setuptools 77."""
    assert PYPROJECT["project"]["license"] == "MIT"
    (setuptools,) = [r for r in PYPROJECT["build-system"]["requires"] if "setuptools" in r]
    assert int(re.search(r">=(\d+)", setuptools).group(1)) >= 77
