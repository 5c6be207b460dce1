"""The statement stage of the DSL compiler: `for`, `if`, `let`, assignments and effect calls, compiled on top of
the expression compiler; every stored value is checked against the run-time size limits."""
from __future__ import annotations

from . import dslruntime
from . import dsltypes as T
from .dslexpr import Compiler, _a, _args, _not_none
from .dslruntime import MAX_LIST, Steady, looper, setter, size_checked
from .dslscope import Compiled, Fn
from .errors import DSLSyntaxError

class StatementCompiler(Compiler):
    def stmts(self, node) -> Fn:
        fns = [self.stmt(c) for c in node.children]
        if len(fns) == 1:
            return fns[0]

        def run(ctx):
            for f in fns:
                f(ctx)
        return run

    def stmt(self, node) -> Fn:
        with self.level(node):
            return self.statement(node)

    def statement(self, node) -> Fn:
        kind = node.data
        if kind == "for_stmt":
            var_token, coll_node, body_node = node.children
            var = str(var_token)
            coll = self.expr(coll_node)
            if not T.is_list(coll.type):
                self.fail(coll_node, f"'for … in' needs a list, not {_a(coll.type)}")
            inner = StatementCompiler(self.scope, self.source, self.locals, self.macro_stack)
            inner.locals[var] = (T.element(coll.type), coll.domain)
            written = self.assigned_in(body_node)
            inner.steady = None if written is None else Steady(written)
            body = inner.stmt(body_node)
            run = looper(var, coll.fn, None, self.loop_limit(node))
            loop = lambda ctx: run(ctx, body) and None  # noqa: E731
            return loop if inner.steady is None else inner.steady.loop(loop)
        if kind == "if_stmt":
            test = self.expect(node.children[0], self.expr(node.children[0]), T.BOOL, "the condition after 'if'")
            body = self.stmt(node.children[1])
            ft = test.fn
            return lambda ctx: body(ctx) if ft(ctx) else None
        if kind == "let_stmt":
            name = str(node.children[0])
            value = self.expr(node.children[1])
            self.locals[name] = (value.type, value.domain)
            fv = size_checked(value.fn, self.too_big(node.children[1], name))

            def let(ctx):
                ctx.loc[name] = fv(ctx)
            return let
        if kind == "assign":
            return self.assign(node)
        if kind == "call_stmt":
            name = str(node.children[0])
            if name not in self.scope.functions:
                self.fail(node, f"unknown function '{name}'", self.suggest(name))
            arg_nodes = _args(node.children[1]) if node.children[1] is not None else []
            fn = self.call_function(node, name, arg_nodes, allow_effect=True).fn
            return lambda ctx: fn(ctx) and None
        self.fail(node, f"unsupported statement {kind}", cls=DSLSyntaxError)

    def assigned_in(self, node) -> frozenset | None:
        return assigned_names(node, self.scope)

    def assign(self, node) -> Fn:
        target_node, op_token, value_node = node.children
        name = str(target_node.children[0])
        index_nodes = _args(target_node.children[1]) if len(target_node.children) > 1 and \
            target_node.children[1] is not None else []
        if name in self.locals and not index_nodes:
            return self.assign_local(name, str(op_token), self.expr(value_node), value_node)
        sym = self.scope.symbols.get(name)
        if sym is None:
            self.unknown(target_node, name)
        if sym.set is None:
            self.fail(target_node, f"'{name}' cannot be assigned", "assign vars and sheet columns")
        if len(index_nodes) != len(sym.index):
            self.fail(target_node, f"'{name}' takes {len(sym.index)} index(es), got {len(index_nodes)}")
        idx = []
        none = self.none_index(target_node, name)
        for n, want in zip(index_nodes, sym.index):
            idx.append(_not_none(self.expect(n, self.expr(n), want, f"the index of '{name}'").fn, none))
        value = self.expr(value_node)
        op = str(op_token)
        if op != "=" and not (T.is_number(sym.type) and T.is_number(value.type)):
            self.fail(op_token, f"'{op}' needs numbers; '{name}' is {_a(sym.type)}")
        if not T.assignable(value.type, sym.type):
            self.fail(value_node, f"'{name}' holds {_a(sym.type)}, not {_a(value.type)}")
        if value.const and value.type == T.STR:
            self.check_literal_domain(Compiled(sym.get, sym.type, sym.domain), value, value_node)
        big = self.too_big(value_node, name)
        return setter(sym, op, idx, size_checked(value.fn, big) if op == "=" else value.fn, big)

    def assign_local(self, name: str, op: str, value: Compiled, value_node) -> Fn:
        big = self.too_big(value_node, name)
        fv = size_checked(value.fn, big)
        if op == "=":
            def set_local(ctx):
                ctx.loc[name] = fv(ctx)
            return set_local
        sign = 1 if op == "+=" else -1

        def add_local(ctx):
            loc = ctx.loc
            loc[name] += sign * fv(ctx)
            if dslruntime.too_big(loc[name]):
                raise big()
        return add_local

    def too_big(self, node, name: str):
        return self.error_at(node, f"the value stored in '{name}' grew past the limit (numbers below 2^53, "
                             f"lists of {MAX_LIST:,} items)", "does a loop keep doubling it?")




def assigned_names(node, scope) -> frozenset | None:
    """The names the statements under `node` may assign, or None when they may change more than names
    (an effect call moves cards; a capped column's overflow runs statements of its own)."""
    names = set()
    for sub in node.iter_subtrees():
        if sub.data == "call_stmt":
            return None
        if sub.data in ("assign", "let_stmt"):
            target = sub.children[0]
            name = str(target.children[0]) if sub.data == "assign" else str(target)
            sym = scope.symbols.get(name)
            if sym is not None and not sym.only_itself:
                return None
            names.add(name)
    return frozenset(names)
