"""The code is clean by the project's linter: `ruff check` (the rules chosen in pyproject.toml's [tool.ruff])."""
from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT


def _ruff() -> list[str] | None:
    """How to run ruff here: its module in this environment, else a `ruff` on the PATH; None when neither is."""
    try:
        import ruff  # noqa: F401  (the test extra installs it)
    except ImportError:
        found = shutil.which("ruff")
        return [found] if found else None
    return [sys.executable, "-m", "ruff"]


def test_ruff_finds_nothing_to_fix():
    command = _ruff()
    if command is None:
        pytest.skip("ruff is not installed (the test extra installs it)")
    done = subprocess.run([*command, "check", "--no-cache", "--output-format", "concise", "."], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
