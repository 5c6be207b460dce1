"""Symbols for the names a spec declares: options, vars, sheet columns (with a cap's overflow rule)."""
from __future__ import annotations

from dataclasses import replace

from interp.dsl import types as T
from interp.dsl.compile import Function, Symbol
from interp.engine.game import ColumnDecl, VarDecl
from interp.engine.match import capped_set


def option_getter(name: str):
    return lambda ctx: ctx.options[name]


def var_symbol(decl: VarDecl) -> Symbol:
    name = decl.name
    if decl.per_seat:
        def get(ctx, seat):
            return ctx.vars[name][seat]

        def put(ctx, value, seat):
            ctx.vars[name][seat] = value
        return Symbol(name, decl.type, (T.SEAT,), get=get, set=put, domain=decl.values,
                      code=f"ctx.vars[{name!r}][{{}}]")

    def get0(ctx):
        return ctx.vars[name]

    def put0(ctx, value):
        ctx.vars[name] = value
    return Symbol(name, decl.type, get=get0, set=put0, domain=decl.values, code=f"ctx.vars[{name!r}]")


def column_symbol(col: ColumnDecl) -> Symbol:
    name = col.name
    if col.per == "pair":
        def get2(ctx, a, b):
            return ctx.sheet[name][a][b]

        def put2(ctx, value, a, b):
            ctx.sheet[name][a][b] = value
        return Symbol(name, T.NUM, (T.SEAT, T.SEAT), get=get2, set=put2, code=f"ctx.sheet[{name!r}][{{}}][{{}}]")

    def get(ctx, seat):
        return ctx.sheet[name][seat]

    def put(ctx, value, seat):
        ctx.sheet[name][seat] = value
    return Symbol(name, T.NUM, (T.SEAT,), get=get, set=put, code=f"ctx.sheet[{name!r}][{{}}]")


def capped_setter(col: ColumnDecl):
    def put(ctx, value, seat):
        capped_set(ctx, col, value, seat)
    return put


def with_domain(fn: Function, domain: frozenset) -> Function:
    """`fn` whose string results are among `domain` (all else as it is)."""
    return replace(fn, domain=lambda _: domain)
