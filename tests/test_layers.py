"""The package's layers hold: `lint-imports` with pyproject.toml's contracts (a layer imports only the layers below
it, no import circles inside a package), and the same check refuses a planted upward import."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import interp

from .conftest import ROOT

pytest.importorskip("importlinter", reason="the layer check needs import-linter (the test extra)")


def lint_imports(cwd: str) -> subprocess.CompletedProcess:
    command = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    env = dict(os.environ, PYTHONPATH=cwd)
    return subprocess.run([command, "--no-cache"], cwd=cwd, capture_output=True, text=True, timeout=120, env=env)


def test_every_layer_imports_only_the_layers_below_it_and_no_package_has_a_circle():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 2 kept, 0 broken." in done.stdout


@pytest.mark.parametrize("module, planted, broken", [
    ("engine/match.py", "from interp.bots import worlds", "interp.engine is not allowed to import interp.bots"),
    ("engine/state.py", "from interp.engine import match", "No cycles are allowed in interp.engine"),
])
def test_an_upward_import_or_a_circle_breaks_the_contract(tmp_path, module, planted, broken):
    shutil.copytree(os.path.join(ROOT, "interp"), tmp_path / "interp", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), tmp_path)
    path = tmp_path / "interp" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{planted}\n", encoding="utf-8")
    done = lint_imports(str(tmp_path))
    assert done.returncode == 1 and broken in done.stdout, done.stdout + done.stderr


def test_the_public_api_names_resolve_lazily():
    for name in interp.__all__:
        assert getattr(interp, name) is not None
    with pytest.raises(AttributeError):
        interp.no_such_name  # noqa: B018
