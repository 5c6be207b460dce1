"""The DSL's LALR parser run from plain tables, without importing lark: the parse of every text a spec holds.

lark builds the parser of grammar.lark (its parse table, its contextual lexer, its tree builder); importing lark
and loading its parser cost a new process ~25 ms, a quarter of loading a large spec cold, and lark's parse loop
another ~20 ms. `grammar.lalr`, made beside the grammar from lark's own parser by `python tools/lark_tables.py`
(interp.dsl.tables.lalr_tables), holds what that parser does, as marshal data:

- per parser state, its lexer (the index of one of the lexers) and its actions: by terminal or rule name, the
  state to shift to (n ≥ 0) or the rule to reduce by (-1 - its index);
- per lexer (lark's contextual lexer has one per set of terminals a state accepts), the regular expression lark
  matches (its terminals as named groups, in lark's order), the terminals it ignores and the keywords it tells
  apart from names (lark's `UnlessCallback`: a NAME whose text is `if` is the terminal IF);
- per rule, what its reduction builds (`Rule`), as lark's tree builder does: which children it keeps (with `None`
  for an optional part left out: `maybe_placeholders`), which it splices in (lark's `_rule` helpers for `x*`),
  whether a one-child node is inlined (`?rule`), and the node's name; and where the node starts
  (interp.dsl.nodes.place, as interp.dsl.tables.StartPositions does on lark's parses);
- per start rule, its first state and its accepting state.

`parse` does exactly what lark's LALR parser does with them, on any text it accepts (the same trees, tokens and
positions: tests/dsl/test_lalr.py compares the two on every DSL text of the shipped games). A text it does not
accept gives None: the caller (interp.dsl.parse) then asks lark, whose error (what was expected where) is the one
reported. So an error costs the import of lark, and every error is found and worded by lark itself.

>>> tables = load(GRAMMAR.read_text(encoding="utf-8"), TABLES)
>>> parse(tables, "a + 1", "expr")
Tree('arith', [Tree('name', [Token('NAME', 'a')]), Token('ADD_OP', '+'), Tree('number', [Token('NUMBER', '1')])])
>>> parse(tables, "a +", "expr") is None
True
"""
from __future__ import annotations

import hashlib
import marshal
import re
from pathlib import Path
from typing import Any, NamedTuple

from interp.dsl.nodes import Token, Tree, place

GRAMMAR = Path(__file__).with_name("grammar.lark")
TABLES = GRAMMAR.with_suffix(".lalr")
KIND = "interp lalr tables 1"
END = "$END"
_new_str = str.__new__


class Rule(NamedTuple):
    """What reducing by a rule builds from the `size` values on top of the stack: the node `name` (or its single
    kept child when `inline`) of the children at `keep` (index, spliced, Nones before it; all of them when None)
    and `nones_after` Nones; then the parser goes to the state of `origin` (the rule's name)."""

    origin: str
    size: int
    name: str
    inline: bool
    keep: tuple | None
    nones_after: int


class Lexer:
    """One of the contextual lexer's lexers: its pattern (a named group per terminal; compiled at its first use, as
    a spec uses about half of them), the terminals it skips and its keywords (terminal -> text -> terminal: a
    NAME whose text is `if` is IF).

    >>> Lexer("(?P<NAME>[a-z]+)|(?P<SPACE> )", frozenset({"SPACE"}), {}).match("ab c", 2).lastgroup
    'SPACE'
    """

    __slots__ = ("source", "ignore", "keywords", "_compiled")

    def __init__(self, source: str, ignore: frozenset, keywords: dict) -> None:
        self.source, self.ignore, self.keywords = source, ignore, keywords
        self._compiled: re.Pattern | None = None

    def match(self, text: str, pos: int) -> re.Match | None:
        if self._compiled is None:
            self._compiled = re.compile(self.source)
        return self._compiled.match(text, pos)


class Tables(NamedTuple):
    """The parser: per state its lexer and its actions; the rules; per start rule its first and accepting state."""

    lexer_of: tuple
    actions: tuple
    lexers: tuple
    rules: tuple
    starts: dict
    ends: dict


def header(grammar: str) -> tuple:
    """What tables are for: this format and the grammar's text (its SHA-256)."""
    return (KIND, hashlib.sha256(grammar.encode("utf-8")).hexdigest())


def load(grammar: str, path: Path) -> Tables | None:
    """The tables of `grammar` from the file `path`, or None if it is missing, unreadable, damaged (its SHA-256
    does not match) or made for another grammar or format."""
    try:
        head, digest, payload = marshal.loads(path.read_bytes())
        if head != header(grammar) or hashlib.sha256(payload).digest() != digest:
            return None
        return decoded(marshal.loads(payload))
    except (OSError, ValueError, EOFError, TypeError, KeyError, IndexError):
        return None


