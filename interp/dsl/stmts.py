"""The statement stage of the DSL compiler: `for`, `if`, `let`, assignments and effect calls, compiled on top of
the expression compiler; every stored value is checked against the run-time size limits."""
from __future__ import annotations

from interp.dsl import runtime, types as T
from interp.dsl.expr import Compiler
from interp.dsl.fuse import Escape, block, bound, forgetting, holding, indented, python_local, search_into
from interp.dsl.limits import _Nesting
from interp.dsl.operators import _not_none
from interp.dsl.parse import word
from interp.dsl.runtime import MAX_INT, MAX_LIST, MAX_LOOP_STEPS, Steady, looper, setter, size_checked
from interp.dsl.scope import Compiled, Fn, Symbol
from interp.dsl.walk import _a, _args
from interp.errors import DSLSyntaxError

BIG = repr(MAX_INT)
SMALL = (T.BOOL, T.SEAT, T.CARD, T.BID, T.NONE)  # types whose values are never too big to store (runtime.too_big)


class StatementCompiler(Compiler):
    """Statements as Python source (fuse): a block of `;`-separated statements is one function whose lines
    are written from its parts' code — `if`, `let`, effect calls, assignments that store a value in place — and
    call the closure of any other statement (`for`, a capped column, `+=` on a local)."""

    temps = 0  # temporaries named so far in this compile (`v1`, `k1` …: locals of the generated function)

    def stmts(self, node) -> Compiled:
        """The block as a compiled statement: its code calls the block's function (fuse.block); `guarded`
        writes the lines into the guard itself."""
        lines: list[str] = []
        for c in node.children:
            lines += self.stmt_lines(c)
        return Compiled(None, T.NONE, code=block(lines, self.ns), ns=self.ns)

    def stmt_lines(self, node) -> list[str]:
        """One statement as lines of Python source, each indented as the statement is (4 spaces per level)."""
        with self.level(node):
            lines = self.statement_lines(node)
            if lines is None:
                lines = [bound(self.ns, self.statement(node)) + "(ctx)"]
        return lines

    def statement_lines(self, node) -> list[str] | None:
        kind = node.data
        if kind == "if_stmt":
            test = self.expect(node.children[0], self.expr(node.children[0]), T.BOOL, "the condition after 'if'")
            code = self.code(test)
            found = self.temp("t", new=True)
            searched = search_into(self.ns, code, found)  # `if any(…)`: a loop, no generator
            head = [f"if {code}:"] if searched is None else searched + [f"if {found}:"]
            return head + indented(self.stmt_lines(node.children[1]), self.ns)
        if kind == "for_stmt":
            return self.for_lines(node)
        if kind == "let_stmt":
            name = word(node.children[0])
            value = self.expr(node.children[1])
            self.locals[name] = (value.type, value.domain)
            return self.checked_value(value, node.children[1], name) + [f"ctx.loc[{name!r}] = {self.temp('v')}"]
        if kind == "call_stmt" and str(node.children[0]) in self.scope.functions:
            arg_nodes = _args(node.children[1]) if node.children[1] is not None else []
            return [self.code(self.call_function(node, word(node.children[0]), arg_nodes, allow_effect=True))]
        if kind == "assign":
            return self.assign_lines(node)
        return None

    def for_parts(self, node, held: str | None = None) -> tuple:
        """A `for` statement's loop variable, compiled list, the compiler of its body (the variable bound, and a
        Steady for what the body cannot change) and the body's node. `held`: the Python local holding the
        variable in the body's code (fuse.python_local), or None for `ctx.loc`."""
        var_token, coll_node, body_node = node.children
        var = word(var_token)
        coll = self.expr(coll_node)
        if not T.is_list(coll.type):
            self.fail(coll_node, f"'for … in' needs a list, not {_a(coll.type)}")
        inner = StatementCompiler(self.scope, self.source, self.locals, self.macro_stack)
        inner.locals[var] = (T.element(coll.type), coll.domain) + ((held,) if held else ())
        written = self.assigned_in(body_node)
        inner.steady = None if written is None else Steady(written)
        return var, coll, inner, body_node

    def for_lines(self, node) -> list[str]:
        """A `for` statement as lines, as the closure runs it (runtime.looper inside Steady.loop): the
        defines its body remembers forgotten before and after, the list charged to the loop budget, the local
        bound to each element. The local is a Python local of the function when all the body's code that reads
        it is written into the function (nothing it calls can look it up by name, and the body never assigns
        it): no binding in `ctx.loc` to make and restore. Else it is bound in `ctx.loc`, restored at the end."""
        var = word(node.children[0])
        if not rebinds(node.children[2], var):
            held = python_local(var)
            counted = _Nesting.parts, _Nesting.peak
            try:
                with holding([held]):
                    return self.loop_lines(node, held)
            except Escape as escape:
                if escape.name != held:
                    raise
                _Nesting.parts, _Nesting.peak = counted  # compiled again below, and counted once
        return self.loop_lines(node, None)

    def loop_lines(self, node, held: str | None) -> list[str]:
        """for_lines with the variable in the Python local `held`, or in `ctx.loc` (None)."""
        var, coll, inner, body_node = self.for_parts(node, held)
        body = inner.stmt_lines(body_node)
        c = self.temp("c", new=True)
        over = bound(self.ns, self.loop_limit(node))
        if held is not None:  # the list charged to the loop budget in place (runtime.charge)
            lines = [f"{c} = {self.code(coll)}", f"BUDGET.steps += len({c})",
                     f"if BUDGET.steps > {MAX_LOOP_STEPS}:", f"    raise {over}()",
                     f"for {held} in {c}:"] + indented(body, self.ns)
        else:
            s, e = self.temp("s", new=True), self.temp("e", new=True)
            lines = [f"{c} = charge({self.code(coll)}, {over})", f"{s} = ctx.loc.get({var!r}, MISSING)", "try:",
                     f"    for {e} in {c}:", f"        ctx.loc[{var!r}] = {e}"] + indented(body, self.ns, 2) + \
                    ["finally:", f"    if {s} is MISSING:", f"        ctx.loc.pop({var!r}, None)", "    else:",
                     f"        ctx.loc[{var!r}] = {s}"]
        return forgetting(list(inner.steady.cells.values()) if inner.steady is not None else [], lines, self.ns)

    def temp(self, kind: str, new: bool = False) -> str:
        """The name of this compile's current temporary of a kind (`v3`), or of a new one."""
        if new:
            StatementCompiler.temps += 1
        return f"{kind}{StatementCompiler.temps}"

    def checked_value(self, value: Compiled, node, name: str) -> list[str]:
        """Lines putting `value` into a new temporary `v…`, refused (located) when too big to store."""
        v = self.temp("v", new=True)
        line = f"{v} = kept({self.code(value)})" if T.is_list(value.type) else f"{v} = {self.code(value)}"
        if value.type in SMALL or (value.const and not runtime.too_big(value.fn(None))):
            return [line]  # never too big: a truth value, a seat, a card, a bid, a constant of a fitting size
        big = bound(self.ns, self.too_big(node, name))
        return [line, f"if too_big({v}):", f"    raise {big}()"]

    def assign_lines(self, node) -> list[str] | None:
        """An assignment as lines, when it stores a value in place (a var, a plain sheet column, `=` to a local);
        else None (its closure: runtime.setter). The order and checks are the closure's: for `=`, the value
        (size-checked), then the indexes (none refused); for `+=`/`-=`, the indexes, then the delta, skipped when
        zero, and the sum refused when too big."""
        target_node, op_token, value_node = node.children
        name = word(target_node.children[0])
        op = str(op_token)
        index_nodes = _args(target_node.children[1]) if len(target_node.children) > 1 and \
            target_node.children[1] is not None else []
        if name in self.locals and not index_nodes:
            if op != "=":
                return None
            value = self.expr(value_node)
            return self.checked_value(value, value_node, name) + [f"ctx.loc[{name!r}] = {self.temp('v')}"]
        sym = self.scope.symbols.get(name)
        if sym is None or not stored_in_place(sym) or len(index_nodes) != len(sym.index):
            return None
        value, idx = self.assign_parts(node, sym)
        none = bound(self.ns, self.none_index(target_node, name))
        keys, lines = [], []
        if op == "=":
            lines += self.checked_value(value, value_node, name)
            v = self.temp("v")
        for n, i in zip(index_nodes, idx):
            k = self.temp("k", new=True)
            keys.append(k)
            lines += [f"{k} = {self.code(i)}", f"if {k} is None:", f"    raise {none}()"]
        place = str(sym.code).format(*keys)
        if op == "=":
            return lines + [f"{place} = {v}"]
        v = self.temp("v", new=True)
        big = bound(self.ns, self.too_big(value_node, name))
        # an int var stays an int when a whole number is added: only its size is checked
        sized = f"not -{BIG} < {v} < {BIG}" if sym.type == T.INT and value.type == T.INT else \
            f"type({v}) is not int or not -{BIG} < {v} < {BIG}"
        store = [f"{v} = {place} {op[0]} {{}}", f"if {sized}:", f"    refuse_big({v}, {big})", f"{place} = {v}"]
        delta = value.fn(None) if value.const else None
        if type(delta) is int:  # a constant delta is written in, and a zero one adds nothing
            if delta == 0:  # (a statement is at least one line: `pass` when it adds nothing to a plain var)
                return lines or ["pass"]
            return lines + [store[0].format(delta)] + store[1:]
        d = self.temp("d", new=True)
        return lines + [f"{d} = {self.code(value)}", f"if {d}:"] + ["    " + line for line in [store[0].format(d)] + store[1:]]

    def assign_parts(self, node, sym: Symbol) -> tuple:
        """The value and the indexes of an assignment to `sym`, compiled and checked (as `assign` does)."""
        target_node, op_token, value_node = node.children
        name = sym.name
        index_nodes = _args(target_node.children[1]) if len(target_node.children) > 1 and \
            target_node.children[1] is not None else []
        idx = [self.expect(n, self.expr(n), want, f"the index of '{name}'") for n, want in zip(index_nodes, sym.index)]
        value = self.expr(value_node)
        op = str(op_token)
        if op != "=" and not (T.is_number(sym.type) and T.is_number(value.type)):
            self.fail(op_token, f"'{op}' needs numbers; '{name}' is {_a(sym.type)}")
        if not T.assignable(value.type, sym.type):
            self.fail(value_node, f"'{name}' holds {_a(sym.type)}, not {_a(value.type)}")
        if value.const and value.type == T.STR:
            self.check_literal_domain(Compiled(sym.get, sym.type, sym.domain), value, value_node)
        return value, idx

    def stmt(self, node) -> Fn:
        with self.level(node):
            return self.statement(node)

    def statement(self, node) -> Fn:
        kind = node.data
        if kind == "for_stmt":
            var, coll, inner, body_node = self.for_parts(node)
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
            name = word(node.children[0])
            value = self.expr(node.children[1])
            self.locals[name] = (value.type, value.domain)
            fv = size_checked(value.fn, self.too_big(node.children[1], name))

            def let(ctx):
                ctx.loc[name] = fv(ctx)
            return let
        if kind == "assign":
            return self.assign(node)
        if kind == "call_stmt":
            name = word(node.children[0])
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
        name = word(target_node.children[0])
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
        value, parts = self.assign_parts(node, sym)
        none = self.none_index(target_node, name)
        idx = [_not_none(i.fn, none) for i in parts]
        op = str(op_token)
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
            if runtime.too_big(loc[name]):
                raise big()
        return add_local

    def too_big(self, node, name: str):
        return self.error_at(node, f"the value stored in '{name}' grew past the limit (numbers below 2^53, "
                             f"lists of {MAX_LIST:,} items)", "does a loop keep doubling it?")




def rebinds(node, name: str) -> bool:
    """Whether the statements under `node` bind `name` themselves (`let name = …`, `name = …`, `name += …`)."""
    for sub in node.iter_subtrees():
        if sub.data == "let_stmt" and word(sub.children[0]) == name:
            return True
        if sub.data == "assign" and word(sub.children[0].children[0]) == name:
            return True
    return False


def stored_in_place(sym: Symbol) -> bool:
    """Whether assigning `sym` stores the value where its code reads it, and nothing else (not a capped column,
    whose overflow runs statements of its own)."""
    return sym.set is not None and sym.only_itself and sym.code is not None and sym.code.count("{}") == len(sym.index)


def assigned_names(node, scope) -> frozenset | None:
    """The names the statements under `node` may assign, or None when they may change more than names
    (an effect call moves cards; a capped column's overflow runs statements of its own)."""
    names = set()
    for sub in node.iter_subtrees():
        if sub.data == "call_stmt":
            return None
        if sub.data in ("assign", "let_stmt"):
            target = sub.children[0]
            name = word(target.children[0]) if sub.data == "assign" else word(target)
            sym = scope.symbols.get(name)
            if sym is not None and not sym.only_itself:
                return None
            names.add(name)
    return frozenset(names)
