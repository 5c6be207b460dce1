"""The expression stage of the DSL compiler: parse trees to typed closures, names resolved and types checked at
compile time, with the limits that keep a compiled closure within what Python allows (nesting, parts, numbers).
Aggregates are built in dslloops; statements in dslstmts."""
from __future__ import annotations

import difflib
import sys
from typing import Any, Callable, NoReturn
from contextlib import contextmanager
from fractions import Fraction

from lark import Token, Tree

from interp.dsl import types as T
from interp.dsl.loops import AGGREGATES
from interp.dsl.parse import HOLE, ShiftedSource, SourceRef, parse, word
from interp.dsl.runtime import ARITH, MAX_LIST, MAX_LOOP_STEPS, MISSING, Steady, call1, card_filter, card_lookup, card_table, comparison, define_call, display, divide, field_value, filterer, guard, item_at, looper, name_of, remembered_by
from interp.dsl.fuse import Escape, borrowed, bound, bound_once, code_of, fits, fresh, function, guarded_function, holding, lend, namespace, python_local, search, zone_id_code
from interp.dsl.scope import Compiled, Fn, Scope, SharedDefine, Symbol
from interp.errors import DSLNameError, DSLSyntaxError, SpecError, SpecRuntimeError
from interp.dsl.reads import GAME_CONSTANTS, calls_in, free_names

# Built-ins whose value depends on the deck and their arguments only (a define of a card that calls nothing
# else and reads no name but its parameter is tabled by card: dslruntime.card_table).
DECK_ONLY = frozenset({"suit", "rank", "rank_name", "points", "card", "len", "abs", "min", "max", "floor", "ceil",
                       "trunc", "round", "sum", "count", "any", "all", "first", "max_by", "min_by"})
SCALARS = frozenset({T.BOOL, T.INT, T.NUM, T.STR})
# Built-ins whose value depends on their arguments and the player count only.
SEAT_ORDER = frozenset({"order_from", "others", "left"})

# Compile-time limits: how deeply one expression nests once its defines are inlined (its closures call each other
# that deep at run time: a few Python frames a level), how many parts it has, how long a number may be. A level is
# an operator or call (brackets and single operands add none); the shipped games nest up to 30 levels (defines
# built on defines). Python's frame limit is raised to fit MAX_NESTING.
MAX_NESTING = 100
PYTHON_FRAMES = 8000
if sys.getrecursionlimit() < PYTHON_FRAMES:
    sys.setrecursionlimit(PYTHON_FRAMES)
MAX_PARTS = 20_000
MAX_DIGITS = 15
# Aggregates that run as Python source, their variable held in a Python local (Compiler.held_loop).
HELD_AGGREGATES = frozenset({"sum", "count", "min", "max", "any", "all", "first"})
INLINE_MAX = 240  # characters of a define's code written in place at each use (a longer one is called: the load)
HELD_LOOP = " for _pv"  # in source: a loop written by held_loop (its variable a dslfuse.python_local)
# Arithmetic on numbers as Python source (dslfuse): the operators, and the helpers that make a division by zero 0.
NUMBER_OPS = {op: ARITH[op] for op in ("+", "-", "*", "//", "%")} | {"/": divide}
NUMBER_CODE = {"+": "({} + {})", "-": "({} - {})", "*": "({} * {})", "//": "floordiv({}, {})", "%": "modulo({}, {})",
               "/": "divide({}, {})"}


class _Nesting:
    """The depth of the compile in progress and the parts compiled since its top-level expression began."""

    depth = 0
    parts = 0
    peak = 0  # the deepest level reached (a shared define's own depth is measured with it)


_METHODS: dict = {}  # a tree node's rule name -> the Compiler method that compiles it


