"""The DSL grammar's LALR parser, its tables shipped pre-built beside the grammar (`grammar.tables`).

Building lark's LALR tables for grammar.lark costs a new process ~100 ms, more than compiling most specs; loading
them costs ~5 ms. So the package ships them: `grammar.tables` is made from grammar.lark by
`python tools/lark_tables.py` (the test suite checks that the shipped file is for the grammar and lark in use), and
read here by the package's own code from the package's own folder, as grammar.lark itself is: a place as
writable as the package's modules, never a user's cache or temp directory.

The file is marshal data, the format of `.pyc` files and of the load cache: a header, the SHA-256 of the rest,
then lark's own serialisation of the parser (`memo_serialize`: dicts, lists, tuples, strings, numbers, None, as
lark's standalone parsers embed them in Python source). marshal is chosen over JSON because the tables have int
keys and tuples that JSON would turn into strings and lists, and over pickle because decoding marshal data runs
nothing (it can build no object of a class and calls no function); lark's `_load_from_dict` only reads the
values. The header names what the tables are for: the SHA-256 of grammar.lark's text, lark's options and lark's
version. A file whose header does not match the grammar read now (an edited grammar.lark, another lark), or that
is damaged, is not used: the parser then comes from the load cache or is built (interp.dsl.cache.parser), exactly
as without the file.

>>> parser().parse("1 + x", start="expr").data
'arith'
"""
from __future__ import annotations

import hashlib
import marshal
from pathlib import Path

from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.parse_tree_builder import PropagatePositions

from interp.dsl import cache
from interp.dsl.nodes import Tree

GRAMMAR = Path(__file__).with_name("grammar.lark")
TABLES = GRAMMAR.with_suffix(".tables")
OPTIONS: dict = {"start": ["expr", "stmts"], "propagate_positions": True, "maybe_placeholders": True}
KIND = "interp lark tables 1"
MARSHAL_VERSION = 4  # read by every Python 3 since 3.4


def parser() -> Lark:
    """The LALR parser of grammar.lark, making interp.dsl.nodes' trees: from the shipped tables when they are for
    its text, these options and the installed lark; else from the load cache, or built."""
    text = GRAMMAR.read_text(encoding="utf-8")
    loaded = load(text, TABLES)
    if loaded is None:
        data, memo = cache.parser_tables(text, **OPTIONS)
        loaded = Lark._load_from_dict(data, memo, tree_class=Tree)
    return starts_only(loaded)


def starts_only(parser: Lark) -> Lark:
    """`parser` with lark's position tracking (`propagate_positions`: thirteen fields per tree node, at every
    reduction, and only on lark's own Tree class) replaced by `StartPositions`, which keeps on interp's trees the
    one field interp reads: where a node starts, to locate an error in its text (walk._offset). A parse costs
    about a fifth less than with lark's tracking. (Were lark's rule callbacks ever not the dict of
    PropagatePositions wrappers expected here, nodes would have no positions and errors would point at a node's
    first token instead: tests/dsl/test_tables.py checks they are.)"""
    callbacks = getattr(parser, "_callbacks", None)
    if isinstance(callbacks, dict):
        for rule, callback in callbacks.items():
            if type(callback) is PropagatePositions and callback.node_filter is None:
                callbacks[rule] = StartPositions(callback.node_builder)
    return parser


class StartPositions:
    """A rule's tree builder wrapped as lark's PropagatePositions wraps it, setting only `meta.start_pos` (and
    `meta.empty`): the start of the node's first child, or of the container it was inlined from (`(a + b) * c`
    starts at the bracket), as lark computes it.

    >>> parser().parse("(a + b) * c", start="expr").meta.start_pos, parser().parse("-x", start="expr").meta.start_pos
    (0, 0)
    """

    __slots__ = ("node_builder",)

    def __init__(self, node_builder) -> None:
        self.node_builder = node_builder

    def __call__(self, children: list):
        node = self.node_builder(children)
        if len(children) == 1 and node is children[0]:  # a one-operand level, inlined: its start is the child's
            return node
        if isinstance(node, Tree):
            for child in children:
                if isinstance(child, Tree):
                    meta = child._meta
                    if meta is None or meta.empty:
                        continue
                    start = getattr(meta, "container_start_pos", meta.start_pos)
                elif child is None:
                    continue
                else:
                    start = child.start_pos
                meta = node.meta
                if meta.empty:  # a node inlined from a `?rule` keeps its own start and gets a container's
                    meta.start_pos, meta.empty = start, False
                meta.container_start_pos = start
                break
        return node


def header(text: str) -> tuple:
    """What tables are for: the grammar's text (its SHA-256), lark's options and lark's version."""
    import lark
    return (KIND, hashlib.sha256(text.encode("utf-8")).hexdigest(), repr(sorted(OPTIONS.items())), lark.__version__)


def load(text: str, tables: Path) -> Lark | None:
    """The parser of grammar `text` from the file `tables`, or None if it is missing, unreadable, damaged (its
    SHA-256 does not match) or made for another grammar, options or lark."""
    try:
        head, digest, payload = marshal.loads(tables.read_bytes())
        if head != header(text) or hashlib.sha256(payload).digest() != digest:
            return None
        data, memo = marshal.loads(payload)
        return Lark._load_from_dict(data, memo, tree_class=Tree)
    except (OSError, ValueError, EOFError, TypeError, KeyError, AttributeError, IndexError):
        return None


def serialized(text: str) -> bytes:
    """The tables file of grammar `text`: built now, with the header `load` checks."""
    built = Lark(text, parser="lalr", **OPTIONS)
    payload = marshal.dumps(built.memo_serialize([TerminalDef, Rule]), MARSHAL_VERSION)
    return marshal.dumps((header(text), hashlib.sha256(payload).digest(), payload), MARSHAL_VERSION)


def write() -> bool:
    """Write the tables of grammar.lark to the shipped file (tools/lark_tables.py) unless it already holds tables
    for it; True if written. (Two builds number lark's states differently, so equal tables need not be equal bytes:
    a file is only rewritten when what it is for changed.)"""
    text = GRAMMAR.read_text(encoding="utf-8")
    if load(text, TABLES) is not None:
        return False
    TABLES.write_bytes(serialized(text))
    return True
