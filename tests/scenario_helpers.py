"""Running scenario files from tests: as written, or from a copy with some keys or moves changed."""
from __future__ import annotations

import os

import yaml

from interp.runs.scenario import run_scenario

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Scenarios:
    """The scenario files of one folder under tests/scenarios/."""

    def __init__(self, folder: str):
        self.folder = os.path.join(ROOT, "tests", "scenarios", folder)

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name + ".yaml")

    def play(self, name: str) -> dict:
        return run_scenario(self.path(name))

    def data(self, name: str) -> dict:
        with open(self.path(name), encoding="utf-8") as f:
            return yaml.safe_load(f)

    def play_with(self, tmp_path, name: str, moves: int | list | None = None, **changes) -> dict:
        """Scenario `name` run from a copy, with keys replaced (`changes`) and with only its first `moves`
        moves (a number) or other moves (a list)."""
        data = self.data(name)
        data.update(changes)
        data["spec"] = os.path.normpath(os.path.join(self.folder, data["spec"]))
        if isinstance(moves, int):
            data["moves"] = data["moves"].split()[:moves]
        elif moves is not None:
            data["moves"] = moves
        path = tmp_path / f"{name}.yaml"
        path.write_text(yaml.safe_dump(data), encoding="utf-8")
        return run_scenario(str(path))


def run_cli(argv: list, stdin: str = "") -> tuple:
    """`interp ARGV` run in this process, as from the project root: (exit code, stdout, stderr)."""
    import contextlib
    import io
    import sys

    from interp import cli

    out, err, old_stdin, old_cwd = io.StringIO(), io.StringIO(), sys.stdin, os.getcwd()
    sys.stdin = io.StringIO(stdin)
    try:
        os.chdir(ROOT)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
    return code, out.getvalue(), err.getvalue()
