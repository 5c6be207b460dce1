"""The load cache: what compiling a spec file computed from its DSL texts, kept on disk for the next process.

Loading a spec parses its DSL texts (lark) and compiles generated Python source (`compile`); both are pure
functions of their text for a given grammar, lark and Python. As Python keeps a module's code in a `.pyc` file,
interp keeps, per spec file, the parse trees by DSL text and the code objects by generated source, in one file
under the user's cache directory. Every entry is looked up by its exact text, so an edited spec simply misses
for the texts that changed (and the file is rewritten with what this load used); a file written for another
grammar, lark, Python or format is ignored. A missing, unreadable, truncated, corrupt or foreign file means
no cache: the spec is compiled as without one and the file rewritten (atomically: temp file, then os.replace);
a cache directory that cannot be written just means the next process compiles again. Syntax errors are never
cached, so an error is found and located exactly as without a cache.

Where: `$INTERP_CACHE_DIR`, else `$XDG_CACHE_HOME/interp`, else `~/.cache/interp`. `INTERP_NO_CACHE=1` switches
it off. What is read back is decided by `interp.dsl.cachedir`: only a directory of the user's that no one else may
write, only regular files not reached through a link, only entries authenticated with the directory's per-user
key. An entry is marshal data (the format of `.pyc` files): strings, numbers and code objects; decoding it runs
nothing, and a code object runs only as the function of the exact source it was compiled from, as a `.pyc` runs
only as its module. The same directory keeps lark's parser tables for the DSL grammar (`parser_tables`), as plain data,
when those shipped with the package (interp.dsl.tables) are not for the grammar and lark in use.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     spec = os.path.join(d, "g.yaml")
...     _ = open(spec, "w").write("name: g")
...     with session(spec, d) as s:
...         s.tree(("1 + x", "expr"), lambda: Token("NAME", "x", 4))
...     with session(spec, d) as s:
...         s.tree(("1 + x", "expr"), lambda: None).start_pos
Token('NAME', 'x')
4
"""
from __future__ import annotations

import hashlib
import importlib.util
import marshal
import os
import sys
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any, Callable, Iterator

from interp.dsl import cachedir
from interp.dsl.nodes import Meta, Token, Tree

FORMAT = 5  # bump when the file's layout or the encoding of trees changes
_GRAMMAR = Path(__file__).with_name("grammar.lark")


def directory() -> Path | None:
    """The cache directory, or None when the cache is switched off (`INTERP_NO_CACHE` set, not "0")."""
    if os.environ.get("INTERP_NO_CACHE", "0") not in ("", "0"):
        return None
    chosen = os.environ.get("INTERP_CACHE_DIR")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "interp"


@lru_cache(maxsize=1)
def _salt() -> tuple:
    """What every entry's value also depends on: a file made under another of these is ignored whole. lark is
    known by its package's file (path, size and modification time, as Python checks a `.pyc` against its source),
    found without importing it: a process whose trees all come from the cache never does."""
    grammar = hashlib.sha256(_GRAMMAR.read_bytes()).hexdigest()
    return (FORMAT, sys.version, sys.implementation.cache_tag, _lark_stamp(), grammar)


def _lark_stamp() -> tuple:
    spec = importlib.util.find_spec("lark")
    origin = spec.origin if spec is not None else None
    if origin is None:
        return ()
    info = os.stat(origin)
    return (origin, info.st_size, info.st_mtime_ns)


