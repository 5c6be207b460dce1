"""Aggregates of the DSL (`sum(x for x in xs if …)`, count, min/max, max_by/min_by, any/all, first) and list
comprehensions: the expression compiler's part that compiles them (`LoopCompiler`), as Python source with the
loop variable in a Python local where it can (`held_loop`), else by a builder of AGGREGATES that type-checks the
compiled parts and returns one closure whose loop counts against the loop budget."""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING

from interp.dsl import types as T
from interp.dsl.fuse import Escape, borrowed, bound, fresh, holding, python_local, search
from interp.dsl.limits import _Nesting
from interp.dsl.parse import word
from interp.dsl.runtime import MISSING, card_filter, charge, exact_sum, filterer, looper, searcher
from interp.dsl.scope import Compiled
from interp.dsl.walk import TreeCompiler, _a

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

# Aggregates that run as Python source, their variable held in a Python local (LoopCompiler.held_loop).
HELD_AGGREGATES = frozenset({"sum", "count", "min", "max", "any", "all", "first"})
HELD_LOOP = " for _pv"  # in source: a loop written by held_loop (its variable a fuse.python_local)


class LoopCompiler(TreeCompiler):
    """Aggregates and list comprehensions (see the module)."""

    def e_aggregate(self, node) -> Compiled:
        name_token, body_node, var_token, coll_node, cond_node = node.children
        name, var = word(name_token), word(var_token)
        if name not in AGGREGATES:
            self.fail(name_token, f"'{name}(… for …)' is not an aggregate",
                      "aggregates: " + ", ".join(sorted(AGGREGATES)))
        if name in HELD_AGGREGATES:
            held = self.held_loop(node, name, var, coll_node, body_node, cond_node)
            if held is not None:
                return held
        coll, body, cond = self.loop_parts(var, coll_node, body_node, cond_node)
        return AGGREGATES[name](self, node, var, coll, body, cond)

    def e_comprehension(self, node) -> Compiled:
        body_node, var_token, coll_node, cond_node = node.children
        var = word(var_token)
        held = self.held_loop(node, "list", var, coll_node, body_node, cond_node)
        if held is not None:
            return held
        coll, body, cond = self.loop_parts(var, coll_node, body_node, cond_node)
        if body.local == var and cond is not None and cond.card_of is not None and cond.card_of[0] == var:
            _, table, value_of = cond.card_of  # [c for c in cs if is_trump(c)]: the define's table, looked up
            return Compiled(card_filter(coll.fn, table, value_of, self.loop_limit(node)), T.list_of(body.type),
                            body.domain)
        if body.local == var and cond is not None:  # a filter: [s for s in seats if call[s] == 'whist']
            return Compiled(filterer(var, coll.fn, cond.fn, self.loop_limit(node)), T.list_of(body.type),
                            body.domain)
        fb = body.fn
        run = looper(var, coll.fn, cond.fn if cond else None, self.loop_limit(node))
        return Compiled(lambda ctx: run(ctx, fb), T.list_of(body.type), body.domain)

    def held_loop(self, node, kind: str, var: str, coll_node, body_node, cond_node) -> Compiled | None:
        """An aggregate or a list comprehension as Python source: a comprehension or generator over the list
        (charged to the loop budget first) whose variable is a Python local of its own (fuse.python_local),
        not a binding in `ctx.loc` made and restored at each element, and no call per element. `any`, `all`
        and `first` stop at the element that decides, as their closures do. None when a part reading the
        variable must run as a function of its own, the parts do not type-check (the closures' builder reports
        that), or the source would be too big: the caller then builds the closures (loops, runtime)."""
        held = python_local(var)
        counted = _Nesting.parts, _Nesting.peak
        try:
            with holding([held]):
                coll, body, cond = self.loop_parts(var, coll_node, body_node, cond_node, held)
                fused = self.held_code(node, kind, held, coll, body, cond)
        except Escape as escape:
            if escape.name != held:
                raise
            fused = None
        if fused is None:
            _Nesting.parts, _Nesting.peak = counted  # compiled again by the caller, and counted once
        return fused

    def held_code(self, node, kind: str, held: str, coll: Compiled, body: Compiled, cond: Compiled | None):
        """held_loop's source, given its parts compiled with the variable held in `held`."""
        if kind in ("sum", "min", "max") and not T.is_number(body.type) or \
                kind in ("count", "any", "all") and body.type != T.BOOL:
            return None
        over = bound(self.ns, self.loop_limit(node))
        items = borrowed(self.ns, self.code(coll))  # an expression's loop changes no list it reads
        charged = f"charge({items}, {over})"
        if ":=" in items:  # a name assigned in a comprehension's list would be an error: the list is named first
            c = fresh(self.ns)
            source, named, charged = f"({c} := {charged}), ", [f"{c} = {charged}"], c
        else:
            source, named = "", []
        test = self.code(cond) if cond is not None else None
        loop = f"for {held} in {charged}" + (f" if {test}" if test is not None else "")
        value = self.code(body)
        code, t, domain = {
            "list": (f"[{value} {loop}]", T.list_of(body.type), body.domain),
            "sum": (f"exact_sum([{value} {loop}])", body.type, None),
            "count": (f"len([1 {loop} if {value}])", T.INT, None),
            "min": (f"min([{value} {loop}], default=None)", body.type, None),
            "max": (f"max([{value} {loop}], default=None)", body.type, None),
            "any": (f"any({value} {loop})", T.BOOL, None),
            "all": (f"all({value} {loop})", T.BOOL, None),
            "first": (f"next(({value} {loop}), None)", body.type, body.domain),
        }[kind]
        if source:
            code = f"({source}{code})[1]"
        fused = self.joined(code, t, domain)
        if fused is not None and kind in ("any", "all"):  # where it is a function's whole value: a loop
            search(self.ns, code, kind == "any", named, f"for {held} in {charged}", test, value)
        return fused

    def loop_parts(self, var: str, coll_node, body_node, cond_node, held: str | None = None):
        """The compiled list, body and filter of a loop over `var` (held in the Python local `held`, or bound
        in `ctx.loc` when None)."""
        coll = self.expr(coll_node)
        if not T.is_list(coll.type):
            self.fail(coll_node, f"'for … in' needs a list, not {_a(coll.type)}")
        inner = self.inner()
        inner.steady = self.steady  # an expression assigns nothing: the loop around it still holds
        inner.locals[var] = (T.element(coll.type), coll.domain) + ((held,) if held else ())
        body = inner.expr(body_node)
        cond = None
        if cond_node is not None:
            cond = inner.expect(cond_node, inner.expr(cond_node), T.BOOL, "the filter after 'if'")
        return coll, body, cond
