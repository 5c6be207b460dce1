"""Compile DSL text, once, into typed closures. The stages, each a module of interp.dsl: parsing (`parse`), the
names in scope (`scope`), expressions (`expr`: the compiler put together from `walk`, `operators`, `calls` and
`loops`, within the bounds of `limits`), statements (`stmts`), and what closures call at run time (`runtime`).
This module is the public entry point.

Every closure takes one argument, the evaluation context (a game State), and never walks a tree at run time.
Names are resolved and types checked at compile time, so a spec with a misspelt variable fails `validate`.

>>> from interp.dsl.compile import Scope, Symbol, compile_expr, Context
>>> from interp.errors import DSLNameError, SpecError
>>> scope = Scope({"x": Symbol("x", "int", get=lambda ctx: 4)})
>>> fn, t = compile_expr("sum(i * x for i in [1, 2, 3] if i != 2)", scope)
>>> fn(Context()), t
(16, 'int')
>>> try:
...     compile_expr("y + 1", scope)
... except DSLNameError as e:
...     print(e.message)
unknown name 'y'
"""
from __future__ import annotations

from typing import Any

from interp.dsl import types as T
from interp.dsl.expr import Compiler, compile_holes, compile_tree, guarded, located_error
from interp.dsl.fuse import Escape, function_of_arguments, holding, python_local
from interp.dsl.limits import MAX_DIGITS, MAX_NESTING, MAX_PARTS
from interp.dsl.nodes import Token, Tree
from interp.dsl.parse import HOLE, ShiftedSource, SourceRef, clear_cache, parse
from interp.dsl.runtime import Context, Steady, display
from interp.dsl.scope import Compiled, Fn, Function, Macro, Scope, Symbol
from interp.dsl.stmts import StatementCompiler
from interp.dsl.walk import _a
from interp.errors import DSLNameError, SpecError

__all__ = ["Context", "Symbol", "Function", "Macro", "Scope", "SourceRef", "ShiftedSource", "Compiled", "Compiler",
           "StatementCompiler", "parse", "clear_cache", "display", "compile_expr", "guarded", "compile_stmts",
           "compile_tree", "compile_holes", "HOLE", "MAX_NESTING", "MAX_PARTS", "MAX_DIGITS", "compile_filter",
           "compile_filter_args", "ITEMS"]


def compile_expr(text: str, scope: Scope, want: str | None = None, source: SourceRef | None = None,
                 locals_: dict | None = None, steady: Steady | None = None) -> tuple:
    """Compile one expression; returns (closure, type). `want` checks the result type; `steady` (a
    runtime.Steady or Stretch) remembers the defines it uses that cannot change while it holds."""
    source = source or SourceRef()
    compiler = Compiler(scope, source, locals_)
    compiler.steady = steady
    tree = parse(str(text), "expr", source)
    out = compiler.expr(tree)
    if want is not None and not T.assignable(out.type, want):
        raise source.error(DSLNameError, f"this must give {_a(want)}, but it gives {_a(out.type)}", 0)
    fn: Any = guarded(out, source)  # a closure carrying what it requires
    fn.requires = dict(out.requires)  # {local: value} the condition needs to be true (see Compiled.requires)
    return fn, out.type


ITEMS = "items filtered"  # the local holding compile_filter's list: a name no spec text can write (a space)


def compile_filter(text: str, var: str, scope: Scope, source: SourceRef | None = None,
                   locals_: dict | None = None) -> Fn:
    """Compile the condition `text` on the local `var` into one closure that lists the items of the local
    ITEMS (bound by the caller, with the other `locals_`; never an empty list) for which it holds: `[var for var
    in ITEMS if text]`, one comprehension instead of a call of the condition per item with `var` bound in
    `ctx.loc`. What does not read `var` is asked once, not per item (`hoisted`): that is why an empty list is
    not asked about (the condition would be asked about no item). The caller compiles `text` on its own first
    (compile_expr, with `var` a local of type `item`), which reports its mistakes.

    >>> scope = Scope({})
    >>> keep = compile_filter("card % 2 == 0 or card == lowest", "card", scope,
    ...                       locals_={"card": ("int", None), "lowest": ("int", None)})
    >>> ctx = Context(); ctx.loc.update({ITEMS: [1, 2, 3, 4], "lowest": 1})
    >>> keep(ctx)
    [1, 2, 4]
    """
    source = source or SourceRef()
    locals_ = dict(locals_ or {})
    item = locals_[var]
    locals_[ITEMS] = (T.list_of(item[0]), item[1])
    tree = hoisted(parse(str(text), "expr", source), var, Tree("name", [Token("NAME", ITEMS)]), scope.macros)
    return guarded(Compiler(scope, source, locals_).expr(tree), source)


