"""Aggregates of the DSL (`sum(x for x in xs if …)`, count, min/max, max_by/min_by, any/all, first): each
builder type-checks the compiled parts and returns one closure whose loop counts against the loop budget."""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from interp.dsl import types as T
from interp.dsl.runtime import MISSING, charge, exact_sum, looper, searcher
from interp.dsl.scope import Compiled

if TYPE_CHECKING:
    from interp.dsl.expr import Compiler

def _agg_sum(c: Compiler, node, var, coll, body, cond) -> Compiled:
    if not T.is_number(body.type):
        c.fail(node, f"sum(…) adds numbers, not {body.type}")
    run, fb = looper(var, coll.fn, cond.fn if cond else None, c.loop_limit(node)), body.fn
    return Compiled(lambda ctx: exact_sum(run(ctx, fb)), body.type)


def _agg_count(c: Compiler, node, var, coll, body, cond) -> Compiled:
    if body.type != T.BOOL:
        c.fail(node, "count(… for …) counts where a condition holds: count(cond for x in list)")
    run, fb = looper(var, coll.fn, cond.fn if cond else None, c.loop_limit(node)), body.fn
    return Compiled(lambda ctx: sum(1 for v in run(ctx, fb) if v), T.INT)


def _agg_extreme(pick):
    def build(c: Compiler, node, var, coll, body, cond) -> Compiled:
        if not T.is_number(body.type):
            c.fail(node, "min/max(… for …) compares numbers")
        run, fb = looper(var, coll.fn, cond.fn if cond else None, c.loop_limit(node)), body.fn
        return Compiled(lambda ctx: pick(run(ctx, fb), default=None), body.type)
    return build


def _agg_by(better):
    """max_by / min_by: the element (not the key) with the best key; the first one on ties; none if empty."""
    def build(c: Compiler, node, var, coll, body, cond) -> Compiled:
        if not (T.is_number(body.type) or body.type == T.BID):
            c.fail(node, "max_by/min_by rank elements by a number or bid")
        fc, fb, fcond = coll.fn, body.fn, cond.fn if cond else None
        over = c.loop_limit(node)

        def pick(ctx):
            best, best_key = None, None
            values = charge(fc(ctx), over)
            loc = ctx.loc
            saved = loc.get(var, MISSING)
            for v in values:
                loc[var] = v
                if fcond is not None and not fcond(ctx):
                    continue
                key = fb(ctx)
                if best_key is None or better(key, best_key):
                    best, best_key = v, key
            if saved is MISSING:
                loc.pop(var, None)
            else:
                loc[var] = saved
            return best
        return Compiled(pick, T.element(coll.type), coll.domain)
    return build


def _agg_bool(until: bool):
    def build(c: Compiler, node, var, coll, body, cond) -> Compiled:
        if body.type != T.BOOL:
            c.fail(node, "any/all(… for …) need a condition")
        return Compiled(searcher(var, coll.fn, cond.fn if cond else None, c.loop_limit(node), body.fn, until),
                        T.BOOL)
    return build


def _agg_first(c: Compiler, node, var, coll, body, cond) -> Compiled:
    return Compiled(searcher(var, coll.fn, cond.fn if cond else None, c.loop_limit(node), body.fn, None),
                    body.type, body.domain)


AGGREGATES = {
    "sum": _agg_sum, "count": _agg_count, "min": _agg_extreme(min), "max": _agg_extreme(max),
    "max_by": _agg_by(operator.gt), "min_by": _agg_by(operator.lt), "any": _agg_bool(True), "all": _agg_bool(False),
    "first": _agg_first,
}

