"""The DSL grammar's LALR parser, its tables shipped pre-built beside the grammar (`grammar.tables`).

Building lark's LALR tables for grammar.lark costs a new process ~100 ms, more than compiling most specs; loading
them costs ~5 ms. So the package ships them: `grammar.tables` is made from grammar.lark by
`python tools/lark_tables.py` (the test suite checks that the shipped file is for the grammar and lark in use), and
read here by the package's own code from the package's own folder, as grammar.lark itself is: a place as
writable as the package's modules, never a user's cache or temp directory. lark's parser parses only the texts
interp's own (interp.dsl.lalr, whose tables `lalr_tables` derives from lark's) refuses, to find and word their
error.

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
from functools import partial
from pathlib import Path

from lark import Lark
from lark.grammar import Rule
from lark.lexer import ContextualLexer, TerminalDef, UnlessCallback
from lark.parse_tree_builder import (
    ChildFilterLALR,
    ChildFilterLALR_NoPlaceholders,
    ExpandSingleChild,
    PropagatePositions,
)
from lark.parsers.lalr_analysis import Shift

from interp.dsl import cache, lalr
from interp.dsl.nodes import Tree, place

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
        return place(self.node_builder(children), children)


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
    """Write the tables of grammar.lark to the shipped files (tools/lark_tables.py) unless they already hold tables
    for it: lark's (`TABLES`) and interp's own parser's (interp.dsl.lalr, derived from lark's by `lalr_tables`);
    True if one was written. (Two builds number lark's states differently, so equal tables need not be equal
    bytes: a file is only rewritten when what it is for changed.)"""
    text = GRAMMAR.read_text(encoding="utf-8")
    written = False
    if load(text, TABLES) is None:
        TABLES.write_bytes(serialized(text))
        written = True
    if lalr.load(text, lalr.TABLES) is None:
        payload = marshal.dumps(lalr.encoded(lalr_tables(parser())), MARSHAL_VERSION)
        lalr.TABLES.write_bytes(marshal.dumps((lalr.header(text), hashlib.sha256(payload).digest(), payload),
                                              MARSHAL_VERSION))
        written = True
    return written


class Unsupported(Exception):
    """lark's parser does something interp.dsl.lalr does not do (a lexer callback, an ambiguous tree builder…)."""


def lalr_tables(parser: Lark) -> lalr.Tables:
    """What lark's LALR `parser` (from `parser()`) does, as interp.dsl.lalr's tables: its parse table, its
    contextual lexer's lexers and its rules' tree builders, read from the objects lark parses with; Unsupported
    if lark would do anything else with them.

    >>> tables = lalr_tables(parser())
    >>> lalr.parse(tables, "x.y", "expr") == parser().parse("x.y", start="expr")
    True
    """
    frontend = parser.parser
    table, callbacks = frontend.parser.parser.parse_table, frontend.parser.parser.callbacks
    if sorted(table.states) != list(range(len(table.states))) or frontend.lexer_conf.callbacks \
            or frontend.lexer_conf.g_regex_flags or type(frontend.lexer) is not ContextualLexer:
        raise Unsupported("state numbers, lexer callbacks, regex flags or the lexer")
    rules: dict = {}
    actions = tuple({name: _action(action, arg, rules, callbacks) for name, (action, arg) in table.states[s].items()}
                    for s in range(len(table.states)))
    lexers: dict = {}  # the same lexer (pattern, ignored, keywords) for many states: kept once
    lexer_of = tuple(lexers.setdefault(_lexer(frontend.lexer.lexers[s]), len(lexers)) for s in range(len(table.states)))
    return lalr.Tables(lexer_of, actions, tuple(lalr.Lexer(pattern, frozenset(ignore), {kind: dict(words) for kind, words in keywords})
                                                for pattern, ignore, keywords in lexers),
                       tuple(rules), dict(table.start_states), dict(table.end_states))


def _action(action, arg, rules: dict, callbacks: dict) -> int:
    """A parse action as interp.dsl.lalr codes it: the state to shift to, or -1 - the index of the rule to reduce
    by (added to `rules`, a dict used as an ordered set)."""
    if action is Shift:
        return arg
    rule = _rule(arg, callbacks[arg])
    return -1 - rules.setdefault(rule, len(rules))  # type: ignore[func-returns-value]


def _rule(rule: Rule, callback) -> lalr.Rule:
    """A rule's reduction from lark's callback for it: StartPositions, then optionally a child filter, then
    optionally ExpandSingleChild, then the tree class named after the rule."""
    if type(callback) is not StartPositions:
        raise Unsupported(f"the tree builder of {rule}")
    builder = callback.node_builder
    keep, nones_after = None, 0
    if type(builder) is ChildFilterLALR:
        keep, nones_after, builder = tuple(builder.to_include), builder.append_none, builder.node_builder
    elif type(builder) is ChildFilterLALR_NoPlaceholders:
        keep, builder = tuple((i, spliced, 0) for i, spliced in builder.to_include), builder.node_builder
    inline = type(builder) is ExpandSingleChild
    if inline:
        builder = builder.node_builder
    if not isinstance(builder, partial) or builder.func is not Tree or len(builder.args) != 1 or builder.keywords:
        raise Unsupported(f"the tree builder of {rule}")
    return lalr.Rule(str(rule.origin.name), len(rule.expansion), str(builder.args[0]), inline, keep, nones_after)


def _lexer(lexer) -> tuple:
    """One of the contextual lexer's lexers as (pattern, ignored terminals, keywords by terminal), hashable."""
    scanner = lexer.scanner
    if len(scanner._mres) != 1:
        raise Unsupported("a lexer of more than one pattern")
    keywords = []
    for kind, callback in sorted(lexer.callback.items()):
        if type(callback) is not UnlessCallback or any(t.pattern.type != "str" or t.pattern.flags
                                                       for t in callback.scanner.terminals):
            raise Unsupported(f"the lexer callback of {kind}")
        keywords.append((kind, tuple(sorted((t.pattern.value, t.name) for t in callback.scanner.terminals))))
    return scanner._mres[0].pattern, tuple(sorted(lexer.ignore_types)), tuple(keywords)