class Compiler:
    """Compiles parse trees to closures against a Scope; locals are tracked with their types."""

    def __init__(self, scope: Scope, source: SourceRef, locals_: dict | None = None, macro_stack: tuple = ()):
        self.scope = scope
        self.source = source
        self.locals: dict = dict(locals_ or {})
        self.macro_stack = macro_stack
        self.steady: Steady | None = None  # inside a statement loop: what its body may assign (dslruntime.Steady)
        self.ns = namespace(scope.shared)  # where the functions joined from parts' code find their names (dslfuse)

    # -- helpers --------------------------------------------------------------------------------------------
    def fail(self, node, message: str, hint: str | None = None, cls=DSLNameError) -> NoReturn:
        raise self.error_at(node, message, hint, cls)()

    def error_at(self, node, message: str, hint: str | None = None, cls=SpecRuntimeError):
        """A factory of the located error for `node`, for closures that find the mistake at run time."""
        source, offset = self.source, _offset(node)
        return lambda: source.error(cls, message, offset, hint)

    def loop_limit(self, node):
        return self.error_at(node, f"this loop passed the limit of {MAX_LOOP_STEPS:,} steps in one evaluation",
                             "nested loops multiply: loop over fewer things, or compute in steps")

    def nested(self, node):
        """Count one level of nesting and one part against the limits (a located error past them)."""
        if _Nesting.depth == 0:
            _Nesting.parts = 0
        _Nesting.parts += 1
        if _Nesting.parts > MAX_PARTS:
            self.too_many_parts(node)
        if _Nesting.depth >= MAX_NESTING:
            self.too_deep(node)

    def too_many_parts(self, node) -> NoReturn:
        through = f" (through the defines {', '.join(self.macro_stack)})" if self.macro_stack else ""
        self.fail(node, f"this expression has more than {MAX_PARTS:,} parts once defines are inlined"
                  f"{through}", "a define used twice in each of many defines doubles each time: "
                  "compute the value once, in a var")

    def too_deep(self, node) -> NoReturn:
        self.fail(node, f"this expression nests more than {MAX_NESTING} levels deep",
                  "split it into defines, or use a flat chain (a + b + c, if … else if …)")

    def expect(self, node, compiled: Compiled, wanted: str, what: str) -> Compiled:
        if not T.assignable(compiled.type, wanted):
            self.fail(node, f"{what} must be {_a(wanted)}, not {_a(compiled.type)}")
        return compiled

    @contextmanager
    def level(self, node):
        """One level deeper into the tree, within the nesting and parts limits."""
        self.nested(node)
        _Nesting.depth += 1
        try:
            yield
        finally:
            _Nesting.depth -= 1

    def expr(self, node) -> Compiled:
        if isinstance(node, Token):
            self.fail(node, f"unexpected token {node}", cls=DSLSyntaxError)
        self.nested(node)  # what `level` does, inline: this runs for every node of every expression
        _Nesting.depth += 1
        if _Nesting.depth > _Nesting.peak:
            _Nesting.peak = _Nesting.depth
        try:
            name = _METHODS.get(node.data)
            if name is None:
                name = _METHODS[node.data] = "e_" + node.data.rstrip("_")
            method = getattr(self, name, None)
            if method is None:
                if len(node.children) == 1:
                    return self.expr(node.children[0])
                self.fail(node, f"unsupported construct {node.data}", cls=DSLSyntaxError)
            return method(node)
        finally:
            _Nesting.depth -= 1

    def joined(self, code: str, t: str, domain: frozenset | None = None, requires: tuple = (),
               zone: bool = False) -> Compiled | None:
        """An expression made of its parts' code (dslfuse), or None when the source would be too big for one
        function (the caller then joins the parts' closures)."""
        if not fits(code):
            return None
        return Compiled(None, t, domain, zone, requires=requires, code=code, ns=self.ns)

    def code(self, part: Compiled) -> str:
        return code_of(part, self.ns)

    # -- atoms ----------------------------------------------------------------------------------------------
    def e_number(self, node) -> Compiled:
        text = str(node.children[0])
        if len(text) > MAX_DIGITS + ("." in text):
            self.fail(node, f"this number has more than {MAX_DIGITS} digits", "a spec's numbers are small",
                      cls=DSLSyntaxError)
        value = Fraction(text) if "." in text else int(text)
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        return Compiled(lambda ctx: value, T.NUM if isinstance(value, Fraction) else T.INT, const=True)

    def e_string(self, node) -> Compiled:
        token = node.children[0]
        value = word(str(token)[1:-1])
        if "{" in value or "}" in value:
            return self.interpolated(token, value)
        return Compiled(lambda ctx: value, T.STR, const=True)

    def interpolated(self, token, text: str) -> Compiled:
        """A string with `{expression}` holes (`{{`, `}}` for braces): each hole is compiled here, with the same
        locals, and shown as players read it (cards with suit symbols, seats by name, lists space-separated)."""
        start = getattr(self.source, "offset", 0) + (token.start_pos or 0) + 1
        parts = compile_holes(text, self.scope, self.source.doc, self.source.path, start, self.locals,
                              self.macro_stack)

        def render(ctx):
            return "".join(p if isinstance(p, str) else display(ctx, p[0](ctx), p[1]) for p in parts)
        return Compiled(render, T.STR)

    def e_true(self, node) -> Compiled:
        return Compiled(lambda ctx: True, T.BOOL, const=True)

    def e_false(self, node) -> Compiled:
        return Compiled(lambda ctx: False, T.BOOL, const=True)

    def e_none(self, node) -> Compiled:
        return Compiled(lambda ctx: None, T.NONE, const=True)

    def e_name(self, node) -> Compiled:
        name = word(node.children[0])
        if name in self.locals:
            t, domain, *held = self.locals[name]
            if held:  # held in a Python local of the function being written (dslfuse.python_local)
                return Compiled(None, t, domain, code=held[0], ns=self.ns)
            return Compiled(lambda ctx: ctx.loc[name], t, domain, local=name, code=f"ctx.loc[{name!r}]", ns=self.ns)
        sym = self.scope.symbols.get(name)
        if sym is not None:
            if sym.index:
                self.fail(node, f"'{name}' needs {len(sym.index)} index(es): {name}[…]",
                          f"write {name}[{', '.join(sym.index)}]")
            return Compiled(sym.get, sym.type, sym.domain, sym.zone, code=sym.code, ns=self.ns)
        if name in self.scope.macros:
            return self.call_macro(node, name, [])
        if name in self.scope.functions and not self.scope.functions[name].params:
            return self.call_function(node, name, [])
        self.unknown(node, name)

    def unknown(self, node, name: str, what: str = "name") -> NoReturn:
        """Fail for a name that is not in scope, saying why when the scope forbids it."""
        reason = self.scope.forbidden.get(name)
        if reason is not None:
            self.fail(node, reason, "declare it under facts:, or compute it from facts in a define")
        self.fail(node, f"unknown {what} '{name}'", self.suggest(name))

    def suggest(self, name: str) -> str:
        known = list(self.locals) + list(self.scope.symbols) + list(self.scope.macros) + list(self.scope.functions)
        close = difflib.get_close_matches(name, known, n=3)
        if close:
            return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
        return "names come from the spec's vars, zones, sheet columns, options and defines, or the built-ins"

    def e_list(self, node) -> Compiled:
        items = [self.expr(c) for c in _args(node.children[0])] if node.children[0] is not None else []
        elem = T.ANY
        for child, item in zip(_args(node.children[0]) if items else [], items):
            joined = T.unify(elem, item.type) if elem != T.ANY else item.type
            if joined is None:
                self.fail(child, f"list items must share a type: {elem} and {item.type}")
            elem = joined
        domain = frozenset().union(*[i.domain or () for i in items]) or None
        fused = self.joined("[" + ", ".join(self.code(i) for i in items) + "]", T.list_of(elem), domain)
        if fused is not None:
            return fused
        fns = [i.fn for i in items]
        return Compiled(lambda ctx: [f(ctx) for f in fns], T.list_of(elem), domain)

    # -- operators ------------------------------------------------------------------------------------------
    def e_or(self, node) -> Compiled:
        parts = [self.expr(c) for c in node.children]
        if len(parts) == 1:
            return parts[0]
        for c, p in zip(node.children, parts):
            self.expect(c, p, T.BOOL, "each side of 'or'")
        joined = " or ".join(self.code(p) for p in parts)  # more than two parts give a bool (any_of)
        fused = self.joined(f"({joined})" if len(parts) == 2 else f"(not not ({joined}))", T.BOOL)
        if fused is not None:
            return fused
        fns = [p.fn for p in parts]
        if len(fns) == 2:
            a, b = fns
            return Compiled(lambda ctx: a(ctx) or b(ctx), T.BOOL)
        return Compiled(any_of(fns), T.BOOL)

    def e_and(self, node) -> Compiled:
        parts = [self.expr(c) for c in node.children]
        if len(parts) == 1:
            return parts[0]
        for c, p in zip(node.children, parts):
            self.expect(c, p, T.BOOL, "each side of 'and'")
        requires = tuple(r for p in parts for r in p.requires)
        joined = " and ".join(self.code(p) for p in parts)  # more than two parts give a bool (all_of)
        fused = self.joined(f"({joined})" if len(parts) == 2 else f"(not not ({joined}))", T.BOOL,
                            requires=requires)
        if fused is not None:
            return fused
        fns = [p.fn for p in parts]
        if len(fns) == 2:
            a, b = fns
            return Compiled(lambda ctx: a(ctx) and b(ctx), T.BOOL, requires=requires)
        return Compiled(all_of(fns), T.BOOL, requires=requires)

    def e_not(self, node) -> Compiled:
        inner = self.expect(node.children[0], self.expr(node.children[0]), T.BOOL, "the operand of 'not'")
        fused = self.joined(f"(not {self.code(inner)})", T.BOOL)
        if fused is not None:
            return fused
        f = inner.fn
        return Compiled(lambda ctx: not f(ctx), T.BOOL)

    def e_cond(self, node) -> Compiled:
        test, yes, no = (self.expr(c) for c in node.children)
        self.expect(node.children[0], test, T.BOOL, "the condition after 'if'")
        t = T.unify(yes.type, no.type)
        if t is None:
            self.fail(node.children[2], f"'then' gives {_a(yes.type)} but 'else' gives {_a(no.type)}")
        domain = (yes.domain or frozenset()) | (no.domain or frozenset()) or None
        fused = self.joined(f"({self.code(yes)} if {self.code(test)} else {self.code(no)})", t, domain)
        if fused is not None:
            return fused
        ft, fy, fn = test.fn, yes.fn, no.fn
        return Compiled(lambda ctx: fy(ctx) if ft(ctx) else fn(ctx), t, domain)

    def e_with(self, node) -> Compiled:
        """`with name = value: body` computes `value` once and names it inside `body`."""
        name, value_node, body_node = word(node.children[0]), node.children[1], node.children[2]
        value = self.expr(value_node)
        inner = Compiler(self.scope, self.source, self.locals, self.macro_stack)
        inner.locals[name] = (value.type, value.domain)
        body = inner.expr(body_node)
        fv, fb = value.fn, body.fn
        return Compiled(call1(name, fv, fb), body.type, body.domain)

    def e_compare(self, node) -> Compiled:
        if len(node.children) == 1:
            return self.expr(node.children[0])
        left_node, op_token, right_node = node.children
        left, right = self.expr(left_node), self.expr(right_node)
        op = str(op_token)
        self.check_literal_domain(left, right, right_node)
        self.check_literal_domain(right, left, left_node)
        if op in ("==", "!="):
            if T.unify(left.type, right.type) is None and not self.bid_vs_name(left, right):
                self.fail(op_token, f"cannot compare {_a(left.type)} with {_a(right.type)}")
        else:
            ordered = (T.is_number(left.type) and T.is_number(right.type)) or \
                      (left.type == right.type and left.type in (T.BID, T.STR)) or self.bid_vs_name(left, right)
            if not ordered:
                self.fail(op_token, f"'{op}' needs two numbers or two bids, not {left.type} and {right.type}")
        if not _converted(left, right, op) and not _converted(right, left, op):
            requires = ((left.local, right.fn(None)),) if op == "==" and left.local is not None and right.const \
                else ()
            fused = self.joined(f"({self.code(left)} {op} {self.code(right)})", T.BOOL, requires=requires)
            if fused is not None:
                return fused
        fl, fr = _as_comparable(left, right, op), _as_comparable(right, left, op)
        requires = ()
        if op == "==" and left.local is not None and right.const and fr is right.fn:
            requires = ((left.local, fr(None)),)
        fused = self.joined(f"({self.comparable_code(left, right, op)} {op} {self.comparable_code(right, left, op)})",
                            T.BOOL, requires=requires)
        if fused is not None:
            return fused
        left_local = left.local if fl is left.fn else None
        return Compiled(comparison(op, fl, fr, right.const and fr is right.fn, left_local), T.BOOL,
                        requires=requires)

    def comparable_code(self, this: Compiled, other: Compiled, op: str) -> str:
        """Python source of one side of a comparison, converted as _as_comparable converts it: a bid compared
        with a name by its name, a name ordered against a bid looked up on the ladder."""
        code = self.code(this)
        if op in ("==", "!=") and this.type == T.BID and other.type == T.STR:
            k = fresh(self.ns)
            return f"(None if ({k} := {code}) is None else {k}.name)"
        if op not in ("==", "!=") and this.type == T.STR and other.type == T.BID:
            return f"ctx.game.bids_by_name.get({code})"
        return code

    def bid_vs_name(self, a: Compiled, b: Compiled) -> bool:
        return {a.type, b.type} == {T.BID, T.STR}

    def check_literal_domain(self, value: Compiled, literal: Compiled, literal_node) -> None:
        """`call[s] == "whsit"` fails at compile time when call's values are declared."""
        if not literal.const or literal.type != T.STR:
            return
        domain = value.domain or self.scope.domains.get(value.type)
        text = literal.fn(None)
        if domain is not None and text not in domain:
            close = difflib.get_close_matches(text, sorted(domain), n=3)
            hint = ("did you mean " + " or ".join(repr(c) for c in close) + "?") if close else \
                "one of: " + ", ".join(sorted(map(str, domain))[:12])
            self.fail(literal_node, f"{text!r} is not a possible value here", hint)

    def e_in(self, node) -> Compiled:
        return self.membership(node, negate=False)

    def e_not_in(self, node) -> Compiled:
        return self.membership(node, negate=True)

    def membership(self, node, negate: bool) -> Compiled:
        item, coll = self.expr(node.children[0]), self.expr(node.children[1])
        if not T.is_list(coll.type):
            self.fail(node.children[1], f"'in' needs a list on its right, not {_a(coll.type)}")
        if T.unify(item.type, T.element(coll.type)) is None:
            self.fail(node.children[0], f"{_a(item.type)} is never in a {coll.type}")
        if item.const and item.type == T.STR:
            self.check_literal_domain(coll, item, node.children[0])
        fused = self.joined(f"({self.code(item)} {'not in' if negate else 'in'} {borrowed(self.ns, self.code(coll))})",
                            T.BOOL)
        if fused is not None:
            return fused
        fi, fc = item.fn, coll.fn
        if negate:
            return Compiled(lambda ctx: fi(ctx) not in fc(ctx), T.BOOL)
        return Compiled(lambda ctx: fi(ctx) in fc(ctx), T.BOOL)

    def e_arith(self, node) -> Compiled:
        """A chain `a + b - c …` runs as one loop over its terms, however long (never closures nested that deep)."""
        children = node.children
        first = self.expr(children[0])
        t, domain = first.type, first.domain
        steps = []
        code = self.code(first) if T.is_number(first.type) else None
        for i in range(1, len(children), 2):
            op_token, right_node = children[i], children[i + 1]
            right = self.expr(right_node)
            combine, t, domain = self.binary(t, domain, str(op_token), right, op_token)
            if code is not None and combine in NUMBER_OPS.values():  # numbers: Python's operators or helpers
                code = NUMBER_CODE[str(op_token)].format(code, self.code(right))
            else:
                code = None
            steps.append((combine, right))
        if not steps:
            return first
        fused = None if code is None else self.joined(code, t, domain)
        if fused is not None:
            return fused
        fns = [(combine, right.fn) for combine, right in steps]
        f0 = first.fn
        if len(fns) == 1:
            (combine, f1), = fns
            return Compiled(lambda ctx: combine(f0(ctx), f1(ctx)), t, domain)

        def chain(ctx):
            value = f0(ctx)
            for combine, f in fns:
                value = combine(value, f(ctx))
            return value
        return Compiled(chain, t, domain)

    def binary(self, left_type: str, left_domain, op: str, right: Compiled, op_token) -> tuple:
        """(how to combine the two values, the result type, its domain) for `left op right`, the left side
        given by its type and domain (a chain's value so far)."""
        if T.is_list(left_type) and op in "+-" and T.unify(left_type, right.type):
            t = T.unify(left_type, right.type)
            if op == "-":
                return (lambda a, b: [x for x in a if x not in b]), t, left_domain
            too_long = self.error_at(op_token, f"this joins lists into more than {MAX_LIST:,} items")

            def join(a, b):
                if len(a) + len(b) > MAX_LIST:
                    raise too_long()
                return a + b
            return join, t, left_domain
        if not (T.is_number(left_type) and T.is_number(right.type)):
            lists = T.is_list(left_type) or T.is_list(right.type)
            self.fail(op_token, f"'{op}' needs numbers, not {left_type} and {right.type}",
                      "lists of the same type can be joined with + and removed from with -" if lists else None)
        if op == "/":
            return divide, T.NUM, None
        t = T.INT if (left_type == T.INT and right.type == T.INT) else T.NUM
        return ARITH[op], t, None

    def e_neg(self, node) -> Compiled:
        inner = self.expr(node.children[0])
        if not T.is_number(inner.type):
            self.fail(node, f"'-' needs a number, not {_a(inner.type)}")
        fused = self.joined(f"(-{self.code(inner)})", inner.type)
        if fused is not None:
            return fused
        f = inner.fn
        return Compiled(lambda ctx: -f(ctx), inner.type)

    # -- postfix --------------------------------------------------------------------------------------------
    def e_attr(self, node) -> Compiled:
        base = self.expr(node.children[0])
        name = word(node.children[1])
        fields = self.scope.records.get(base.type)
        if fields is None:
            self.fail(node.children[1], f"{_a(base.type)} has no fields", "fields exist on bids, e.g. contract.level")
        if name not in fields:
            self.fail(node.children[1], f"{base.type} has no field '{name}'",
                      "fields: " + ", ".join(sorted(fields)))
        t, domain = fields[name]
        record = fresh(self.ns)  # field_value, in place
        fused = self.joined(f"(None if ({record} := {self.code(base)}) is None else {record}.fields[{name!r}])", t,
                            domain)
        if fused is not None:
            return fused
        f = base.fn
        return Compiled(lambda ctx: field_value(f(ctx), name), t, domain)

    def e_index(self, node) -> Compiled:
        base_node, args_node = node.children
        args = [self.expr(a) for a in _args(args_node)]
        if isinstance(base_node, Tree) and base_node.data == "name":
            name = str(base_node.children[0])
            sym = self.scope.symbols.get(name)
            if sym is not None and sym.index and name not in self.locals:
                return self.indexed_symbol(node, sym, args, _args(args_node))
            if sym is None and name in self.scope.forbidden and name not in self.locals:
                self.unknown(base_node, name)
        base = self.expr(base_node)
        if not T.is_list(base.type):
            self.fail(base_node, f"{_a(base.type)} cannot be indexed")
        if len(args) != 1 or not T.assignable(args[0].type, T.INT):
            self.fail(args_node, "a list takes one whole-number index, from 0")
        index = args[0].fn(None) if args[0].const else None
        if type(index) is int and index >= 0:  # item_at, in place: `whisters[0]`
            seq = fresh(self.ns)
            code = f"({seq}[{index}] if len({seq} := {borrowed(self.ns, self.code(base))}) > {index} else None)"
        else:
            code = f"item_at({borrowed(self.ns, self.code(base))}, {self.code(args[0])})"
        fused = self.joined(code, T.element(base.type), base.domain)
        if fused is not None:
            return fused
        fb, fi = base.fn, args[0].fn
        return Compiled(lambda ctx: item_at(fb(ctx), fi(ctx)), T.element(base.type), base.domain)

    def indexed_symbol(self, node, sym: Symbol, args: list, arg_nodes: list) -> Compiled:
        if len(args) != len(sym.index):
            self.fail(node, f"'{sym.name}' takes {len(sym.index)} index(es), got {len(args)}",
                      f"write {sym.name}[{', '.join(sym.index)}]")
        for a, n, want in zip(args, arg_nodes, sym.index):
            self.expect(n, a, want, f"the index of '{sym.name}'")
        get = sym.get
        none = self.none_index(node, sym.name)
        if sym.code is not None:  # each index read once, and a none refused, in place
            fail = bound(self.ns, raising(none))
            keys = []
            for a in args:
                k = fresh(self.ns)
                keys.append(f"({k} if ({k} := {self.code(a)}) is not None else {fail}())")
            fused = self.joined(sym.code.format(*keys), sym.type, sym.domain, zone=sym.zone)
            if fused is not None:
                return fused
        if len(args) == 1 and args[0].local is not None:  # `hand[s]`: the local read in place
            name = args[0].local

            def at_local(ctx):
                a = ctx.loc[name]
                if a is None:
                    raise none()
                return get(ctx, a)
            return Compiled(at_local, sym.type, sym.domain, sym.zone)
        if len(args) == 1:
            fa = args[0].fn

            def at(ctx):
                a = fa(ctx)
                if a is None:
                    raise none()
                return get(ctx, a)
            return Compiled(at, sym.type, sym.domain, sym.zone)
        fa, fb = args[0].fn, args[1].fn

        def at2(ctx):
            a, b = fa(ctx), fb(ctx)
            if a is None or b is None:
                raise none()
            return get(ctx, a, b)
        return Compiled(at2, sym.type, sym.domain, sym.zone)

    def none_index(self, node, name: str):
        return self.error_at(node, f"'{name}[…]' is indexed by none here (no such seat)",
                             f"check the index first, e.g. `if x != none then {name}[x] else …`")

    # -- calls ----------------------------------------------------------------------------------------------
    def e_call(self, node) -> Compiled:
        name = word(node.children[0])
        arg_nodes = _args(node.children[1]) if node.children[1] is not None else []
        if name in self.scope.macros:
            return self.call_macro(node, name, arg_nodes)
        if name not in self.scope.functions:
            self.fail(node, f"unknown function '{name}'", self.suggest(name))
        return self.call_function(node, name, arg_nodes)

    def call_function(self, node, name: str, arg_nodes: list, allow_effect: bool = False) -> Compiled:
        fn = self.scope.functions[name]
        if fn.effect and not allow_effect:
            self.fail(node, f"'{name}' changes the game and can only be used as a statement")
        args = [self.expr(a) for a in arg_nodes]
        low = len(fn.params) if fn.min_args is None else fn.min_args
        if not low <= len(args) <= len(fn.params):
            want = f"{low}" if low == len(fn.params) else f"{low} to {len(fn.params)}"
            self.fail(node, f"'{name}' takes {want} argument(s), got {len(args)}",
                      f"{name}({', '.join(fn.params)})")
        for a, n, want in zip(args, arg_nodes, fn.params):
            self.expect(n, a, want, f"argument of '{name}'")
        for i in fn.zone_args:
            if not args[i].zone:
                self.fail(arg_nodes[i], f"'{name}' needs a zone here (like hand[s] or talon), not a computed list")
        impl = fn.impl
        t = fn.result([a.type for a in args])
        domain = fn.domain([a.domain for a in args]) if fn.domain else None
        if fn.static and all(a.const for a in args):
            cell, value = once(impl, [a.fn for a in args])
            k = fresh(self.ns)  # the value read in place once worked out
            code = f"({k} if ({k} := {bound(self.ns, cell)}[0]) is not MISSING else {bound(self.ns, value)}(ctx))"
            return Compiled(value, t, domain, code=code, ns=self.ns)
        codes = [self.code(a) for a in args]
        if fn.python == "len":
            codes = [borrowed(self.ns, c) for c in codes]
        ids = [zone_id_code(codes[i]) for i in fn.zone_args]
        if fn.python is not None:
            call = f"{fn.python}(" + ", ".join(codes) + ")"
        elif fn.at_id is not None and ids and None not in ids:  # `reveal(hand[s])` given the zone's id
            for i, zid in zip(fn.zone_args, ids):
                codes[i] = str(zid)
            call = f"{bound(self.ns, fn.at_id)}(" + ", ".join(["ctx"] + codes) + ")"
        else:
            call = f"{bound(self.ns, impl)}(" + ", ".join(["ctx"] + codes) + ")"
        fused = self.joined(call, t, domain)
        if fused is not None:
            return fused
        fns = [a.fn for a in args]
        if len(fns) == 0:
            return Compiled(lambda ctx: impl(ctx), t, domain)
        if len(fns) == 1 and args[0].local is not None:  # `rank(c)`: the local read in place
            name = args[0].local
            return Compiled(lambda ctx: impl(ctx, ctx.loc[name]), t, domain)
        if len(fns) == 1:
            f0 = fns[0]
            return Compiled(lambda ctx: impl(ctx, f0(ctx)), t, domain)
        if len(fns) == 2:
            f0, f1 = fns
            return Compiled(lambda ctx: impl(ctx, f0(ctx), f1(ctx)), t, domain)
        return Compiled(lambda ctx: impl(ctx, *[f(ctx) for f in fns]), t, domain)

    def call_macro(self, node, name: str, arg_nodes: list) -> Compiled:
        macro = self.scope.macros[name]
        if name in self.macro_stack:
            self.fail(node, f"'{name}' is defined in terms of itself", "defines cannot be recursive")
        if len(arg_nodes) != len(macro.params):
            self.fail(node, f"'{name}' takes {len(macro.params)} argument(s), got {len(arg_nodes)}",
                      f"{name}({', '.join(macro.params)})")
        args = [self.expr(a) for a in arg_nodes]
        return self.shared_macro(node, macro, args)

    def mentioned(self, name: str) -> frozenset:
        """Every name a define's text mentions, following the defines it uses (which see the same locals)."""
        key = ("names", name)
        names = self.scope.shared.get(key)
        if names is None:
            found: set = set()
            todo = [name]
            while todo:
                macro = self.scope.macros[todo.pop()]
                tree = parse(macro.text, "expr", macro.source)
                for token in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME"):
                    called = word(token)
                    if called not in found and called in self.scope.macros and called != name:
                        todo.append(called)
                    found.add(called)
            names = self.scope.shared[key] = frozenset(found)
        return names

    def free(self, name: str) -> frozenset:
        """The names a define reads that its own parts do not bind (reads.free_names), worked out once."""
        key = ("free", name)
        names = self.scope.shared.get(key)
        if names is None:
            macro = self.scope.macros[name]
            tree = parse(macro.text, "expr", macro.source)
            names = self.scope.shared[key] = frozenset(free_names(tree, self.scope.macros, frozenset(macro.params)))
        return names

    def of_the_card_only(self, macro) -> bool:
        """Whether a define's value depends on its parameter and the deck alone: it reads no other name and
        calls only DECK_ONLY built-ins (and defines that do the same)."""
        key = ("deck only", macro.name)
        known = self.scope.shared.get(key)
        if known is None:
            tree = parse(macro.text, "expr", macro.source)
            known = self.scope.shared[key] = not self.free(macro.name) \
                and calls_in(tree, self.scope.macros) <= DECK_ONLY
        return known

    def inputs_of(self, macro) -> str | None:
        """For a define without arguments that reads only plain state (vars, options, sheet columns by seat, the
        dealer and the seats in play; no zone, no local of the place) and calls only built-ins of the deck and the
        seat order: Python source of a key of everything it reads (a tuple; lists as tuples), by which its values
        are remembered (dslruntime.remembered_by). None for any other define."""
        key = ("inputs", macro.name)
        if key not in self.scope.shared:
            parts = ["ctx.n"]
            for name in sorted(self.free(macro.name)):
                sym = self.scope.symbols.get(name)
                if name in GAME_CONSTANTS and sym is not None:
                    continue  # fixed for a game and a player count
                whole = self.whole_value(name, sym)
                if whole is None:
                    parts = []
                    break
                parts.append(whole)
            tree = parse(macro.text, "expr", macro.source)
            plain = bool(parts) and calls_in(tree, self.scope.macros) <= DECK_ONLY | SEAT_ORDER
            self.scope.shared[key] = "(" + ", ".join(parts) + ",)" if plain else None
        return self.scope.shared[key]

    def whole_value(self, name: str, sym: Symbol | None) -> str | None:
        """Python source of a name's whole value as a key (`ctx.vars['declarer']`, `tuple(ctx.vars['call'])` for a
        per-seat var), or None when it is not plain state: a zone, a local here, a column by pair, no source, lists
        of lists."""
        if sym is None or sym.code is None or name in self.locals or sym.zone:
            return None
        item = T.element(sym.type) if T.is_list(sym.type) and not sym.index else sym.type
        if T.is_list(item):  # a list of lists is no key
            return None
        if not sym.index:
            return f"tuple({sym.code})" if T.is_list(sym.type) else sym.code
        if sym.code.endswith("[{}]") and sym.code.count("{}") == 1:
            return f"tuple({sym.code[:-4]})"
        return None

    def shared_macro(self, node, macro, args: list) -> Compiled:
        """A define is compiled once per argument types and types of the locals of the place it is used that
        it mentions (a define sees those locals, e.g. `me`), and shared by every place that uses it alike; each
        use binds the arguments and calls it. Its parts and depth count at every use as if it were inlined, so
        the limits fail where they would. A value is remembered only where that is known to pay: a define of
        the card alone, by card (card_table); in a statement loop, what the body cannot change (Steady); in
        conditions checked at one position (Stretch). (Remembering every define's value while the game cannot
        change was measured: asked again too rarely to pay for the bookkeeping, up to 15% slower per action.)"""
        outer = tuple(sorted(n for n in self.mentioned(macro.name) if n in self.locals and n not in macro.params))
        locals_ = {n: self.locals[n] for n in outer}
        locals_.update({p: (a.type, a.domain) for p, a in zip(macro.params, args)})
        key = (macro.name, tuple(locals_.items()))
        shared = self.scope.shared.get(key)
        if shared is None:
            shared = self.scope.shared[key] = self.compile_shared(macro, locals_, self.macro_stack + (macro.name,))
        else:
            self.charge_shared(node, shared)
        body = shared.compiled
        steady = self.steady
        remembered = steady is not None and not args and not body.const and \
            not self.free(macro.name) & steady.written and not any(n in self.locals for n in self.free(macro.name))
        loops = body.code is None or HELD_LOOP in body.code  # a loop: worth remembering by its inputs
        if not args and not remembered and not body.const and loops and self.inputs_of(macro) is not None:
            inputs = self.inputs_of(macro)
            if inputs is not None:  # `defenders`: a loop over plain state, worked out again only for new inputs
                memo: dict = {}
                fn = remembered_by(body.fn, function(inputs, self.ns), memo)
                k = fresh(self.ns)  # its memo looked up in place; worked out (and remembered) by `fn` when new
                value = f"(list({k}) if type({k}) is list else {k})" if body.type in (T.ANY,) or \
                    T.is_list(body.type) else k  # a list handed out as a copy, as `fn` does
                look_up = f"({k} := {bound(self.ns, memo)}.get({inputs}, MISSING)) is not MISSING " \
                    f"else {bound(self.ns, fn)}(ctx))"
                code = f"({value} if {look_up}"
                if value != k:  # a part that only reads the list (`len`, an index, `in`, a loop) needs no copy
                    lend(self.ns, code, f"({k} if {look_up}")
                fused = self.joined(code, body.type, body.domain, requires=body.requires)
                if fused is not None:
                    fused._fn, fused.local = fn, body.local
                    return fused
                return Compiled(fn, body.type, body.domain, local=body.local, requires=body.requires)
        if not args and not remembered and body.code is not None and body.ns is self.ns:
            # a define without arguments whose body has code: that code joins the code of the place using it
            return Compiled(None, body.type, body.domain, const=body.const and not outer, local=body.local,
                            requires=body.requires, code=body.code, ns=self.ns)
        tabled = len(args) == 1 and args[0].type == T.CARD and body.type in SCALARS and not body.const \
            and self.of_the_card_only(macro)
        if args and not tabled and body.code is not None and body.ns is self.ns and \
                all(a.local == p for p, a in zip(macro.params, args)):
            # each argument is the same-named local (`is_high(c)` where c is bound): nothing to bind, the
            # body's code joins the code of the place using it
            return Compiled(None, body.type, body.domain, requires=tuple(
                r for r in body.requires if r[0] not in macro.params), code=body.code, ns=self.ns)
        if args and not tabled:
            inlined = self.inlined(macro, args, locals_)
            if inlined is not None:
                return inlined
        # an argument that is the same-named local (`is_trump(c)` where c is bound) needs no binding
        bind = [(p, a.fn) for p, a in zip(macro.params, args) if a.local != p]
        fn = define_call(tuple(p for p, _ in bind), [f for _, f in bind], body.fn)
        # what the body requires of the caller's locals (its own parameters are bound here, not required)
        requires = tuple(r for r in body.requires if r[0] not in macro.params)
        local = body.local if not args else None
        card_of = None
        if tabled:
            table = self.scope.shared.setdefault(("table", key), {})
            value_of = card_lookup(macro.params[0], body.fn, table)
            fn = card_table(args[0].fn, table, value_of)
            card_of = None if args[0].local is None else (args[0].local, table, value_of)
        if remembered:
            assert steady is not None
            inputs = self.inputs_of(macro) if loops and not body.const else None
            if inputs is not None:
                # in a stretch or a loop too: worked out again only for new inputs, as where nothing remembers it
                fn = remembered_by(fn, function(inputs, self.ns))
            fn = steady.remember(fn, key)
            code = steady.read_code(key, fn, lambda value: bound_once(self.ns, value), lambda: fresh(self.ns))
            fused = self.joined(code, body.type, body.domain, requires=requires)
            if fused is not None:
                fused.local = local
                return fused
        return Compiled(fn, body.type, body.domain, const=body.const and not args and not outer, local=local,
                        requires=requires, card_of=card_of)

    def inlined(self, macro, args: list, locals_: dict) -> Compiled | None:
        """A define's use with arguments written in place as code: its body with each parameter held in a
        Python local (dslfuse.python_local) given the argument's value first — `((_pv3s_ := arg), body)[1]` —
        or standing for the argument itself when that is a Python local or a constant. Nothing is bound in
        `ctx.loc`, so no call and no binding to restore. None when the body has no code, or a part of it that
        reads a parameter runs as a function of its own (an aggregate over it): the use then calls the define."""
        key = ("inlined", macro.name, tuple(locals_.items()))
        template = self.scope.shared.get(key, MISSING)
        if template is MISSING:
            template = self.scope.shared[key] = self.inline_template(macro, locals_)
        if template is None:
            return None
        code, held, body = template
        if len(code) > INLINE_MAX:
            return None
        values = []
        for h, a in zip(held, args):
            value = self.code(a)
            if a.code is not None and a.code.startswith("_pv") and a.code.isidentifier():
                code = code.replace(h, value)  # the argument is a Python local already
            elif a.const and type(a.fn(None)) in (int, bool, str, type(None)):
                code = code.replace(h, f"({value})")
            else:
                mine = python_local(macro.name)
                code = code.replace(h, mine)
                values.append(f"({mine} := {value})")
        if values:
            code = "(" + ", ".join(values + [code]) + f")[{len(values)}]"
        requires = tuple(r for r in body.requires if r[0] not in macro.params)
        return self.joined(code, body.type, body.domain, requires=requires)

    def inline_template(self, macro, locals_: dict) -> tuple | None:
        """(code, the Python locals standing for the parameters in it, the compiled body) of a define compiled
        for `inlined`, or None when it cannot be written in place."""
        held = [python_local(p) for p in macro.params]
        inner = dict(locals_)
        for p, h in zip(macro.params, held):
            inner[p] = locals_[p][:2] + (h,)
        counted = _Nesting.parts, _Nesting.peak
        _Nesting.parts = 0  # counted already, where the define's use was
        try:
            with holding(held):
                body = compile_tree(parse(macro.text, "expr", macro.source), self.scope, macro.source, inner,
                                    self.macro_stack + (macro.name,))  # as compile_shared: nothing remembered
        except Escape as escape:
            if escape.name not in held:
                raise
            return None
        except SpecError:
            return None
        finally:
            _Nesting.parts, _Nesting.peak = counted
        if body.code is None or body.ns is not self.ns or body.const:
            return None
        return body.code, held, body

    def compile_shared(self, macro, locals_: dict, stack: tuple) -> SharedDefine:
        parts, depth, peak = _Nesting.parts, _Nesting.depth, _Nesting.peak
        _Nesting.peak = depth
        try:
            body = compile_tree(parse(macro.text, "expr", macro.source), self.scope, macro.source, locals_, stack)
            own_depth = _Nesting.peak - depth
        finally:
            _Nesting.peak = max(peak, _Nesting.peak)
        return SharedDefine(body, _Nesting.parts - parts, own_depth)

    def charge_shared(self, node, shared: SharedDefine) -> None:
        """Count a shared define's parts and depth here, as if it were inlined."""
        _Nesting.parts += shared.parts
        if _Nesting.parts > MAX_PARTS:
            self.too_many_parts(node)
        if _Nesting.depth + shared.depth > MAX_NESTING:
            self.too_deep(node)
        _Nesting.peak = max(_Nesting.peak, _Nesting.depth + shared.depth)

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
        (charged to the loop budget first) whose variable is a Python local of its own (dslfuse.python_local),
        not a binding in `ctx.loc` made and restored at each element, and no call per element. `any`, `all`
        and `first` stop at the element that decides, as their closures do. None when a part reading the
        variable must run as a function of its own, the parts do not type-check (the closures' builder reports
        that), or the source would be too big: the caller then builds the closures (dslloops, dslruntime)."""
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
        inner = Compiler(self.scope, self.source, self.locals, self.macro_stack)
        inner.steady = self.steady  # an expression assigns nothing: the loop around it still holds
        inner.locals[var] = (T.element(coll.type), coll.domain) + ((held,) if held else ())
        body = inner.expr(body_node)
        cond = None
        if cond_node is not None:
            cond = inner.expect(cond_node, inner.expr(cond_node), T.BOOL, "the filter after 'if'")
        return coll, body, cond



def compile_holes(text: str, scope: Scope, doc, path: tuple, offset: int, locals_: dict,
                  macro_stack: tuple = ()) -> list:
    """Split text with `{expression}` holes (`{{`, `}}` for braces) into literal strings and compiled
    (closure, type) pairs; `offset` is where `text` starts in its YAML string, for located errors."""
    parts: list = []
    pos = 0
    for m in HOLE.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        pos = m.end()
        if m.group(1) is None:
            parts.append(m.group(0)[0])
            continue
        source = ShiftedSource(doc, path, offset + m.start(1))
        hole = Compiler(scope, source, locals_, macro_stack).expr(parse(m.group(1), "expr", source))
        parts.append((guarded(hole, source), hole.type))
    if pos < len(text):
        parts.append(text[pos:])
    return parts


def compile_define(name: str, scope: Scope, locals_: dict) -> Compiled:
    """Compile a define without parameters where it is declared (so its mistakes surface even if it is unused),
    seeing `locals_`; the compile is kept for the places that use it alike. A define built on itself is reported
    where it first uses itself again, as when a use of it is compiled."""
    macro = scope.macros[name]
    compiler = Compiler(scope, macro.source, locals_)
    outer = {n: t for n, t in locals_.items() if n in compiler.mentioned(name)}
    key = (name, tuple(sorted(outer.items())))
    if key not in scope.shared:
        _Nesting.parts = 0  # a top-level compile: its parts are counted from here
        scope.shared[key] = compiler.compile_shared(macro, outer, ())
    return scope.shared[key].compiled


def compile_tree(tree, scope: Scope, source: SourceRef, locals_: dict | None = None,
                 macro_stack: tuple = ()) -> Compiled:
    return Compiler(scope, source, locals_, macro_stack).expr(tree)


def guarded(fn: Fn | Compiled, source: SourceRef) -> Fn:
    """A top-level closure that reports a Python error inside it as a located SpecRuntimeError naming the
    expression (a none where a number was needed, say), and starts a fresh loop budget. Given a compiled
    expression with code (dslfuse), the guard is written into its function."""
    def error(what: str):
        return source.error(SpecRuntimeError, f"this expression failed while the game ran ({what})", 0,
                            "a value here may be none (an empty min/max/first, no such seat): test it first")
    if isinstance(fn, Compiled):
        if fn.code is not None and fn.ns is not None:
            return guarded_function(fn.code, fn.ns, error)
        fn = fn.fn
    return guard(fn, error)


def any_of(fns: list) -> Fn:
    """`a or b or c …`: one loop, stopping at the first true part."""
    def either(ctx):
        for f in fns:
            if f(ctx):
                return True
        return False
    return either


def all_of(fns: list) -> Fn:
    """`a and b and c …`: one loop, stopping at the first false part."""
    def every(ctx):
        for f in fns:
            if not f(ctx):
                return False
        return True
    return every


def raising(error: Callable[[], Exception]) -> Callable[[], NoReturn]:
    """A function raising `error()` (generated code calls it where a value may not be none)."""
    def fail() -> NoReturn:
        raise error()
    return fail


def _not_none(f: Fn, error) -> Fn:
    def index(ctx):
        v = f(ctx)
        if v is None:
            raise error()
        return v
    return index


def _as_comparable(this: Compiled, other: Compiled, op: str) -> Fn:
    """Bids compare to each other by ladder order; against a string, `==`/`!=` compare names and ordering
    looks the string up on the ladder (`contract >= '7S'`)."""
    f = this.fn
    if op in ("==", "!=") and this.type == T.BID and other.type == T.STR:
        return lambda ctx: name_of(f(ctx))
    if op not in ("==", "!=") and this.type == T.STR and other.type == T.BID:
        return lambda ctx: ctx.game.bids_by_name.get(f(ctx))
    return f


def _converted(this: Compiled, other: Compiled, op: str) -> bool:
    """Whether `this` side of a comparison is converted before comparing (see _as_comparable)."""
    return (op in ("==", "!=") and this.type == T.BID and other.type == T.STR) or \
        (op not in ("==", "!=") and this.type == T.STR and other.type == T.BID)


def _args(node) -> list:
    if node is None:
        return []
    return list(node.children) if isinstance(node, Tree) and node.data == "args" else [node]


def once(impl, fns: list) -> tuple:
    """A static built-in on constant arguments (`card("EX")`): (its cell, the closure working its value out at
    its first use and remembering it in the cell). A compiled expression belongs to one game, and the value
    depends on nothing else.

    >>> cell, value = once(lambda ctx, a: a * 2, [lambda ctx: 21])
    >>> cell[0] is MISSING, value(None), cell
    (True, 42, [42])
    """
    cell: list[Any] = [MISSING]

    def value(ctx):
        if cell[0] is MISSING:
            cell[0] = impl(ctx, *[f(ctx) for f in fns])
        return cell[0]
    return cell, value


def _offset(node) -> int:
    if isinstance(node, Token):
        return node.start_pos or 0
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    for child in getattr(node, "children", ()):
        if child is not None:
            return _offset(child)
    return 0


def _a(t: str) -> str:
    article = "an" if t[0] in "aeiou" else "a"
    return f"{article} {t}"


