"""The files interp ships — its games and the spec JSON Schema — and finding a shipped game by name.

In a source checkout they are the top-level `games/` and `schema/` folders. An installed package carries the same
folders as `interp/data/games/` and `interp/data/schema/` (pyproject.toml maps one onto the other), so
paths between them (`extends: base.yaml`, the `$schema` comment of a spec) work in both layouts.

A game is named by its file name without `.yaml`; a name that is also an existing file means the file.

>>> names = shipped_games()
>>> all(os.path.basename(spec_path(name)) == name + ".yaml" for name in names)
True
>>> os.path.isfile(SCHEMA_PATH)
True
"""
from __future__ import annotations

import difflib
import os

from interp.errors import SpecError

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # interp/
_EXTENSIONS = (".yaml", ".yml")


def data_dir(name: str) -> str:
    """The shipped folder `name` (`games` or `schema`): inside the installed package, else beside it."""
    installed = os.path.join(_PACKAGE, "data", name)
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(_PACKAGE), name)


GAMES_DIR = data_dir("games")
SCHEMA_PATH = os.path.join(data_dir("schema"), "game.schema.json")


def shipped_games() -> list[str]:
    """The names of the shipped games and variants, sorted."""
    if not os.path.isdir(GAMES_DIR):
        return []
    return sorted(os.path.splitext(f)[0] for f in os.listdir(GAMES_DIR) if f.endswith(_EXTENSIONS))


def shipped_paths() -> list[str]:
    """The paths of the shipped spec files, sorted by name."""
    return [os.path.join(GAMES_DIR, name + ".yaml") for name in shipped_games()]


def spec_path(name_or_path: str) -> str:
    """The spec file meant by `name_or_path`: an existing file as it is, a bare name as the shipped game.

    A bare name (no folder) that is neither raises a SpecError suggesting the closest shipped names; any
    other path is returned unchanged for the loader to report.
    """
    if os.path.isfile(name_or_path) or os.path.dirname(name_or_path):
        return name_or_path
    stem = name_or_path[:-len(ext)] if (ext := os.path.splitext(name_or_path)[1]) in _EXTENSIONS else name_or_path
    candidate = os.path.join(GAMES_DIR, stem + ".yaml")
    if os.path.isfile(candidate):
        return candidate
    names = shipped_games()
    close = difflib.get_close_matches(stem, names, n=3)
    hint = f"did you mean {' or '.join(close)}?" if close else "shipped games: " + ", ".join(names)
    raise SpecError(f"no such spec file or shipped game: {name_or_path}", hint=hint)