def compile_filter_args(text: str, var: str, scope: Scope, source: SourceRef | None = None,
                        locals_: dict | None = None) -> Fn | None:
    """compile_filter's filter as one function of `ctx` and the values of the other `locals_` (in their order),
    then the items: each a Python argument its code reads in place (fuse.python_local), so the caller binds
    nothing in `ctx.loc` and the condition reads no local from it. None when a part of the condition would have
    to read one of them from `ctx.loc` all the same (a part that runs as a function of its own, such as a define
    that could not be written in place: fuse.Escape), or when it does not compile this way; the caller then uses
    compile_filter's.

    >>> scope = Scope({})
    >>> keep = compile_filter_args("card % 2 == 0 or card == lowest", "card", scope,
    ...                            locals_={"card": ("int", None), "lowest": ("int", None)})
    >>> keep(Context(), 1, [1, 2, 3, 4])
    [1, 2, 4]
    """
    source = source or SourceRef()
    locals_ = dict(locals_ or {})
    item = locals_[var]
    locals_[ITEMS] = (T.list_of(item[0]), item[1])
    held = {name: python_local("items" if name == ITEMS else name) for name in locals_ if name != var}
    typed = {name: (*locals_[name][:2], held[name]) if name in held else locals_[name] for name in locals_}
    tree = hoisted(parse(str(text), "expr", source), var, Tree("name", [Token("NAME", ITEMS)]), scope.macros)
    try:
        with holding(list(held.values())):
            out = Compiler(scope, source, typed).expr(tree)
    except (Escape, SpecError):  # (a mistake is compile_filter's to report: the condition compiled there first)
        return None
    if out.code is None or out.ns is None or "ctx.loc" in out.code:
        return None
    return function_of_arguments(out.code, out.ns, located_error(source), list(held.values()))


def hoisted(cond, var: str, items, macros: dict):
    """The tree of `[var for var in items if cond]` with the parts of `cond` that do not read `var` (following
    the defines it uses) asked once: `if c then a else b` on such a `c` is `if c then [… if a] else [… if b]`;
    `l or r` on such an `l` is `if l then items else [… if r]`; `l and r`: `if l then [… if r] else []` (the
    operands left of the first that reads `var` are `l`, asked in their order as before); a `not` over an `and`,
    an `or` or an `if` is moved inside it first. Anything else is the comprehension. The items are never empty
    (see compile_filter): every part hoisted would have been asked at the first item; the value returned may be
    the list of items itself."""
    from interp.dsl.reads import names_in

    def reads(tree) -> bool:
        return var in names_in(tree, macros)

    def joined(kind: str, parts: list):
        return parts[0] if len(parts) == 1 else Tree(kind, parts)

    def negated(tree):  # `not` moved inside: De Morgan, the same operands asked in the same order
        if tree.data != "not_" or not isinstance(tree.children[0], Tree):
            return None
        inner = tree.children[0]
        if inner.data in ("and_", "or_"):
            return Tree("or_" if inner.data == "and_" else "and_", [Tree("not_", [c]) for c in inner.children])
        if inner.data == "cond":
            c, a, b = inner.children
            return Tree("cond", [c, Tree("not_", [a]), Tree("not_", [b])])
        return None

    def split(tree):
        if not reads(tree):
            return Tree("cond", [tree, items, Tree("list_", [None])])
        moved = negated(tree)
        if moved is not None:
            return split(moved)
        if tree.data == "cond" and not reads(tree.children[0]):
            return Tree("cond", [tree.children[0], split(tree.children[1]), split(tree.children[2])])
        if tree.data in ("or_", "and_") and not reads(tree.children[0]):
            k = next(i for i, part in enumerate(tree.children) if reads(part))
            left, rest = joined(tree.data, tree.children[:k]), split(joined(tree.data, tree.children[k:]))
            if tree.data == "or_":
                return Tree("cond", [left, items, rest])
            return Tree("cond", [left, rest, Tree("list_", [None])])
        name = Token("NAME", var)
        return Tree("comprehension", [Tree("name", [name]), name, items, tree])
    return split(cond)


def compile_stmts(text: str, scope: Scope, source: SourceRef | None = None, locals_: dict | None = None,
                  steady: Steady | None = None) -> Fn:
    """Compile `;`-separated statements into one closure. `steady`: the block they belong to remembers the
    defines they use that nothing in it may change (the caller runs the block with `steady.loop`)."""
    source = source or SourceRef()
    tree = parse(str(text), "stmts", source)
    compiler = StatementCompiler(scope, source, locals_)
    compiler.steady = steady
    return guarded(compiler.stmts(tree), source)
