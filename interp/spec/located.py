"""YAML with positions: a spec file read safely (a regular UTF-8 file of bounded size, depth, aliases and values,
no control characters, YAML's own tags refused) into plain data, with the location of every value and key and
the source text of every string scalar (`Document`, `Scalar`), so that any error, a DSL column included, points
at `file:line:column`. A YAML syntax error is pointed at the likely mistake. spec.loader follows `extends:`.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> _ = open(os.path.join(d, "s.yaml"), "w").write("name: s\\nplayers: {default: 3}\\n")
>>> path = os.path.join(d, "s.yaml")
>>> doc = Document(path, None)
>>> read_into(path, doc)["players"], doc.where(("players", "default")).line
({'default': 3}, 2)
"""
from __future__ import annotations

import math
import os
import re
import stat
import sys
from dataclasses import dataclass, field
from typing import Any

import yaml  # type: ignore[import-untyped]  # (no stubs installed)

from interp.errors import Location, SpecError

Path = tuple

# Limits on what a spec file may be: generous for any real spec (the largest shipped one is ~22 kB, ~3,000 values,
# nested ~12 deep), small enough that a hostile file is refused at once.
MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 50  # nesting of mappings and lists
MAX_ALIASES = 100  # `*name` references
MAX_VALUES = 50_000  # values after aliases are expanded
MAX_INT_DIGITS = 15

# Characters a spec may not contain, raw or escaped: C0/C1 control codes (tab and line breaks aside), DEL,
# non-characters, lone surrogates and bidirectional overrides. They would reach the terminal as control codes.
CONTROL = re.compile("[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff\ud800-\udfff"
                     "\u202a-\u202e\u2066-\u2069]")


@dataclass
class Scalar:
    """Where a string scalar's text lies in its file, so a DSL column can be mapped back to the file.

    The value can differ from the source text: `>` and plain scalars fold line breaks into spaces, quoted ones
    have escapes (`\\"`, `''`) and block scalars drop their indentation; `locate` aligns the two.
    """

    file: str
    source: str  # the whole text of the file
    start: int  # index in `source` of the scalar's first character (after a quote or a block header)
    end: int  # index in `source` just past the scalar
    style: str | None  # None (plain), "'", '"', "|" or ">"

    def locate(self, text: str, offset: int) -> Location:
        index = self.index(text, offset)
        src = self.source
        line = src.count("\n", 0, index) + 1
        return Location(self.file, line, index - (src.rfind("\n", 0, index) + 1) + 1)

    def index(self, text: str, offset: int) -> int:
        """The index in the source of character `offset` of the value `text` (len(text): just past its end)."""
        src, j, end = self.source, self.start, min(self.end, len(self.source))
        i = 0
        while i < len(text):
            c = text[i]
            if j >= end:
                return end
            s = src[j]
            if self.style == '"' and s == "\\":
                nxt = src[j + 1] if j + 1 < end else ""
                if nxt == "\n":  # an escaped line break: the next line's indentation is dropped too
                    j += 2
                    while j < end and src[j] in " \t":
                        j += 1
                    continue
                if i == offset:
                    return j
                j += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
                i += 1
                continue
            if self.style == "'" and c == "'" and src.startswith("''", j):
                if i == offset:
                    return j
                j += 2
                i += 1
                continue
            if c in " \t\n" and s in " \t\n":
                if i == offset:
                    return j
                if i + 1 < len(text) and text[i + 1] in " \t\n":
                    j += 1
                else:  # a folded line break or a block's indentation: skip the whole run
                    while j < end and src[j] in " \t\n":
                        j += 1
                i += 1
                continue
            if c != s and s in " \t\n":  # indentation before the first character, or a dropped line break
                j += 1
                continue
            if i == offset:
                return j
            i += 1
            j += 1
        return j


