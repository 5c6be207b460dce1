"""Parsing DSL text: the LALR grammar in grammar.lark, run by interp.dsl.lalr (lark words a syntax error); trees
cached by text; located syntax errors."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from interp.dsl import cache, lalr
from interp.dsl.nodes import Tree
from interp.errors import DSLSyntaxError

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput


@dataclass
class SourceRef:
    """Where DSL text lives, to locate errors: a loader Document and the path of the string."""

    doc: Any = None
    path: tuple = ()

    def error(self, cls, message: str, offset: int, hint: str | None = None):
        if self.doc is None:
            return cls(message, None, hint)
        return self.doc.error(message, self.path, hint, offset=offset, cls=cls)


class ShiftedSource(SourceRef):
    """A SourceRef for DSL text that starts `offset` characters into its YAML string (a clause, a hole)."""

    def __init__(self, doc, path: tuple, offset: int):
        super().__init__(doc, path)
        self.offset = offset

    def error(self, cls, message: str, offset: int, hint: str | None = None):
        return super().error(cls, message, offset + self.offset, hint)


# `{expression}` holes in strings and templates; `{{` and `}}` stand for literal braces.
HOLE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def word(token) -> str:
    """A name or a quoted text of the parse tree as an interned str: the compiled code's lookups of it (a local
    in `ctx.loc`, a var, a bid's name) then find the dict's key by identity instead of comparing the letters.

    >>> word("hand") is word("".join(["ha", "nd"]))
    True
    """
    return sys.intern(str(token))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # the tables ship pre-built with the package (interp.dsl.tables: ~5 ms to load instead of ~100 ms to build);
    # never lark's own cache=True, a pickle in the shared temp dir. lark is imported here, at the first text
    # interp's own parser refuses (or at the first text, were its tables not for the grammar): a spec without a
    # syntax error needs none.
    from interp.dsl import tables
    return tables.parser()


_TREES: dict = {}
MAX_CHARS = 10_000  # one expression's text (the longest in the shipped games is ~400)


def clear_cache() -> None:
    """Forget cached parse trees (the benchmark measures cold compiles)."""
    _TREES.clear()


def parse(text: str, start: str, source: SourceRef | None = None) -> Tree:
    """Parse `text` as an expression (`expr`) or statements (`stmts`), with located syntax errors.
    Trees are cached by text: a define used in many places is parsed once; while a spec file is compiled, they
    come from its load cache when it has them (interp.dsl.cache)."""
    key = (text, start)
    tree = _TREES.get(key)
    store = cache.active()
    if tree is not None:
        if store is not None:
            store.seen(key, tree)
        return tree
    source = source or SourceRef()
    if len(text) > MAX_CHARS:
        raise source.error(DSLSyntaxError, f"this expression is longer than {MAX_CHARS:,} characters", 0,
                           "split it into defines")
    tree = _TREES[key] = _parsed(text, start, source) if store is None else \
        store.tree(key, lambda: _parsed(text, start, source))
    return tree


@lru_cache(maxsize=1)
def _tables() -> lalr.Tables | None:
    # interp's own parser's tables (interp.dsl.lalr), shipped beside the grammar; None when they are not for it
    return lalr.load(lalr.GRAMMAR.read_text(encoding="utf-8"), lalr.TABLES)


def _parsed(text: str, start: str, source: SourceRef) -> Tree:
    """The tree of `text`: from interp's own parser, without lark, when its tables are for the grammar; a text it
    does not accept (or every text, without those tables) is parsed by lark, which finds and words the error."""
    tables = _tables()
    tree = lalr.parse(tables, text, start) if tables is not None else None
    if tree is not None:
        return tree
    parser = _parser()
    from lark.exceptions import UnexpectedInput
    try:
        return parser.parse(text, start=start)  # type: ignore[return-value]  # (tables.parser's tree_class)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, source) from None


def _syntax_error(exc: UnexpectedInput, text: str, source: SourceRef):
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
    offset = getattr(exc, "pos_in_stream", None)
    if offset is None:
        offset = len(text)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        return source.error(DSLSyntaxError, "expression ends too early", len(text),
                            "something is missing at the end (a closing bracket, an operand, 'else …'?)")
    if isinstance(exc, UnexpectedCharacters):
        return source.error(DSLSyntaxError, f"unexpected character {text[offset]!r}", offset,
                            "names are letters, digits and _; strings are quoted")
    token = exc.token if isinstance(exc, UnexpectedToken) else None
    shown = f"'{token}'" if token is not None else "this"
    expected = sorted(getattr(exc, "expected", ()) or ())
    hint = _expected_hint(expected)
    return source.error(DSLSyntaxError, f"unexpected {shown}", offset, hint)


_TOKEN_WORDS = {"RPAR": "')'", "RSQB": "']'", "COMMA": "','", "COLON": "':'", "THEN": "'then'", "ELSE": "'else'",
                "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "IN": "'in'"}


def _expected_hint(expected: list) -> str:
    words = [_TOKEN_WORDS[e] for e in expected if e in _TOKEN_WORDS]
    if words:
        return "expected " + " or ".join(words[:4])
    return "check the operators and brackets around here"


# ---------------------------------------------------------------------------------------------------------------
# compilation
