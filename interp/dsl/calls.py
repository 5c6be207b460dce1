"""The expression compiler's names and calls: a name in scope (a local, a symbol, a define or a built-in without
arguments), a built-in function's call (type-checked, a static one on constant arguments worked out once), and a
define's use: written in place when short, else compiled once and shared (tabled by card, remembered by its
inputs) where its value allows."""
from __future__ import annotations

import difflib
import re
from typing import Any

from interp.dsl import types as T
from interp.dsl.fuse import (
    Escape,
    borrowed,
    bound,
    bound_once,
    fresh,
    function,
    holding,
    lend,
    python_local,
    zone_id_code,
)
from interp.dsl.limits import MAX_NESTING, MAX_PARTS, _Nesting
from interp.dsl.loops import HELD_LOOP
from interp.dsl.nodes import is_name
from interp.dsl.parse import parse, word
from interp.dsl.reads import GAME_CONSTANTS, calls_in, free_names
from interp.dsl.runtime import MISSING, card_lookup, card_table, define_call, remembered_by
from interp.dsl.scope import Compiled, SharedDefine, Symbol
from interp.dsl.walk import TreeCompiler, _args
from interp.errors import SpecError

# Built-ins whose value depends on the deck and their arguments only (a define of a card that calls nothing
# else and reads no name but its parameter is tabled by card: runtime.card_table).
DECK_ONLY = frozenset({"suit", "rank", "rank_name", "points", "card", "len", "abs", "min", "max", "floor", "ceil",
                       "trunc", "round", "sum", "count", "any", "all", "first", "max_by", "min_by"})
SCALARS = frozenset({T.BOOL, T.INT, T.NUM, T.STR})
# Built-ins whose value depends on their arguments and the player count only.
SEAT_ORDER = frozenset({"order_from", "others", "left"})
LOCAL_READ = re.compile(r"ctx\.loc\['[A-Za-z_][A-Za-z0-9_]*'\]")  # the code of a DSL local's read (e_name)
# the code table_read writes, the card's code its group 1
TABLE_READ = re.compile(r"\((?:None|-?\d+) if (\S+) is None else ctx\.game\.deck\.\w+\[\1\]\)")
INLINE_MAX = 240  # characters of a define's code written in place at each use (a longer one is called: the load)


def is_read(code: str) -> bool:
    """Whether `code` only reads a value that is there already (a Python local, or a DSL local in `ctx.loc`): it
    may be read twice at no cost and with no effect.

    >>> is_read("_pv3card_"), is_read("ctx.loc['c']"), is_read("_5(ctx)")
    (True, True, False)
    """
    return code.isidentifier() or LOCAL_READ.fullmatch(code) is not None


def inline_size(code: str) -> int:
    """The size of a define's `code` against INLINE_MAX: its characters, a table read (`table_read`) counted as the
    call of the built-in it stands for (`_5(ctx, c)`, as long as it was written before).

    >>> inline_size(table_read(("suit_of", None), "_pv3c_") + " == 'H'")
    22
    """
    return len(TABLE_READ.sub(lambda m: f"_0(ctx, {m.group(1)})", code))


def table_read(table: tuple, card: str) -> str:
    """The code reading the deck's per-card `table` (its name, its value for none) at the card `card` reads
    (`is_read`), as the built-in that reads it does.

    >>> table_read(("rank_of", -1), "_pv3c_")
    '(-1 if _pv3c_ is None else ctx.game.deck.rank_of[_pv3c_])'
    """
    name, empty = table
    return f"({empty!r} if {card} is None else ctx.game.deck.{name}[{card}])"