@dataclass
class Document:
    """Spec data plus the source location of every node (by path of keys and indices)."""

    path: str
    data: Any
    positions: dict = field(default_factory=dict)
    scalars: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)  # file -> list of lines
    keys: dict = field(default_factory=dict)  # path -> location of the mapping key that names it

    def key_where(self, path: Path) -> Location:
        """The location of the key naming the node at `path` (the node itself when it has no key)."""
        path = tuple(path)
        return self.keys.get(path) or self.where(path)

    def key_error(self, message: str, path: Path, hint: str | None = None) -> SpecError:
        """A located error pointing at the key of the node at `path` (an unknown key, say)."""
        loc = self.key_where(path)
        return SpecError(message, loc, hint, self.line_of(loc))

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


class _Refused(Exception):
    """A YAML construct specs do not use, or a limit passed, found while composing (at `mark`)."""

    def __init__(self, message: str, mark, hint: str):
        super().__init__(message)
        self.message, self.mark, self.hint = message, mark, hint


class _Guards:
    """The composer's limits a spec needs, on top of a YAML event source: no explicit tags, few aliases, bounded
    nesting."""

    depth: int
    aliases: int
    open_anchors: set  # the anchors of the values being composed (an alias to one would make a cycle)

    def compose_node(self, parent, index):
        event = self.peek_event()  # type: ignore[attr-defined]
        if isinstance(event, yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _Refused(f"more than {MAX_ALIASES} aliases (*name) in one file", event.start_mark,
                               "write the values out, or use extends: to share a base spec")
            if event.anchor in self.open_anchors:
                raise _Refused(f"alias *{event.anchor} is inside the value its anchor &{event.anchor} names",
                               event.start_mark, "a value cannot contain itself: an alias repeats a value written "
                               "before it")
            return super().compose_node(parent, index)  # type: ignore[misc]
        elif event.tag is not None:
            tag = event.tag.replace("tag:yaml.org,2002:", "!!")
            raise _Refused(f"YAML tag '{tag}' is not part of the spec language", event.start_mark,
                           "specs use plain YAML: no tags like !name or !!type; quote text instead")
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _Refused(f"values are nested more than {MAX_DEPTH} levels deep", event.start_mark,
                           "a spec nests a few levels; check for runaway brackets")
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            self.open_anchors.add(anchor)
        try:
            return super().compose_node(parent, index)  # type: ignore[misc]
        finally:
            self.depth -= 1
            self.open_anchors.discard(anchor)


class _GuardedLoader(_Guards, yaml.SafeLoader):
    """The pure-Python safe YAML composer with the limits: it words every syntax error (see _syntax_error)."""

    def __init__(self, stream):
        super().__init__(stream)
        self.depth = 0
        self.aliases = 0
        self.open_anchors = set()


try:
    from yaml._yaml import CParser  # type: ignore[import-untyped]
except ImportError:  # PyYAML without libyaml: the pure-Python composer does it all
    _FastLoader = None
else:
    class _FastLoader(_Guards, yaml.composer.Composer, CParser, yaml.resolver.Resolver):  # type: ignore[no-redef]
        """libyaml's events (ten times faster to scan) composed in Python with the same limits; the marks are
        the same as the pure-Python parser's, and a file it refuses is read again by _GuardedLoader, which
        words the error."""

        def __init__(self, stream):
            CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self.depth = 0
            self.aliases = 0
            self.open_anchors = set()


_STR = "tag:yaml.org,2002:str"


def _key_of(path: Path) -> str:
    """`key: ` for a value written under a mapping key (error messages name it), else nothing."""
    return f"{path[-1]}: " if path and isinstance(path[-1], str) else ""


class _Builder:
    """Turns a composed YAML node tree into plain data and a position table."""

    def __init__(self, file: str, doc: Document, text: str = ""):
        self.file = file
        self.doc = doc
        self.text = text
        self.values = 0

    def build(self, node, path: Path) -> Any:
        self.values += 1
        if self.values > MAX_VALUES:
            raise self._error(node, f"the file expands to more than {MAX_VALUES} values",
                              "aliases (*name) repeat whole subtrees; write the values out instead")
        self.doc.positions[path] = _loc(node.start_mark, self.file)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        if node.tag.endswith(":int") and len(node.value.lstrip("+-")) > MAX_INT_DIGITS:
            raise self._error(node, f"{_key_of(path)}this number has more than {MAX_INT_DIGITS} digits",
                              "numbers here are small; quote it if it is text")
        if node.tag == _STR:  # what the constructor makes of a text (most scalars), without its dispatch
            value = node.value
        else:
            value = yaml.SafeLoader.construct_object(self._constructor, node)  # type: ignore[arg-type]
        if isinstance(value, float) and not math.isfinite(value):
            raise self._error(node, f"{_key_of(path)}{node.value!r} is not a finite number",
                              "write an ordinary number such as 0.5 (quote it if it is text)")
        if not isinstance(value, (str, int, float, bool, type(None))):
            raise self._error(node, f"{node.value!r} reads as a YAML {type(value).__name__}, which specs do not use",
                              "quote it to make it text")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_INT_DIGITS:
            raise self._error(node, f"{_key_of(path)}this number has more than {MAX_INT_DIGITS} digits",
                              "numbers here are small; quote it if it is text")
        if isinstance(value, str):
            self._scalar(node, path)
            self._printable(value, path)
            if len(value) <= 64 and value.isidentifier():
                value = sys.intern(value)
        return value

    def _error(self, node, message: str, hint: str) -> SpecError:
        loc = _loc(node.start_mark, self.file)
        return SpecError(message, loc, hint, self.doc.line_of(loc))

    def _printable(self, value: str, path: Path) -> None:
        """Refuse control characters a quoted scalar's escapes (`\\e`, `\\x07`) put into text."""
        bad = CONTROL.search(value)
        if bad is not None:
            loc = self.doc.scalars[path].locate(value, bad.start())
            raise SpecError(f"control character U+{ord(bad.group()):04X} in text", loc,
                            "text in a spec is printable: no escape sequences like \\e or \\x07",
                            self.doc.line_of(loc))

    def _mapping(self, node, path: Path) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                loc = _loc(key_node.start_mark, self.file)
                raise SpecError("a key must be plain text, not a list or mapping", loc,
                                "write `name: value`", self.doc.line_of(loc))
            key = sys.intern(key_node.value)
            bad = CONTROL.search(key)
            if bad is not None:
                loc = _loc(key_node.start_mark, self.file)
                raise SpecError(f"control character U+{ord(bad.group()):04X} in a key", loc,
                                "keys are printable text", self.doc.line_of(loc))
            if key in out:
                loc = _loc(key_node.start_mark, self.file)
                raise SpecError(f"duplicate key '{key}'", loc, "each key may appear once in a mapping",
                                self.doc.line_of(loc))
            where, key_loc = path + (key,), _loc(key_node.start_mark, self.file)
            out[key] = self.build(value_node, where)  # a scalar is placed at its value, as `build` placed it
            self.doc.keys[where] = key_loc
            if not isinstance(value_node, yaml.ScalarNode):  # a mapping or a list at its key
                self.doc.positions[where] = key_loc
        return out

    def _scalar(self, node, path: Path) -> None:
        start, text = node.start_mark.index, self.text
        if node.style in ("|", ">"):
            newline = text.find("\n", start)  # the content starts on the line after the header
            start = len(text) if newline < 0 else newline + 1
        elif node.style in ("'", '"'):
            start += 1
        self.doc.scalars[path] = Scalar(self.file, text, start, node.end_mark.index, node.style or None)

    _constructor = yaml.SafeLoader("")


def read_text(path: str) -> str:
    """The text of a spec file: a regular file of at most MAX_FILE_BYTES, UTF-8, printable (located errors)."""
    raw = _read_bytes(path)
    try:
        text = raw.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as exc:
        good = raw[:exc.start].decode("utf-8-sig", errors="replace")
        loc = Location(path, good.count("\n") + 1, exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1)
        raise SpecError(f"the file is not UTF-8 text (byte 0x{raw[exc.start]:02x})", loc,
                        "save the spec as UTF-8") from None
    bad = CONTROL.search(text)
    if bad is not None:
        line = text.count("\n", 0, bad.start()) + 1
        loc = Location(path, line, bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1)
        raise SpecError(f"control character U+{ord(bad.group()):04X} in the file", loc,
                        "a spec is printable text: delete the character")
    return text


def _read_bytes(path: str) -> bytes:
    """At most MAX_FILE_BYTES of a regular file (never a device, a pipe or a folder)."""
    where = Location(path, 1, 1)
    try:
        with open(path, "rb") as fh:
            info = os.fstat(fh.fileno())
            if not stat.S_ISREG(info.st_mode):
                kind = "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                raise SpecError(f"cannot read spec: {kind}", where, "name a .yaml spec file")
            raw = fh.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise SpecError("cannot read spec: a folder", where, "name a .yaml spec file") from None
    except OSError as exc:
        raise SpecError(f"cannot read spec: {exc.strerror}", where, "check the file name") from None
    if len(raw) > MAX_FILE_BYTES:
        raise SpecError(f"the file is larger than {MAX_FILE_BYTES // 1024} kB", where,
                        "a spec is a few dozen kB at most; is this the right file?")
    return raw


def _compose(text: str, path: str, doc: Document):
    """The YAML node tree of a spec's text, with located errors (a file libyaml refuses is composed again by the
    pure-Python parser, whose errors are worded; its marks are the same)."""
    if _FastLoader is not None:
        fast = _FastLoader(text)
        try:
            return fast.get_single_node()
        except (yaml.YAMLError, _Refused):
            pass
        finally:
            fast.dispose()
    loader = _GuardedLoader(text)
    try:
        return loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, text, path, doc) from None
    except _Refused as exc:
        loc = _loc(exc.mark, path)
        raise SpecError(exc.message, loc, exc.hint, doc.line_of(loc)) from None
    finally:
        loader.dispose()


