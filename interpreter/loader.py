"""Load YAML spec files into plain data, remembering where every value came from.

A spec may `extends:` another file (a path relative to itself); the variant's mappings are merged over the
base's, and lists of mappings that all carry an `id` are merged item by item (by id), so a variant states only
what differs.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> _ = open(os.path.join(d, "base.yaml"), "w").write("name: base\\nplayers: {default: 3}\\n")
>>> _ = open(os.path.join(d, "v.yaml"), "w").write("extends: base.yaml\\nname: v\\n")
>>> doc = load_spec(os.path.join(d, "v.yaml"))
>>> doc.data["name"], doc.data["players"]["default"], doc.where(("players", "default")).line
('v', 3, 2)
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import Location, SpecError

Path = tuple


@dataclass
class Scalar:
    """Where a string scalar's text starts, so a DSL column can be mapped back to the file."""

    start: Location
    block_indent: int | None  # for `|` and `>` scalars: the indentation of their lines

    def locate(self, text: str, offset: int) -> Location:
        if self.block_indent is None:
            return self.start.shifted(text, offset)
        before = text[:offset]
        line = before.count("\n")
        col = offset - (before.rfind("\n") + 1)
        return Location(self.start.file, self.start.line + line, self.block_indent + col + 1)


@dataclass
class Document:
    """Spec data plus the source location of every node (by path of keys and indices)."""

    path: str
    data: Any
    positions: dict = field(default_factory=dict)
    scalars: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)  # file -> list of lines

    def where(self, path: Path) -> Location:
        """The location of the node at `path`, or of its nearest located ancestor."""
        path = tuple(path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, Location(self.path, 1, 1))

    def locate_in(self, path: Path, offset: int) -> Location:
        """The location of character `offset` inside the string at `path`."""
        path = tuple(path)
        scalar = self.scalars.get(path)
        value = self.get(path)
        if scalar is None or not isinstance(value, str):
            return self.where(path)
        return scalar.locate(value, offset)

    def line_of(self, loc: Location) -> str | None:
        lines = self.sources.get(loc.file)
        if lines and 0 < loc.line <= len(lines):
            return lines[loc.line - 1]
        return None

    def get(self, path: Path) -> Any:
        node = self.data
        for key in path:
            node = node[key]
        return node

    def error(self, message: str, path: Path, hint: str | None = None, offset: int | None = None,
              cls: type = SpecError) -> SpecError:
        """A located error for the node at `path` (at character `offset` of it, if given)."""
        loc = self.locate_in(path, offset) if offset is not None else self.where(path)
        return cls(message, loc, hint, self.line_of(loc))


def _loc(mark, file: str) -> Location:
    return Location(file, mark.line + 1, mark.column + 1)


class _Builder:
    """Turns a composed YAML node tree into plain data and a position table."""

    def __init__(self, file: str, doc: Document):
        self.file = file
        self.doc = doc

    def build(self, node, path: Path) -> Any:
        self.doc.positions[path] = _loc(node.start_mark, self.file)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        value = yaml.SafeLoader.construct_object(self._constructor, node)  # type: ignore[arg-type]
        if isinstance(value, str):
            self._scalar(node, path)
        return value

    def _mapping(self, node, path: Path) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in out:
                loc = _loc(key_node.start_mark, self.file)
                raise SpecError(f"duplicate key '{key}'", loc, "each key may appear once in a mapping",
                                self.doc.line_of(loc))
            out[key] = self.build(value_node, path + (key,))
            self.doc.positions[path + (key,)] = _loc(key_node.start_mark, self.file) \
                if not isinstance(value_node, yaml.ScalarNode) else _loc(value_node.start_mark, self.file)
        return out

    def _scalar(self, node, path: Path) -> None:
        start = _loc(node.start_mark, self.file)
        if node.style in ("|", ">"):
            lines = self.doc.sources[self.file]
            first = node.start_mark.line + 1  # 0-based index of the first content line
            indent = 0
            if first < len(lines):
                text = lines[first]
                indent = len(text) - len(text.lstrip(" "))
            self.doc.scalars[path] = Scalar(Location(self.file, first + 1, indent + 1), indent)
        elif node.style in ("'", '"'):
            self.doc.scalars[path] = Scalar(Location(self.file, start.line, start.column + 1), None)
        else:
            self.doc.scalars[path] = Scalar(start, None)

    _constructor = yaml.SafeLoader("")


def _read(path: str, doc: Document) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise SpecError(f"cannot read spec: {exc.strerror}", Location(path, 1, 1),
                        "check the file name") from None
    doc.sources[path] = text.splitlines()
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = _loc(mark, path) if mark else Location(path, 1, 1)
        raise SpecError(f"YAML syntax: {exc.problem or exc.context}", loc,
                        "check indentation, colons and quotes around text with ':' or '#'",
                        doc.line_of(loc)) from None
    if node is None:
        return {}
    sub = Document(path, None, {}, {}, doc.sources)
    data = _Builder(path, sub).build(node, ())
    doc.positions.update(sub.positions)
    doc.scalars.update(sub.scalars)
    return data


def _merge(base: Any, over: Any) -> Any:
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _merge(base[key], value) if key in base else value
        return out
    if _by_id(base) and _by_id(over):
        out = list(base)
        index = {item["id"]: i for i, item in enumerate(out)}
        for item in over:
            if item["id"] in index:
                out[index[item["id"]]] = _merge(out[index[item["id"]]], item)
            else:
                out.append(item)
        return out
    return over


def _by_id(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) and "id" in v for v in value)


def load_spec(path: str, _seen: tuple = ()) -> Document:
    """Read a spec file, following `extends:` chains, into a located Document."""
    path = os.path.normpath(path)
    doc = Document(path, None)
    data = _read(path, doc)
    if not isinstance(data, dict):
        raise SpecError("a spec must be a mapping of keys (name:, deck:, phases: ...)", Location(path, 1, 1))
    parent = data.get("extends")
    if parent is None:
        doc.data = data
        return doc
    if not isinstance(parent, str):
        raise doc.error("extends: must be a file name", ("extends",))
    base_path = os.path.join(os.path.dirname(path), parent)
    if os.path.normpath(base_path) in _seen + (path,):
        raise doc.error(f"extends loops back to {parent}", ("extends",), "a variant cannot extend itself")
    if not os.path.exists(base_path):
        raise doc.error(f"extends: no such file {parent}", ("extends",),
                        "the path is relative to this spec file")
    base = load_spec(base_path, _seen + (path,))
    merged = Document(path, _merge(base.data, {k: v for k, v in data.items() if k != "extends"}))
    merged.sources = {**base.sources, **doc.sources}
    merged.positions = {**base.positions, **doc.positions}
    merged.scalars = {**base.scalars, **doc.scalars}
    merged.data.setdefault("name", data.get("name"))
    return merged
