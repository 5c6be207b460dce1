"""Load YAML spec files into plain data, remembering where every value came from.

A spec may `extends:` another file (a path relative to itself, or a shipped game by its name: `extends: NAME`,
found as `interp play NAME` finds it); the variant's mappings are merged over the
base's, lists of mappings that all carry an `id` are merged item by item (by id), and so are the named items
of `options`, `actions`, `announcements` and `scoring` (by name); a null value or `delete: true` removes what the
base has, and an option or item that looks like a misspelling of the base's is refused (unless `new: true`).
So a variant states only what differs. A file is read by spec.located, and merged over its base by spec.merge.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> _ = open(os.path.join(d, "base.yaml"), "w").write("name: base\\nplayers: {default: 3}\\n")
>>> _ = open(os.path.join(d, "v.yaml"), "w").write("extends: base.yaml\\nname: v\\n")
>>> doc = load_spec(os.path.join(d, "v.yaml"))
>>> doc.data["name"], doc.data["players"]["default"], doc.where(("players", "default")).line
('v', 3, 2)
"""
from __future__ import annotations

import difflib
import os

from interp.errors import SpecError
from interp.spec.located import Document, Path, read_into
from interp.spec.merge import PLACING, MergeError, merge, moved, prune
from interp.spec.resources import GAMES_DIR, shipped_games

MAX_EXTENDS = 16  # files in one `extends:` chain


def referenced_path(doc: Document, key: Path, what: str = "spec") -> str:
    """The file a document names at `key` (`extends:`, a scenario's `spec:`), resolved relative to the
    document's own file, else (a bare name that is no file there) the shipped game of that name; a located error
    when the value is not a file name or names no regular file.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "s.yaml"), "w").write("spec: /dev/zero\\n")
    >>> try:
    ...     referenced_path(load_spec(os.path.join(d, "s.yaml")), ("spec",))
    ... except SpecError as e:
    ...     print(e.message)
    spec: /dev/zero is not a regular file
    """
    name = doc.get(key)
    label = ".".join(map(str, key))
    if not isinstance(name, str) or not name.strip():
        raise doc.error(f"{label}: must be a file name", key, f"write {label}: path/to/{what}.yaml")
    near = os.path.normpath(os.path.join(os.path.dirname(doc.path), name))
    path = near if os.path.exists(near) else _shipped(name)
    if path is None:
        close = difflib.get_close_matches(_stem(name), shipped_games(), n=2) if _bare(name) else []
        raise doc.error(f"{label}: no such file {name}", key,
                        f"did you mean {' or '.join(close)}? (shipped games)" if close else
                        "the path is relative to this " + ("spec file" if key == ("extends",) else "file") +
                        ", or a shipped game's name")
    if not os.path.isfile(path):
        raise doc.error(f"{label}: {name} is not a regular file", key, f"name a .yaml {what} file")
    return path


def _shipped(name: str) -> str | None:
    """The shipped game a bare name (no folder; `.yaml` optional) means, as `interp play NAME` finds it, or None.

    >>> name = sorted(os.listdir(GAMES_DIR))[0][:-len(".yaml")]  # any shipped game
    >>> _shipped(name) == os.path.join(GAMES_DIR, name + ".yaml"), _shipped("sub/" + name), _shipped("no-such-game")
    (True, None, None)
    """
    if not _bare(name):
        return None
    path = os.path.join(GAMES_DIR, _stem(name) + ".yaml")
    return path if os.path.isfile(path) else None


def _bare(name: str) -> bool:
    return not os.path.dirname(name) and name not in (".", "..")


def _stem(name: str) -> str:
    stem, ext = os.path.splitext(name)
    return stem if ext in (".yaml", ".yml") else name


def load_referenced(doc: Document, key: Path, _seen: tuple = ()) -> Document:
    """Load the spec a document names at `key`. If that file does not even load as a spec (not YAML, not a
    mapping), the error points at `key` and never quotes the other file's content."""
    path = referenced_path(doc, key)
    try:
        return load_spec(path, _seen, referenced=True)
    except _NotASpec as exc:
        label, where = ".".join(map(str, key)), exc.inner.location
        at = f", at {where.line}:{where.column}" if where is not None else ""
        raise doc.error(f"{label}: {doc.get(key)} is not a spec ({exc.inner.message}{at})", key,
                        "name a YAML spec file") from None


class _NotASpec(Exception):
    def __init__(self, inner: SpecError):
        super().__init__(inner.message)
        self.inner = inner


def load_spec(path: str, _seen: tuple = (), referenced: bool = False) -> Document:
    """Read a spec file, following `extends:` chains, into a located Document."""
    path = os.path.normpath(path)
    doc = Document(path, None)
    try:
        data = read_into(path, doc)
        if not isinstance(data, dict):
            raise doc.error("a spec must be a mapping of keys (name:, deck:, phases: ...)", (),
                            "write `key: value` lines at the left margin, not a list")
    except SpecError as exc:
        if referenced:
            raise _NotASpec(exc) from None
        raise
    doc.data = data
    if "extends" not in data:
        _placed_without_base(doc)
        return doc
    if not isinstance(data["extends"], str):
        raise doc.error("extends: must be a file name", ("extends",))
    base_path = os.path.normpath(os.path.join(os.path.dirname(path), data["extends"]))
    if not os.path.exists(base_path):
        base_path = os.path.normpath(_shipped(data["extends"]) or base_path)
    if base_path in _seen + (path,):
        raise doc.error(f"extends loops back to {data['extends']}", ("extends",), "a variant cannot extend itself")
    if len(_seen) >= MAX_EXTENDS:
        raise doc.error(f"more than {MAX_EXTENDS} files extend one another", ("extends",),
                        "extend the base spec directly")
    base = load_referenced(doc, ("extends",), _seen + (path,))
    moves: dict = {}
    try:
        data = merge(base.data, {k: v for k, v in data.items() if k != "extends"}, (), (), moves)
    except MergeError as exc:
        raise doc.error(exc.message, exc.path, exc.hint) from None
    shifts: dict = {}
    merged = Document(path, prune(data, (), shifts))
    merged.sources = {**base.sources, **doc.sources}
    for table in ("positions", "scalars", "keys"):
        setattr(merged, table, moved({**getattr(base, table), **moved(getattr(doc, table), moves)}, shifts))
    merged.data.setdefault("name", data.get("name"))
    return merged


def _placed_without_base(doc: Document) -> None:
    """`insert_before:` / `insert_after:` place a variant's phase among its base's: in a file that extends nothing
    they would be ignored, so they are refused at the key."""
    phases = doc.data.get("phases")
    for i, phase in enumerate(phases if isinstance(phases, list) else []):
        for key in PLACING:
            if isinstance(phase, dict) and key in phase:
                raise doc.key_error(f"{key} places a phase of a variant, and this file extends no base",
                                    ("phases", i, key), "write the phases in the order they run")


def load_data(path: str) -> Document:
    """Read a located YAML file that is not a spec (a scenario, a score input): no `extends:`, any shape."""
    path = os.path.normpath(path)
    doc = Document(path, None)
    doc.data = read_into(path, doc)
    return doc
