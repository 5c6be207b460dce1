"""Shared fixtures: the spec files under test, loaded once per session."""
from __future__ import annotations

import glob
import io
import os
import shutil
import tempfile

import pytest

from interp.spec.compiler import load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPECS = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "games", "*.yaml")))


def pytest_configure(config):
    """The run's load cache (interp.dsl.cache) lives in a temp dir of its own, removed at the end: the suite
    never reads or writes the user's, and the CLI it spawns inherits it."""
    config._interp_cache = os.environ["INTERP_CACHE_DIR"] = tempfile.mkdtemp(prefix="interp-test-cache-")


def pytest_unconfigure(config):
    shutil.rmtree(getattr(config, "_interp_cache", ""), ignore_errors=True)


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    """Every test runs from the project root, so relative spec paths work."""
    monkeypatch.chdir(ROOT)


_games: dict = {}


def game_of(path: str):
    if path not in _games:
        _games[path] = load_game(os.path.join(ROOT, path))
    return _games[path]


def feed(*answers):
    """A `read` for the terminal table that answers in turn, then ends the input."""
    queue = iter(answers)

    def read(_prompt):
        try:
            return next(queue)
        except StopIteration:
            raise EOFError from None
    return read


def screen(path, answers, tmp_path, n=None, seed=7, seat=0, **kwargs):
    """Play a match of the spec at `path` at the terminal as `seat`, typing `answers` (bots at the other seats);
    returns the TerminalMatch, the text on the screen and the exit code."""
    from rich.console import Console

    from interp.engine import match as engine
    from interp.table.play import TerminalMatch
    game = game_of(path)
    console = Console(file=io.StringIO(), width=160)
    match = TerminalMatch(game, engine.new_match(game, n, seed), seat, "heuristic", str(tmp_path / "s.json"),
                          console, read=feed(*answers), **kwargs)
    code = match.run()
    return match, console.file.getvalue(), code


@pytest.fixture(scope="session")
def preferans():
    return game_of("games/preferans.yaml")