def decoded(data: tuple) -> Tables:
    """Tables from their marshal data (`encoded`; each lexer's pattern compiled at its first use)."""
    lexer_of, actions, lexers, rules, starts, ends = data
    return Tables(tuple(lexer_of), tuple(actions),
                  tuple(Lexer(p, frozenset(i), {kind: dict(words) for kind, words in k.items()}) for p, i, k in lexers),
                  tuple(Rule(*r) for r in rules), dict(starts), dict(ends))


def encoded(tables: Tables) -> tuple:
    """Tables as marshal data (tuples, dicts, strings, numbers)."""
    return (tables.lexer_of, tables.actions,
            tuple((lx.source, tuple(sorted(lx.ignore)), lx.keywords) for lx in tables.lexers),
            tuple(tuple(r) for r in tables.rules), tables.starts, tables.ends)


class _Refused(Exception):
    """The text is not in the language (or holds a character no terminal matches)."""


def parse(tables: Tables, text: str, start: str) -> Any:
    """The parse tree of `text` from rule `start` (`expr`, `stmts`), as lark's parser builds it, or None when the
    text is not accepted."""
    try:
        return _parse(tables, text, start)
    except _Refused:
        return None


def _parse(tables: Tables, text: str, start: str) -> Any:
    actions, lexer_of, lexers, rules = tables.actions, tables.lexer_of, tables.lexers, tables.rules
    states: list = [tables.starts[start]]
    values: list = []
    token, pos = _next_token(lexers[lexer_of[states[-1]]], text, 0)
    while token is not None:
        _feed(actions, rules, states, values, token)
        token, pos = _next_token(lexers[lexer_of[states[-1]]], text, pos)
    return _finish(tables, states, values, tables.ends[start])


def _next_token(lexer: Lexer, text: str, pos: int) -> tuple:
    """The next token from `pos` on that is not ignored and where the text after it starts; (None, the text's
    length) at the end."""
    while pos < len(text):
        match = lexer.match(text, pos)
        if match is None:
            raise _Refused()
        value, kind = match.group(0), match.lastgroup or ""  # (every alternative is a named group)
        if kind not in lexer.ignore:
            keywords = lexer.keywords.get(kind)
            token = _new_str(Token, value)  # made as interp.dsl.cache.decode makes tokens: half the cost
            token.type, token.start_pos = keywords.get(value, kind) if keywords else kind, pos
            return token, pos + len(value)
        pos += len(value)
    return None, pos


def _feed(actions: tuple, rules: tuple, states: list, values: list, token: Token) -> None:
    """Reduce as the token's lookahead says, then shift it."""
    while True:
        action = actions[states[-1]].get(token.type)
        if action is None:
            raise _Refused()
        if action >= 0:
            states.append(action)
            values.append(token)
            return
        _reduce(actions, rules[-1 - action], states, values)


def _finish(tables: Tables, states: list, values: list, end_state: int) -> Any:
    """The reductions the end of the text calls for, up to the start rule's accepting state: the tree."""
    while True:
        action = tables.actions[states[-1]].get(END)
        if action is None or action >= 0:
            raise _Refused()
        _reduce(tables.actions, tables.rules[-1 - action], states, values)
        if states[-1] == end_state:
            return values[-1]


def _reduce(actions: tuple, rule: Rule, states: list, values: list) -> None:
    if rule.inline and rule.size == 1 and rule.keep is None:  # a one-operand level (`?sum: product`): the operand
        del states[-1]
        states.append(actions[states[-1]][rule.origin])
        return
    if rule.size:
        children = values[-rule.size:]
        del states[-rule.size:]
        del values[-rule.size:]
    else:
        children = []
    states.append(actions[states[-1]][rule.origin])
    values.append(place(_node(rule, children), children))


def _node(rule: Rule, children: list) -> Any:
    """The node a rule builds of its children (lark's ChildFilterLALR, ExpandSingleChild and tree class)."""
    if rule.keep is None:
        kept = children
    else:
        kept = []
        for index, spliced, nones in rule.keep:
            if nones:
                kept.extend([None] * nones)
            if spliced:
                kept.extend(children[index].children)
            else:
                kept.append(children[index])
        if rule.nones_after:
            kept.extend([None] * rule.nones_after)
    if rule.inline and len(kept) == 1:
        return kept[0]
    return Tree(rule.name, kept)