class Store:
    """The cache of one spec file during one compile: entries read from its file, entries this compile used."""

    def __init__(self, file: Path | None, trees: dict, codes: dict) -> None:
        self.file = file
        self.trees = trees  # (DSL text, start rule) -> encoded tree (see `encode`)
        self.codes = codes  # (source, filename, mode) -> code object
        self.used_trees: dict = {}  # the same keys -> the Tree (or Token) this compile used
        self.used_codes: dict = {}
        self.missed = False

    def tree(self, key: tuple, parse: Callable[[], Any]) -> Any:
        """The parse tree of `key` (text, start): from the file, else `parse()` (which may raise: not kept)."""
        found = self.trees.get(key)
        if found is None:
            self.missed = True
            tree = parse()
        else:
            try:
                tree = decode(found)
            except (TypeError, ValueError):  # not a tree this version wrote
                self.missed = True
                tree = parse()
        self.used_trees[key] = tree
        return tree

    def seen(self, key: tuple, tree: Any) -> None:
        """Note a tree this compile used that the process already had."""
        self.used_trees[key] = tree

    def code(self, source: str, filename: str, mode: str) -> Any:
        """The code object `compile(source, filename, mode)`: from the file, else compiled."""
        key = (source, filename, mode)
        code = self.codes.get(key)
        if type(code) is not CodeType:
            self.missed = True
            code = compile(source, filename, mode)
        self.used_codes[key] = code
        return code

    def save(self) -> None:
        """Write what this compile used, with what the file held unless that would more than double it
        (atomically); any failure leaves no file and is silent.

        The generated source of a spec can differ with what the process compiled before it (names of Python
        locals are numbered per process), so the file keeps both a fresh process's entries and, say, those of a
        second game loaded after another; an edited spec's old entries go once they outnumber the used ones."""
        if self.file is None:
            return
        try:
            trees = {key: encode(tree) for key, tree in self.used_trees.items()}
            codes = self.used_codes
            if len(self.trees) + len(self.codes) <= len(trees) + len(codes):
                trees = {**self.trees, **trees}
                codes = {**self.codes, **codes}
            payload = marshal.dumps((_salt(), trees, codes))
        except (TypeError, ValueError):  # something marshal cannot hold: no file
            return
        _write(self.file, payload)


_ACTIVE: list[Store] = []  # the stores of the compiles under way, innermost last


def active() -> Store | None:
    """The store of the compile under way, if any."""
    return _ACTIVE[-1] if _ACTIVE else None


def keeping() -> bool:
    """Whether the compile under way keeps its code objects in a load cache file (for the next process)."""
    store = active()
    return store is not None and store.file is not None


def compiled(source: str, filename: str, mode: str) -> Any:
    """`compile(source, filename, mode)`, from the load cache while a spec file is being compiled."""
    store = active()
    if store is None:
        return compile(source, filename, mode)
    return store.code(source, filename, mode)


@contextmanager
def session(spec: str, where: str | Path | None = None) -> Iterator[Store]:
    """The store of spec file `spec` while it is compiled (in `where`, default `directory()`); saved after the
    process's first compile of the file (of this version of it) if that succeeded and used something the store
    did not hold. A spec that is no file gets an empty store that is never saved."""
    folder = Path(where) if where is not None else directory()
    file = _file_for(spec, folder) if folder is not None and os.path.isfile(spec) else None
    store = _read(file) if file is not None else Store(None, {}, {})
    _ACTIVE.append(store)
    try:
        yield store
    finally:
        _ACTIVE.pop()
    if store.missed and file is not None:
        version = (file, _stamp(spec))
        if version not in _SAVED:  # the first compile of this spec's version in this process: what a new one does
            _SAVED.add(version)
            store.save()


_SAVED: set = set()  # (cache file, spec's stamp) saved by this process


def _stamp(spec: str) -> tuple:
    """The spec file's modification time and size: a spec edited while a process runs is saved again."""
    try:
        info = os.stat(spec)
    except OSError:
        return ()
    return (info.st_mtime_ns, info.st_size)


def _file_for(spec: str, folder: Path) -> Path:
    """The cache file of a spec file: named by its stem, a hash of its absolute path and, as `.pyc` files are, the
    Python that reads it (one file per spec and Python: two Pythons sharing the folder do not overwrite each
    other's)."""
    absolute = os.path.realpath(spec)
    digest = hashlib.sha256(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:20]
    return folder / f"{Path(absolute).stem[:40]}-{digest}.{sys.implementation.cache_tag}.load"


def _read(file: Path) -> Store:
    """The store of `file`'s entries, or an empty one when it is missing, untrusted, stale or damaged."""
    payload = _payload(file)
    try:
        salt, trees, codes = marshal.loads(payload) if payload is not None else (None, None, None)
    except (ValueError, EOFError, TypeError):
        return Store(file, {}, {})
    if salt != _salt() or type(trees) is not dict or type(codes) is not dict:
        return Store(file, {}, {})
    return Store(file, trees, codes)


