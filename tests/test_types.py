"""The type checker over the package: `python -m mypy` with pyproject.toml's `[tool.mypy]` (files: interp/)
must report no error. mypy is in the test extra, so the README's test command runs this; its cache
(.mypy_cache) keeps a rerun well under a second, a cold run takes a few seconds."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_package_type_checks():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"mypy found type errors:\n{result.stdout}{result.stderr}"
    assert "Success: no issues found" in result.stdout
