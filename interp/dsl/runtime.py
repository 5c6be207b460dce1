"""What compiled DSL closures call at run time: the evaluation context, local binding for loops and defines,
comparison and arithmetic helpers, and how values are shown to people. No compiling happens here."""
from __future__ import annotations

import operator
from fractions import Fraction
from math import gcd
from typing import Any, Callable

from interp.dsl import types as T

Fn = Callable[[Any], Any]

# Run-time limits on what one evaluation of a spec's expression may do. Loops count the elements they visit
# (nested loops multiply); stored values stay small, so a loop that doubles a value is stopped early.
MAX_LOOP_STEPS = 1_000_000
MAX_LIST = 10_000
MAX_TEXT = 10_000
MAX_INT = 2 ** 53
MAX_FRACTION_BITS = 1024  # an exact fraction's denominator while a sum adds it up (a stored one: MAX_INT)
PYTHON_ERRORS = (TypeError, ValueError, AttributeError, IndexError, KeyError, ArithmeticError, RecursionError)


class LimitError(ValueError):
    """A size limit of the DSL passed at run time (a list, a number): its message says which, its hint what to
    do; the located error of the expression or phase says both as they are."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


class LoopBudget:
    """Loop steps taken in the current evaluation; every top-level expression (and every engine step) starts it
    again. One instance, BUDGET: instance slots are cheap to write in the hot path, where class attributes are not.

    A top-level expression run from inside another (a capped column's cap, a template hole) starts it again too:
    the limit bounds each evaluation's own loops, which keeps the guard to one store per call."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps = 0


BUDGET = LoopBudget()


def guard(fn: Fn, error: Callable[[Exception], Exception]) -> Fn:
    """`fn` as a top-level evaluation: a fresh loop budget, and a Python error inside it reported by `error`
    (a located error naming the expression) instead of escaping as a traceback."""
    def guarded(ctx):
        BUDGET.steps = 0
        try:
            return fn(ctx)
        except PYTHON_ERRORS as exc:
            raise error(exc) from None
    return guarded


def define_call(params: tuple, args: list, body: Fn) -> Fn:
    """The closure of a define's use: bind its parameters to the arguments' values and evaluate its shared
    body (which may read locals of the place of use, bound there)."""
    if not params:
        return body
    if len(params) == 1:
        return call1(params[0], args[0], body)
    return lambda ctx: bind_all(ctx, params, [f(ctx) for f in args], body)


class Steady:
    """What a statement loop's body may assign (`written`): a define used in the body that takes no argument,
    reads no local and mentions none of those names has the same value at every element, so it is worked out
    at its first use in the loop and remembered until the loop ends (`total[s] += shares(s) * unit` works
    `unit` out once, not once per seat). The loop forgets the values when it starts and when it ends."""

    __slots__ = ("written", "cells")

    def __init__(self, written: frozenset) -> None:
        self.written = written
        self.cells: dict = {}  # the define (as compiled) -> its cell: the places that use it share one value

    def cell(self, key, empty) -> list:
        cell = self.cells.get(key)
        if cell is None:
            cell = self.cells[key] = empty
        return cell

    def remember(self, fn: Fn, key) -> Fn:
        """`fn` (the use of the define compiled as `key`) remembering its value in the define's cell."""
        cell = self.cell(key, [MISSING])

        def remembered(ctx):
            value = cell[0]
            if value is MISSING:
                value = cell[0] = fn(ctx)
            return value
        return remembered

    def read_code(self, key, remembered: Fn, bind: Callable[[Any], str], fresh: Callable[[], str]) -> str:
        """Python source reading the value `remember` keeps for the define compiled as `key` in place, calling
        its closure `remembered` only to work it out. `bind(value)` names a value in the source's namespace,
        `fresh()` gives an unused name (fuse.bound and fresh)."""
        value = fresh()
        return f"({value} if ({value} := {bind(self.cells[key])}[0]) is not MISSING else {bind(remembered)}(ctx))"

    def loop(self, run: Fn) -> Fn:
        """`run` (the loop) forgetting the remembered values before and after it."""
        cells = list(self.cells.values())
        if not cells:
            return run

        def steady_loop(ctx):
            for cell in cells:
                cell[0] = MISSING
            try:
                return run(ctx)
            finally:
                for cell in cells:
                    cell[0] = MISSING
        return steady_loop


def forget(cells: list) -> None:
    """Empty a Steady's cells (what `Steady.loop` does around a loop, for a loop written as Python source)."""
    for cell in cells:
        cell[0] = MISSING


class Stretch(Steady):
    """The phases' `when` conditions, checked one after another while the engine skips phases: nothing changes
    the game between two checks, so a define they use without arguments is worked out once per stretch of
    checks. The engine `open`s a stretch before the first check and `close`s it before a phase starts (and
    when it stops); outside an open stretch nothing is remembered, so a condition evaluated anywhere else is
    worked out as usual."""

    __slots__ = ("token",)

    def __init__(self) -> None:
        super().__init__(frozenset())
        self.token: object | None = None

    def open(self) -> None:
        if self.token is None:
            self.token = object()

    def close(self) -> None:
        self.token = None

    def read_code(self, key, remembered: Fn, bind: Callable[[Any], str], fresh: Callable[[], str]) -> str:
        # the value worked out in this stretch while one is open (an open stretch's token is never None);
        # `bind(self)` gives the same name at each use (fuse.bound_once)
        cell = bind(self.cells[key])
        return f"({cell}[1] if {cell}[0] is {bind(self)}.token is not None else {bind(remembered)}(ctx))"

    def remember(self, fn: Fn, key) -> Fn:
        stretch = self
        cell = self.cell(key, [None, None])  # the stretch it was worked out in, the value

        def remembered(ctx):
            token = stretch.token
            if token is None:
                return fn(ctx)
            if cell[0] is token:
                return cell[1]
            value = fn(ctx)
            cell[0], cell[1] = token, value
            return value
        return remembered


REMEMBERED = 1024  # inputs whose values a define remembers (then it starts again)


def remembered_by(fn: Fn, inputs: Fn, memo: dict | None = None) -> Fn:
    """`fn` (a define's body without arguments) remembering its value by `inputs(ctx)`, a key of everything it
    reads (calls.CallCompiler.inputs_of): `defenders` is worked out once per declarer and seats in play, not at
    every use. A list value is handed out as a copy, so no use can change the one remembered. `memo`: the dict
    the values are kept in (joined code looks it up in place), a new one if not given."""
    memo = {} if memo is None else memo

    def remembered(ctx):
        key = inputs(ctx)
        value = memo.get(key, MISSING)
        if value is MISSING:
            if len(memo) >= REMEMBERED:
                memo.clear()
            value = memo[key] = fn(ctx)
        return list(value) if type(value) is list else value
    return remembered


def card_lookup(param: str, body: Fn, table: dict) -> Callable[[Any, Any], Any]:
    """(ctx, card) -> the value of a define of one card whose value depends on the card alone (`is_trump(c)`:
    the deck's facts about it, constants): worked out once per card, then looked up in `table` (shared by every
    place that uses the define alike)."""
    def value_of(ctx, card):
        value = table.get(card, MISSING)
        if value is MISSING:
            loc = ctx.loc
            saved = loc.get(param, MISSING)
            loc[param] = card
            try:
                value = body(ctx)
            finally:
                _restore(loc, param, saved)
            table[card] = value
        return value
    return value_of


def card_table(arg: Fn, table: dict, value_of: Callable[[Any, Any], Any]) -> Fn:
    """The use of a card-tabled define (card_lookup) on the card `arg` gives."""
    def tabled(ctx):
        card = arg(ctx)
        value = table.get(card, MISSING)
        return value_of(ctx, card) if value is MISSING else value
    return tabled


def card_filter(coll: Fn, table: dict, value_of: Callable[[Any, Any], Any], over: Callable[[], Exception]) -> Fn:
    """`[c for c in coll if f(c)]` for a card-tabled define `f` (card_lookup): its table looked up in place for
    each element, without binding `c` (the define reads nothing but its card). The elements count against the
    loop budget as in any loop."""
    def kept(ctx):
        out = []
        for card in charge(coll(ctx), over):
            value = table.get(card, MISSING)
            if value is MISSING:
                value = value_of(ctx, card)
            if value:
                out.append(card)
        return out
    return kept


def exact_sum(values: list):
    """`sum(values)` for whole numbers and fractions, with the fractions added over a common denominator (one
    Fraction made at the end, not one per element): the same value and type as `sum` (a Fraction when any
    element is one). Any other element (a float) leaves the work to `sum`. Big-number work is bounded: each
    addition to a common denominator is charged to the loop budget by its cost (the square of its 64-bit words),
    and a denominator past MAX_FRACTION_BITS is refused (LimitError).

    >>> exact_sum([1, Fraction(1, 2), 2, Fraction(3, 2)]), exact_sum([1, 2]), exact_sum([])
    (Fraction(5, 1), 3, 0)
    """
    whole = num = 0
    den = 1
    fractions = False
    for v in values:
        t = type(v)
        if t is int:
            whole += v
        elif t is Fraction:
            fractions = True
            n, d = v.numerator, v.denominator
            if d == den:
                num += n
            elif den % d == 0:
                num += n * (den // d)
            else:
                common = den // gcd(den, d) * d
                num, den = num * (common // den) + n * (common // d), common
                words = den.bit_length() >> 6  # big-number work is loop work: it grows as the square of the size
                BUDGET.steps += words * words
                if den.bit_length() > MAX_FRACTION_BITS:
                    raise LimitError(f"this sum's exact fractions need a denominator of more than "
                                     f"{MAX_FRACTION_BITS * 3 // 10:,} digits",
                                     "add fewer different fractions, or round them first (round, trunc)")
        else:
            return sum(values)
    return Fraction(num, den) + whole if fractions else whole


def too_big(value) -> bool:
    """Whether a value passes the size a stored value may have (MAX_LIST, MAX_TEXT, MAX_INT)."""
    t = type(value)
    if t is int:
        return not -MAX_INT < value < MAX_INT
    if t is list:
        return len(value) > MAX_LIST or (bool(value) and type(value[0]) is list and
                                         sum(map(len, value)) > MAX_LIST)  # a list of lists: all its items
    if t is str:
        return len(value) > MAX_TEXT
    if t is Fraction:
        return not -MAX_INT < value < MAX_INT or value.denominator > MAX_INT
    return False


def size_checked(fv: Fn, error: Callable[[], Exception]) -> Fn:
    """`fv` whose value is refused (by `error`) when it is too big to store, and a list stored as a copy."""
    def checked(ctx):
        value = fv(ctx)
        if too_big(value):
            raise error()
        return kept(value) if type(value) is list else value
    return checked


def kept(value: list) -> list:
    """A list as it is stored (in a var or a local): a copy, its lists copied too, so that cards moved out of a
    zone later do not change a value taken from it.

    >>> zone = [3, 4]; melds = kept([zone, [5]]); zone.clear(); melds
    [[3, 4], [5]]
    """
    return [list(v) if type(v) is list else v for v in value]


class Context:
    """A bare evaluation context: `loc` holds bound local names. Game states are contexts too."""

    def __init__(self) -> None:
        self.loc: dict = {}


def display(ctx, value, t: str, pretty: bool = True) -> str:
    """A DSL value of type `t` as text for people: cards with suit symbols (codes when not `pretty`), seats by
    name, lists space-separated (a list of lists: its lists separated by commas), exact numbers plainly, yes/no;
    nothing for none."""
    game = getattr(ctx, "game", None)
    if value is None:
        return ""
    if T.is_list(t):
        inner = T.element(t)
        return (", " if T.is_list(inner) else " ").join(display(ctx, v, inner, pretty) for v in value)
    if game is None:
        return str(value)
    if t == T.CARD:
        return game.deck.pretty(value) if pretty else game.deck.code(value)
    if t == T.SEAT:
        return game.seat_name(value, ctx.n)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"
    return game.value_text(value, ctx, pretty)


MISSING = object()


def call1(param: str, arg: Fn, body: Fn) -> Fn:
    """A one-parameter define: bind, evaluate, restore (the common case, kept lean)."""
    def call(ctx):
        loc = ctx.loc
        old = loc.get(param, MISSING)
        loc[param] = arg(ctx)
        result = body(ctx)
        if old is MISSING:
            del loc[param]
        else:
            loc[param] = old
        return result
    return call


def bind_all(ctx, params: tuple, values, body: Fn):
    """Evaluate `body` with `params` bound to `values`, restoring what the names held before."""
    loc = ctx.loc
    saved = [loc.get(p, MISSING) for p in params]
    for p, v in zip(params, values):
        loc[p] = v
    try:
        return body(ctx)
    finally:
        for p, old in zip(params, saved):
            if old is MISSING:
                del loc[p]
            else:
                loc[p] = old


def comparison(op: str, fl: Fn, fr: Fn, right_const: bool, left_local: str | None = None) -> Fn:
    """A comparison closure; against a constant the constant is captured once, and a local on the left
    (`left_local`: `fl` reads it) is read in place (one call fewer: `c == x` in a loop over c)."""
    if right_const and left_local is not None:
        return local_comparison(op, left_local, fr(None))
    if right_const:
        v = fr(None)
        if op == "==":
            return lambda ctx: fl(ctx) == v
        if op == "!=":
            return lambda ctx: fl(ctx) != v
        if op == "<":
            return lambda ctx: fl(ctx) < v
        if op == "<=":
            return lambda ctx: fl(ctx) <= v
        if op == ">":
            return lambda ctx: fl(ctx) > v
        return lambda ctx: fl(ctx) >= v
    if op == "==":
        return lambda ctx: fl(ctx) == fr(ctx)
    if op == "!=":
        return lambda ctx: fl(ctx) != fr(ctx)
    compare = COMPARE[op]
    return lambda ctx: compare(fl(ctx), fr(ctx))


def local_comparison(op: str, name: str, v) -> Fn:
    """`name op v` for a local `name` and a constant `v`."""
    if op == "==":
        return lambda ctx: ctx.loc[name] == v
    if op == "!=":
        return lambda ctx: ctx.loc[name] != v
    compare = COMPARE[op]
    return lambda ctx: compare(ctx.loc[name], v)


def charge(values, over: Callable[[], Exception]):
    """Count a loop's elements against the evaluation's loop budget (`over()`: the error once it is spent)."""
    BUDGET.steps += len(values)
    if BUDGET.steps > MAX_LOOP_STEPS:
        raise over()
    return values


def looper(var: str, coll: Fn, cond: Fn | None, over: Callable[[], Exception]):
    """A runner binding `var` to each element that passes `cond`, giving the list of body(ctx); the elements
    count against the loop budget (`over()` is the error when it is spent). One loop in one frame: no generator
    resumed per element."""
    def run(ctx, body):
        values = charge(coll(ctx), over)
        loc = ctx.loc
        saved = loc.get(var, MISSING)
        out = []
        try:
            if cond is None:
                for v in values:
                    loc[var] = v
                    out.append(body(ctx))
            else:
                for v in values:
                    loc[var] = v
                    if cond(ctx):
                        out.append(body(ctx))
        finally:
            _restore(loc, var, saved)
        return out
    return run


def filterer(var: str, coll: Fn, cond: Fn, over: Callable[[], Exception]) -> Fn:
    """`[v for v in coll if cond]`: the elements themselves where `cond` holds with `var` bound to each (a
    looper whose body is the element, without a call per element to read it back)."""
    def kept(ctx):
        values = charge(coll(ctx), over)
        loc = ctx.loc
        saved = loc.get(var, MISSING)
        out = []
        try:
            for v in values:
                loc[var] = v
                if cond(ctx):
                    out.append(v)
        finally:
            _restore(loc, var, saved)
        return out
    return kept


def searcher(var: str, coll: Fn, cond: Fn | None, over: Callable[[], Exception], body: Fn, until: bool | None):
    """A loop that stops at the first element (passing `cond`) whose body gives `until` (True for any, False for
    all) and returns it, or returns `not until` at the end; with `until` None (first), the first body value, or
    none. Elements after the one that decides are never evaluated."""
    def search(ctx):
        values = charge(coll(ctx), over)
        loc = ctx.loc
        saved = loc.get(var, MISSING)
        try:
            for v in values:
                loc[var] = v
                if cond is None or cond(ctx):
                    result = body(ctx)
                    if until is None:
                        return result
                    if bool(result) is until:
                        return until
        finally:
            _restore(loc, var, saved)
        return None if until is None else not until
    return search


def _restore(loc: dict, var: str, saved) -> None:
    if saved is MISSING:
        loc.pop(var, None)
    else:
        loc[var] = saved


def setter(sym, op: str, idx: list, fv: Fn, big: Callable[[], Exception]) -> Fn:
    """The closure of an assignment to a symbol (`=`, `+=`, `-=`), with its index closures; a `+=`/`-=` whose
    result grows too big raises `big()` (for `=`, `fv` checks its own value)."""
    get, put = sym.get, sym.set
    if op == "=":
        if not idx:
            return lambda ctx: put(ctx, fv(ctx))
        if len(idx) == 1:
            i0 = idx[0]
            return lambda ctx: put(ctx, fv(ctx), i0(ctx))
        i0, i1 = idx
        return lambda ctx: put(ctx, fv(ctx), i0(ctx), i1(ctx))
    sign = 1 if op == "+=" else -1
    # One closure per number of indexes: a `+=` runs at every trick, and a list of keys unpacked into the getter
    # and the setter costs as much as the rest of it.
    if not idx:  # `attack_tricks += 1`
        def add0(ctx):
            delta = fv(ctx)
            if delta:
                value = get(ctx) + sign * delta
                if type(value) is not int or not -MAX_INT < value < MAX_INT:
                    refuse_big(value, big)
                put(ctx, value)
        return add0
    if len(idx) == 1:  # `tricks[winner] += 1`
        i0 = idx[0]

        def add1(ctx):
            key = i0(ctx)
            delta = fv(ctx)
            if delta:
                value = get(ctx, key) + sign * delta
                if type(value) is not int or not -MAX_INT < value < MAX_INT:
                    refuse_big(value, big)
                put(ctx, value, key)
        return add1
    i0, i1 = idx  # `whists[s, declarer] += …`

    def add2(ctx):
        k0, k1 = i0(ctx), i1(ctx)
        delta = fv(ctx)
        if delta:
            value = get(ctx, k0, k1) + sign * delta
            if type(value) is not int or not -MAX_INT < value < MAX_INT:
                refuse_big(value, big)
            put(ctx, value, k0, k1)
    return add2


def refuse_big(value, big: Callable[[], Exception]) -> None:
    """Raise `big()` when a value (not a small int: those are checked in place) is too big to store."""
    if too_big(value):
        raise big()


# -- small runtime helpers --------------------------------------------------------------------------------------
QUOTIENTS_MEMO = 1024  # fractions of two whole numbers `divide` remembers (then it starts again)
_quotients: dict = {}  # (a, b) -> Fraction(a, b): a fraction never changes, so one is shared by every use


def divide(a, b):
    """Exact division: a whole number when it divides, else a fraction; 0 for a division by zero. The fraction
    of two whole numbers is made once (`_quotients`): a define such as `floor(51 / n)` asked at every bid
    builds no Fraction.

    >>> divide(51, 4), divide(51, 4) is divide(51, 4), divide(12, 4), divide(1, 0)
    (Fraction(51, 4), True, 3, 0)
    """
    if b == 0:
        return 0
    if type(a) is int and type(b) is int:
        q, r = divmod(a, b)
        if r == 0:
            return q
        known = _quotients.get((a, b))
        if known is None:
            if len(_quotients) >= QUOTIENTS_MEMO:
                _quotients.clear()
            known = _quotients[(a, b)] = Fraction(a, b)
        return known
    q = Fraction(a) / Fraction(b)
    return int(q) if q.denominator == 1 else q


def field_value(record, name: str):
    return None if record is None else record.fields[name]


def item_at(seq, i: int):
    return seq[i] if -len(seq) <= i < len(seq) else None


def name_of(bid):
    return None if bid is None else bid.name


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}
def floordiv(a, b):
    return 0 if b == 0 else a // b


def modulo(a, b):
    return 0 if b == 0 else a % b


# Division by zero gives 0 (a spec's arithmetic never raises at play time).
ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": floordiv, "%": modulo}
