"""The expression compiler's literals, operators and postfix forms: numbers, booleans, none and lists; `or`,
`and`, `not`, `if … then … else`, comparisons, `in`, arithmetic; a record's field and an index. Each joins its
parts' code into one expression (fuse) where it fits, else combines their closures."""
from __future__ import annotations

import difflib
from fractions import Fraction
from typing import Callable, NoReturn

from interp.dsl import types as T
from interp.dsl.fuse import borrowed, bound, fresh
from interp.dsl.limits import MAX_DIGITS
from interp.dsl.nodes import Tree
from interp.dsl.parse import word
from interp.dsl.runtime import ARITH, MAX_LIST, comparison, divide, field_value, item_at, name_of
from interp.dsl.scope import Compiled, Fn, Symbol
from interp.dsl.walk import TreeCompiler, _a, _args
from interp.errors import DSLSyntaxError

# Arithmetic on numbers as Python source (fuse): the operators, and the helpers that make a division by zero 0.
NUMBER_OPS = {op: ARITH[op] for op in ("+", "-", "*", "//", "%")} | {"/": divide}
NUMBER_CODE = {"+": "({} + {})", "-": "({} - {})", "*": "({} * {})", "//": "floordiv({}, {})", "%": "modulo({}, {})",
               "/": "divide({}, {})"}


class OperatorCompiler(TreeCompiler):
    """Literals, operators, fields and indexes (see the module)."""

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


    def e_true(self, node) -> Compiled:
        return Compiled(lambda ctx: True, T.BOOL, const=True)

    def e_false(self, node) -> Compiled:
        return Compiled(lambda ctx: False, T.BOOL, const=True)

    def e_none(self, node) -> Compiled:
        return Compiled(lambda ctx: None, T.NONE, const=True)


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