class CallCompiler(TreeCompiler):
    """Names, built-in calls and defines (see the module)."""

    def e_name(self, node) -> Compiled:
        name = word(node.children[0])
        if name in self.locals:
            t, domain, *held = self.locals[name]
            if held:  # held in a Python local of the function being written (fuse.python_local)
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


    # -- calls and defines ------------------------------------------------------------------------------------
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
        if fn.names is not None:
            self.check_names(arg_nodes[0], args[0], fn.names)
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
        elif fn.table is not None and is_read(codes[0]):
            call = table_read(fn.table, codes[0])
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

    def check_names(self, node, arg: Compiled, kind: str) -> None:
        """A string argument that must name a `kind` (a card code): refused at compile time when it is a literal,
        or a name with declared values, that names none (letter case aside), with the nearest names as a hint."""
        names = self.scope.domains.get(kind)
        if names is None or arg.type != T.STR:
            return
        given = [arg.fn(None)] if arg.const else sorted(arg.domain or ())
        for text in given:
            if isinstance(text, str) and text.upper() not in names:
                close = closest(text, names)
                self.fail(node, f"no {kind} {text!r} in the deck" if kind == T.CARD else f"no {kind} {text!r}",
                          ("did you mean " + " or ".join(close) + "?") if close else
                          "codes are a rank and a suit code: " + ", ".join(sorted(names)[:8]) + " …")

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
                for token in tree.scan_values(is_name):
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
        are remembered (runtime.remembered_by). None for any other define."""
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
        requires = tuple(r for r in body.requires if r[0] not in macro.params)
        if tabled and not remembered and args[0].code is not None and args[0].ns is self.ns:
            looked_up = self.tabled_in_place(key, macro, body, args[0], requires)
            if looked_up is not None:
                return looked_up
        # an argument that is the same-named local (`is_trump(c)` where c is bound) needs no binding
        bind = [(p, a.fn) for p, a in zip(macro.params, args) if a.local != p]
        fn = define_call(tuple(p for p, _ in bind), [f for _, f in bind], body.fn)
        # (`requires`: what the body requires of the caller's locals; its own parameters are bound here)
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

    def tabled_in_place(self, key: tuple, macro, body, arg: Compiled, requires: tuple) -> Compiled | None:
        """The use of a card-tabled define (runtime.card_lookup) on a card whose value has code, as code: the
        table looked up in place, the value worked out by the define only for a card not in it yet —
        `(_k7 if (_k7 := table.get(card, MISSING)) is not MISSING else value_of(ctx, card))`, the card named
        first when it is more than a name. No call per use, and a loop variable held in a Python local stays
        there (a closure would need it in `ctx.loc`). None when the source would be too big."""
        table = self.scope.shared.setdefault(("table", key), {})
        value_of = self.scope.shared.setdefault(("table lookup", key), card_lookup(macro.params[0], body.fn, table))
        card = self.code(arg)
        named = ""
        if not card.isidentifier():  # worked out once: named in a Python local of its own
            name = fresh(self.ns)
            named, card = f"({name} := {card}), ", name
        k = fresh(self.ns)
        code = f"({named}({k} if ({k} := {bound_once(self.ns, table)}.get({card}, MISSING)) is not MISSING " \
            f"else {bound_once(self.ns, value_of)}(ctx, {card})))"
        if named:
            code = f"({code}[1])"
        fused = self.joined(code, body.type, body.domain, requires=requires)
        if fused is not None and arg.local is not None:
            fused.card_of = (arg.local, table, value_of)
        return fused

    def inlined(self, macro, args: list, locals_: dict) -> Compiled | None:
        """A define's use with arguments written in place as code: its body with each parameter held in a
        Python local (fuse.python_local) given the argument's value first — `((_pv3s_ := arg), body)[1]` —
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
        if inline_size(code) > INLINE_MAX:
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
                body = self.compiler(macro.source, inner, self.macro_stack + (macro.name,)).expr(
                    parse(macro.text, "expr", macro.source))  # as compile_shared: nothing remembered
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
            body = self.compiler(macro.source, locals_, stack).expr(parse(macro.text, "expr", macro.source))
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



def closest(text: str, names) -> list:
    """Up to three of `names` nearest to a misspelt code: the same characters in another order first (`DJ` for
    `JD`), then the most alike (letter case aside).

    >>> closest("dj", ["JD", "JS", "QD", "9D"])
    ['JD', 'QD', 'JS']
    """
    upper = text.upper()
    swapped = [n for n in sorted(names) if sorted(n.upper()) == sorted(upper)]
    alike = difflib.get_close_matches(upper, sorted(names), n=3, cutoff=0.5)
    return (swapped + [n for n in alike if n not in swapped])[:3]


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