def _payload(file: Path) -> bytes | None:
    """The payload of cache file `file` if this user's interp wrote it (interp.dsl.cachedir), else None."""
    with cachedir.opened(file.parent, create=False) as folder:
        return folder.read(file.name) if folder is not None else None


def _write(file: Path, payload: bytes) -> None:
    """`payload` into cache file `file`, authenticated and atomically; silent if the directory is not usable."""
    with cachedir.opened(file.parent, create=True) as folder:
        if folder is not None:
            folder.write(file.name, payload)


def parser_tables(grammar: str, **options: Any) -> tuple:
    """lark's tables of the LALR parser of `grammar` with lark `options`, `(data, memo)` for
    `Lark._load_from_dict`: loaded from the cache directory when a previous process kept them there, else built
    (and kept). The tables are lark's own serialisation (`memo_serialize`: dicts, lists, strings and numbers, as
    lark's standalone parsers embed them) stored as marshal data under the cache's trust rules, never lark's
    pickled temp file (`cache=True`), which anyone could plant."""
    import lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    folder = directory()
    digest = hashlib.sha256(repr((grammar, sorted(options.items()), lark.__version__)).encode()).hexdigest()[:20]
    file = folder / f"lark-grammar-{digest}.{sys.implementation.cache_tag}.load" if folder is not None else None
    payload = _payload(file) if file is not None else None
    if payload is not None:
        try:
            salt, data, memo = marshal.loads(payload)
            if salt == ("lark tables", _salt()):
                return data, memo
        except (ValueError, EOFError, TypeError):  # not tables this version wrote: build them
            pass
    data, memo = lark.Lark(grammar, parser="lalr", **options).memo_serialize([TerminalDef, Rule])
    if file is not None:
        try:
            payload = marshal.dumps((("lark tables", _salt()), data, memo))
        except ValueError:  # something marshal cannot hold: no file
            return data, memo
        _write(file, payload)
    return data, memo


# A tree as marshal data: a token as (type, value, start_pos), a Tree as (data, its meta, its children as a tuple),
# a missing child as None. A meta is the tuple of its values when
# its fields are those the DSL parser sets (interp.dsl.tables.StartPositions) in their order (their names then need
# not be stored each time), else the tuple of its (name, value) pairs; a Tree without a meta has None.
META_FIELDS = ("empty", "start_pos", "container_start_pos")


def encode(node: Any) -> Any:
    """A parse tree as tuples of strings and numbers (marshal data; a rule's name is a str, though a parser lark
    has just built names aliased rules with its Tokens).

    >>> encode(Tree("neg", [Token("NUMBER", "1", 1), None]))
    ('neg', None, (('NUMBER', '1', 1), None))
    """
    if isinstance(node, str):  # a token: lark's, or one read back from a cache
        return (node.type, str(node), node.start_pos)  # type: ignore[attr-defined]
    if isinstance(node, Tree):
        return (str(node.data), _meta_data(node._meta), tuple(encode(child) for child in node.children))
    if node is None:
        return None
    raise TypeError(f"no cache encoding for {type(node).__name__}")


def _meta_data(meta: Meta | None) -> tuple | None:
    if meta is None:
        return None
    fields = vars(meta)
    return tuple(fields.values()) if tuple(fields) == META_FIELDS else tuple(fields.items())


_new_str = str.__new__
_new_object = object.__new__


def decode(data: Any) -> Any:
    """The parse tree `encode` wrote, in interp.dsl.nodes' classes: the same shape, names and positions (made
    without their constructors, which cost twice as much, as unpickling makes objects).

    >>> decode(('neg', (('empty', False), ('start_pos', 0)), (None,))).meta.start_pos
    0
    >>> decode(encode(Token("NAME", "x", 4))).start_pos
    4
    """
    if data is None:
        return None
    name, fields, children = data
    if type(children) is not tuple:  # a token: (type, value, start_pos)
        token = _new_str(Token, fields)
        token.type, token.start_pos = name, children
        return token
    tree = _new_object(Tree)
    tree.data = name
    tree.children = [decode(child) for child in children]
    if fields is None:
        tree._meta = None
    else:
        meta = tree._meta = _new_object(Meta)
        meta.__dict__ = dict(fields) if fields and type(fields[0]) is tuple else dict(zip(META_FIELDS, fields))
    return tree
