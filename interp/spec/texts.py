"""The spec compiler's working state and its located DSL compilation: the names in scope so far, and
expressions and statement blocks compiled from the spec's text at a path, their errors at file:line:column.
Every stage of compiling a spec (names, bids, phases, scoring) and every phase type's compile
step works through one SpecDSL."""
from __future__ import annotations

import re
from typing import Any

from interp.dsl import types as T
from interp.dsl.compile import (
    Compiler,
    Scope,
    ShiftedSource,
    SourceRef,
    compile_expr,
    compile_filter,
    compile_stmts,
    guarded,
    parse,
)
from interp.dsl.fuse import bound, forgetting, guarded_lines, indented, namespace, statements_function
from interp.dsl.runtime import Steady, Stretch
from interp.dsl.stmts import assigned_names
from interp.engine.builtins import FUNCTIONS
from interp.errors import SpecError
from interp.spec.located import Document


class SpecDSL:
    """The document being compiled, the scope built from it so far, and DSL compilation at its paths."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data
        self.symbols: dict = {}
        self.scope = Scope(self.symbols, dict(FUNCTIONS), {}, {}, {})
        self.bid_names: list = []
        self.gotos: dict = {}
        self.stretch = Stretch()  # the phases' `when` conditions share it (engine.advance opens and closes it)
        self.temps = 0  # names given to values in the lines of statement blocks (`temp`)

    def error(self, message: str, path, hint: str | None = None) -> SpecError:
        return self.doc.error(message, tuple(path), hint)

    def expr(self, path: tuple, want: str | None = None, locals_: dict | None = None, scope: Scope | None = None,
             steady: Steady | None = None):
        text = self.doc.get(path)
        if isinstance(text, bool) or text is None:
            text = str(text).lower()
        fn, _ = compile_expr(str(text), scope or self.scope, want, SourceRef(self.doc, path), locals_, steady)
        return fn

    def filter(self, path: tuple, var: str, locals_: dict):
        """The condition at `path` on the local `var` (a bool, with `locals_`) as a filter: a closure listing the
        items of the local compile.ITEMS (bound with the others) for which it holds (see compile_filter)."""
        self.expr(path, "bool", locals_)  # its mistakes reported as those of a condition
        return compile_filter(str(self.doc.get(path)), var, self.scope, SourceRef(self.doc, path), locals_)

    def typed_expr(self, path: tuple, locals_: dict | None = None, scope: Scope | None = None):
        text = str(self.doc.get(path))
        source = SourceRef(self.doc, path)
        compiled = Compiler(scope or self.scope, source, locals_).expr(parse(text, "expr", source))
        return guarded(compiled, source), compiled.type, compiled.domain

    def stmts(self, path: tuple, locals_: dict | None = None, scope: Scope | None = None,
              steady: Steady | None = None):
        """A statement block: a string (`;`-separated), or a list of strings and {if/then/else} or {for/do}.
        A whole block (`steady` None) that moves no card remembers, while it runs, the defines it uses that none
        of its assignments may change (`value` in ten lines of scoring is worked out once; runtime.Steady).

        The block is one Python function (fuse): each item's lines written one after another, each string and
        condition keeping its own guard (a fresh loop budget; an error names that item's place)."""
        scope = scope or self.scope
        value = self.doc.get(path)
        if steady is not None and isinstance(value, str):
            return compile_stmts(value, scope, SourceRef(self.doc, path), dict(locals_ or {}), steady)
        ns = namespace(scope.shared)
        return statements_function(self.block_lines(path, dict(locals_ or {}), scope, steady), ns)

    def block_lines(self, path: tuple, locals_: dict, scope: Scope, steady: Steady | None) -> list:
        """The Python lines of the statement block at `path` (see `stmts`); `steady` None: the block remembers
        what none of its assignments may change, its cells forgotten before and after it (as Steady.loop)."""
        if steady is None:
            written = self.block_writes(path, scope)
            if written is not None:
                block = Steady(written)
                steady_lines = self.block_lines(path, locals_, scope, block)
                return forgetting(list(block.cells.values()), steady_lines, namespace(scope.shared))
        value = self.doc.get(path)
        locals_ = dict(locals_)
        if isinstance(value, str):
            return self.item_lines(compile_stmts(value, scope, SourceRef(self.doc, path), locals_, steady), scope)
        if not isinstance(value, list):
            raise self.error("statements are a string or a list of strings", path)
        lines: list = []
        for i in range(len(value)):
            lines += self.block(path + (i,), locals_, scope, steady)
        return lines

    def block_writes(self, path: tuple, scope: Scope) -> frozenset | None:
        """The names a statement block may assign, or None when it may change more (an effect call, a capped
        column) or does not parse (its compile reports that, where it always has)."""
        value = self.doc.get(path)
        items = value if isinstance(value, list) else [value]
        names: frozenset = frozenset()
        for i, item in enumerate(items):
            where = path + (i,) if isinstance(value, list) else path
            if isinstance(item, str):
                try:
                    tree = parse(item, "stmts", SourceRef(self.doc, where))
                except SpecError:
                    return None
                found = assigned_names(tree, scope)
            elif isinstance(item, dict):
                found = frozenset()
                for key in ("then", "else", "do"):
                    sub = self.block_writes(where + (key,), scope) if key in item else frozenset()
                    if sub is None:
                        return None
                    found |= sub
            else:
                return None
            if found is None:
                return None
            names |= found
        return names

    def block(self, path: tuple, locals_: dict, scope: Scope, steady: Steady | None) -> list:
        """One item of a list of statements as lines."""
        item = self.doc.get(path)
        if isinstance(item, str):
            return self.item_lines(compile_stmts(item, scope, SourceRef(self.doc, path), locals_, steady), scope)
        if isinstance(item, dict) and "if" in item:
            test = self.expr(path + ("if",), "bool", locals_, scope, steady)
            t = self.temp("yt")
            then = self.block_lines(path + ("then",), locals_, scope, steady) if "then" in item else []
            other = self.block_lines(path + ("else",), locals_, scope, steady) if "else" in item else []
            ns = namespace(scope.shared)
            lines = self.item_lines(test, scope, t) + [f"if {t}:"] + indented(then or ["pass"], ns)
            return lines + (["else:"] + indented(other, ns) if other else [])
        if isinstance(item, dict) and "for" in item:
            return self.for_block(path, item, locals_, scope, steady)
        if isinstance(item, dict) and "do" in item:  # a named block: {name: …, do: […]} (variants merge by name)
            return self.block_lines(path + ("do",), locals_, scope, steady)
        raise self.error("a statement is a string, {if: …, then: […]}, {for: 'x in list', do: […]} or "
                         "{name: …, do: […]}", path)

    def item_lines(self, fn, scope: Scope, into: str | None = None) -> list:
        """A guarded item's lines (its guard written in: fuse.guarded_lines), or a call of it; with `into`,
        its value put into that name."""
        ns = namespace(scope.shared)
        lines = guarded_lines(fn, ns, into)
        if lines is not None:
            return lines
        call = bound(ns, fn) + "(ctx)"
        return [f"{into} = {call}" if into is not None else call]

    def temp(self, kind: str) -> str:
        """A new name for a value the lines of a block keep (`yt3`: a test's value)."""
        self.temps += 1
        return f"{kind}{self.temps}"

    def for_block(self, path: tuple, item: dict, locals_: dict, scope: Scope, steady: Steady | None) -> list:
        m = re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", str(item["for"]), re.S)
        if not m:
            raise self.error("write for: 'name in list'", path + ("for",))
        var, coll_text = m.group(1), m.group(2)
        offset = m.start(2)
        shifted = ShiftedSource(self.doc, path + ("for",), offset)
        compiled = Compiler(scope, shifted, locals_).expr(parse(coll_text, "expr", shifted))
        if not T.is_list(compiled.type):
            raise self.doc.error(f"'for' needs a list, not {compiled.type}", path + ("for",), offset=offset)
        inner = dict(locals_, **{var: (T.element(compiled.type), compiled.domain)})
        body = self.block_lines(path + ("do",), inner, scope, steady)
        over = bound(namespace(scope.shared), Compiler(scope, shifted).loop_limit(None))
        c, s, e = self.temp("yc"), self.temp("ys"), self.temp("ye")
        return self.item_lines(guarded(compiled, shifted), scope, c) + [
            f"{c} = charge({c}, {over})", f"{s} = ctx.loc.get({var!r})", f"for {e} in {c}:",
            f"    ctx.loc[{var!r}] = {e}"] + indented(body or ["pass"], namespace(scope.shared)) + \
            [f"ctx.loc[{var!r}] = {s}"]

    def number(self, path: tuple, value: Any):
        """An int given literally or as a DSL expression."""
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.error("expected a whole number or an expression", path)
        if isinstance(value, int):
            return lambda ctx: value
        return self.expr(path, "int")

    def scalars(self, path: tuple, t: str) -> list:
        """The list at `path`, checked to hold plain values of type `t` (a var's or option's `values`)."""
        values = self.doc.get(path)
        for i, value in enumerate(values):
            if isinstance(value, (list, dict)) or not T.assignable(type_of(value), t):
                raise self.error(f"{value!r} is not {'an' if t[0] in 'aeiou' else 'a'} {t}", path + (i,),
                                 f"list the {t} values this may take")
        return values


    def check_free(self, name: str, path: tuple) -> None:
        if name in self.symbols or name in self.scope.macros:
            raise self.doc.key_error(f"'{name}' is already a name (built-in or declared earlier)", path,
                                     "choose another name")

    def fact_scope(self, facts: list, what: str = "scoring") -> Scope:
        """The names scoring may read: facts (no other vars, no zones), the sheet, options, built-ins."""
        if not facts:
            return self.scope
        fact_names = {f.name for f in facts}
        forbidden = {n: f"{what} may read only facts, and '{n}' is a var that is not one"
                     for n in (self.data.get("vars", {}) or {}) if n not in fact_names}
        forbidden.update({z: f"{what} may read only facts, and '{z}' is a zone (cards are not facts)"
                          for z in (self.data.get("zones", {}) or {})})
        return Scope({k: v for k, v in self.symbols.items() if k not in forbidden}, self.scope.functions,
                     self.scope.macros, self.scope.records, self.scope.domains, forbidden)


def type_of(value) -> str:
    """The DSL type of a plain YAML value (an option's default, a bid field)."""
    if value is None:
        return T.NONE
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, float):
        return T.NUM
    if isinstance(value, str):
        return T.STR
    return T.ANY