def read_into(path: str, doc: Document) -> Any:
    """The data of the YAML file at `path`, its lines, positions and scalars added to `doc`'s tables."""
    text = read_text(path)
    doc.sources[path] = text.splitlines()
    node = _compose(text, path, doc)
    if node is None:
        return {}
    sub = Document(path, None, {}, {}, doc.sources)
    data = _Builder(path, sub, text).build(node, ())
    doc.positions.update(sub.positions)
    doc.scalars.update(sub.scalars)
    doc.keys.update(sub.keys)
    return data


def _syntax_error(exc, text: str, path: str, doc: Document) -> SpecError:
    """A YAML syntax error, pointed at the likely mistake (an unclosed quote or bracket) where that is clear."""
    problem, mark, context = exc.problem, exc.problem_mark, exc.context_mark
    hint = "check indentation, colons and quotes around text with ':' or '#'"
    message = f"YAML syntax: {problem or exc.context}"
    if problem and "'\\t'" in problem:
        hint = "indent with spaces, not tabs"
    elif problem == "mapping values are not allowed here":
        hint = "put text that contains ': ' in quotes, and check the indentation of this line"
    if exc.context == "while scanning a quoted scalar" and context is not None:
        mark, message = context, "YAML syntax: this quoted text is never closed"
        hint = "add the closing quote"
    elif exc.context in ("while parsing a flow mapping", "while parsing a flow sequence") and context is not None \
            and mark is not None and context.line < mark.line:
        close = "}" if "mapping" in exc.context else "]"
        message = (f"YAML syntax: the '{text[context.index]}' here is not closed (at line {mark.line + 1}, "
                   f"column {mark.column + 1}: {problem})")
        mark, hint = context, f"add the closing '{close}', or a ',' between items"
    elif mark is not None:
        quoted = _runaway_quote(text, mark)
        if quoted is not None:
            message = (f"YAML syntax: this quoted text runs on to line {quoted.end_mark.line + 1} "
                       f"({problem})")
            mark, hint = quoted.start_mark, "is the closing quote missing?"
    loc = _loc(mark, path) if mark else Location(path, 1, 1)
    return SpecError(message, loc, hint, doc.line_of(loc))


def _runaway_quote(text: str, problem):
    """The quoted scalar that swallowed a line break and ends on the problem's line, if there is one."""
    last = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= problem.index:
                break
            last = token
    except yaml.MarkedYAMLError:
        pass
    if isinstance(last, yaml.ScalarToken) and last.style in ("'", '"') \
            and last.start_mark.line < last.end_mark.line == problem.line:
        return last
    return None
