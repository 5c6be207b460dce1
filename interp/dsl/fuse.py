"""Python source for DSL expressions and statements: the compile stage that joins a spec's parts into one function.

Each part of an expression compiles to a closure; `a == 1 and b != c` would be five closures calling each other at
every evaluation. Parts that can say what they compute as Python source (`Compiled.code`: names, constants,
operators, comparisons, conditionals, built-in calls) are joined into their parent's source instead, and the
whole runs as one function made by `eval` when it is first needed (compiled at its first call: `deferred`). A part
that cannot (a loop, a define's use, a string with holes) takes part through its closure, bound to a name in the
namespace. Statements are written as lines the same way (stmts, texts: stores, `if`, `for`, `let`, effect calls; a
YAML list of statements is one function whose items keep their own guards), `exec`'d as a `def` at their first
call. Spec text reaches the source only through `repr`. The namespace belongs to one compile scope (a game), so a
game's functions never see another's names.

>>> ns = namespace({})
>>> f = function("(ctx.loc['x'] + " + bound(ns, lambda ctx: 2) + "(ctx)) * 3", ns)
>>> class Ctx: loc = {"x": 5}
>>> f(Ctx())
21
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from types import FunctionType
from typing import TYPE_CHECKING, Any, Callable, Iterator

from interp.dsl.cache import compiled, keeping
from interp.dsl.runtime import (
    BUDGET,
    MISSING,
    PYTHON_ERRORS,
    charge,
    divide,
    exact_sum,
    field_value,
    floordiv,
    forget,
    item_at,
    kept,
    modulo,
    refuse_big,
    too_big,
)

if TYPE_CHECKING:
    from interp.dsl.scope import Compiled

NAMESPACE = "python namespace"  # its key in a scope's `shared` dict
MADE = "__made__"  # its key in a namespace: the functions made there, by source text
BLOCKS = "__blocks__"  # its key in a namespace: a statement block's call (`_k7(ctx)`) -> the block's lines
ONCE = "__once__"  # its key in a namespace: id of an object bound once (bound_once) -> its name
LENT = "__lent__"  # its key in a namespace: source handing out a copy of a remembered list -> source lending it
SEARCH_PARTS = "__search_parts__"  # its key in a namespace: an any/all aggregate's source -> its parts (search)
SEARCHES = "__searches__"  # its key in a namespace: an any/all aggregate's source -> its lines as a loop (search)
MAX_CODE = 4000  # characters of source one function may have; a longer expression keeps its parts' closures
MAX_DEPTH = 60  # brackets open at once (Python's parser allows 200)
MAX_INDENT = 12  # levels of indentation in one function (Python allows 20 nested blocks: try, for); see `indented`
FORGET_IN_PLACE = 16  # a Steady's cells emptied by one chained assignment, up to this many (more: a `forget` call)
_NOT_BRACKETS = re.compile(r"[^()\[\]]+")
LITERALS = (int, bool, str, type(None))  # values written as themselves in source (repr gives them back)
HELPERS = {"item_at": item_at, "field_value": field_value, "divide": divide, "floordiv": floordiv,
           "modulo": modulo, "BUDGET": BUDGET, "PYTHON_ERRORS": PYTHON_ERRORS, "too_big": too_big, "kept": kept,
           "refuse_big": refuse_big, "type": type, "int": int, "tuple": tuple, "list": list,
           "charge": charge, "forget": forget, "MISSING": MISSING, "len": len, "abs": abs, "min": min, "max": max,
           "any": any, "all": all, "next": next, "exact_sum": exact_sum}


# Python locals standing for DSL locals (a `for` statement's variable, a define's parameter) in the function
# being written: their names, while the code that binds them is being compiled (see `python_local`), outermost
# first (a dict: in the order they were bound).
ACTIVE: dict = {}
_PY_LOCALS = [0]  # how many were named so far


class Escape(Exception):
    """Compiling met a part that must run as a function of its own (a closure, a separate block) and reads the
    DSL local held in the Python local `name`: that local cannot stand for it, and the caller compiles again
    with the DSL local in `ctx.loc`."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def python_local(dsl_name: str) -> str:
    """A new Python local's name standing for a DSL local (`_pv7s_` for `s`): no other code contains it.

    >>> python_local("s").startswith("_pv") and python_local("s").endswith("s_")
    True
    """
    _PY_LOCALS[0] += 1
    return f"_pv{_PY_LOCALS[0]}{dsl_name}_"


@contextmanager
def holding(names: list[str]) -> Iterator[None]:
    """While compiling the code that binds Python locals `names`: a function made of code reading one of them
    (which could not see it) raises Escape instead."""
    ACTIVE.update(dict.fromkeys(names))
    try:
        yield
    finally:
        for name in names:
            del ACTIVE[name]


def check_escape(text: str) -> None:
    """Raise Escape when `text`, to become a function of its own, reads a Python local being bound: the
    outermost such local, so that each loop that must keep its variable by name is compiled again once, not
    once per loop inside it that must too."""
    for name in ACTIVE:
        if name in text:
            raise Escape(name)


def namespace(shared: dict) -> dict:
    """The namespace of a compile scope's functions (kept in its `shared` dict), with the run-time helpers."""
    ns = shared.get(NAMESPACE)
    if ns is None:
        ns = shared[NAMESPACE] = {"__builtins__": {}, **HELPERS}
    return ns


def bound(ns: dict, value: Any) -> str:
    """A new name in `ns` for `value` (a closure, a constant, an error to raise)."""
    name = f"_{len(ns)}"
    ns[name] = value
    return name


def bound_once(ns: dict, value: Any) -> str:
    """The name in `ns` of an object every function there may share (a Stretch): bound at its first use."""
    names = ns.setdefault(ONCE, {})
    name = names.get(id(value))
    if name is None or ns[name] is not value:
        name = names[id(value)] = bound(ns, value)
    return name


def fresh(ns: dict) -> str:
    """A name no other code in `ns` uses, for a value the code itself assigns (`(_k7 := …)`)."""
    return "_k" + bound(ns, None)


def code_of(part: "Compiled", ns: dict) -> str:
    """Python source for a compiled part: its own code, a constant written out, or a call of its closure."""
    if part.code is not None and part.ns is ns:
        return part.code
    if part.const:
        value = part.fn(None)
        if type(value) in LITERALS:
            return repr(value)
        return bound(ns, value)
    return bound(ns, part.fn) + "(ctx)"


def zone_id_code(code: str) -> str | None:
    """The id's source in a zone's source `ctx.zones[<id>]`, or None for any other source.

    >>> zone_id_code("ctx.zones[ctx.zone_ids['hand'][ctx.vars['declarer']]]")
    "ctx.zone_ids['hand'][ctx.vars['declarer']]"
    >>> zone_id_code("ctx.zones[0] + ctx.zones[1]") is None
    True
    """
    head = "ctx.zones["
    if not code.startswith(head) or not code.endswith("]"):
        return None
    depth = 0
    for i in range(len(head) - 1, len(code)):
        ch = code[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                return code[len(head):-1] if i == len(code) - 1 else None
    return None


def fits(code: str) -> bool:
    """Whether source is small and shallow enough to be one function (else the caller keeps closures).

    >>> fits("f(x[1], (y))"), fits("(" * 61 + ")" * 61), fits("()" * 61), fits("x" * (MAX_CODE + 1))
    (True, False, True, False)
    """
    if len(code) > MAX_CODE:
        return False
    if code.count("(") + code.count("[") <= MAX_DEPTH:  # no more open at once than there are (counted in C)
        return True
    depth = peak = 0
    for ch in _NOT_BRACKETS.sub("", code):
        if ch in "([":
            depth += 1
            peak = max(peak, depth)
        elif ch in ")]":
            depth -= 1
    return peak <= MAX_DEPTH


def guarded_function(code: str, ns: dict, error: Callable[[Exception], Exception]) -> Callable[[Any], Any]:
    """`code` as a top-level function: a fresh loop budget, and a Python error inside it reported by `error` (a
    located error naming the expression) — runtime.guard written into the function, not a frame around it.
    The call of a statement block (`block`) has the block's lines written in, and is made at its first call: a
    block is mostly written into the function of a list of statements (guarded_lines), not called on its own."""
    check_escape(code)
    fail = bound(ns, error)
    block_lines = ns.get(BLOCKS, {}).get(code)
    if block_lines is None:
        body = ns.get(SEARCHES, {}).get(code) or [f"return {code}"]  # an any/all on its own: a loop, no generator
        made: Any = statements_function(guard(fail, body, ns), ns)
        made.guarded = (ns, fail, code, None)
        return made
    name = block(guard(fail, block_lines, ns), ns)[:-len("(ctx)")]

    def made_later(ctx):
        return ns[name](ctx)
    made_later.guarded = (ns, fail, None, block_lines)  # type: ignore[attr-defined]
    return made_later


def guard(fail: str, lines: list[str], ns: dict) -> list[str]:
    """`lines` with a fresh loop budget, a Python error inside them raised as the located error `fail(exc)`. Lines
    that can run no loop have no budget to refresh: no part of them is charged (`charge`, `BUDGET`), and they
    call nothing that could be (every closure, define, built-in or block of the DSL is called with `ctx` as its
    first argument; what they call without it raises an error, checks a size, or is Python's own `len`, `max` …)."""
    fresh_budget = ["BUDGET.steps = 0"] if may_loop(lines) else []
    return fresh_budget + ["try:"] + indented(lines, ns) + \
        ["except PYTHON_ERRORS as exc:", f"    raise {fail}(exc) from None"]


def may_loop(lines: list[str]) -> bool:
    """Whether lines of generated code may charge the loop budget (see `guard`); text inside a string literal
    counts too (erring on the side of a fresh budget).

    >>> may_loop(["v1 = (ctx.vars['tricks'][k1] + 1)"]), may_loop(["x = _7(ctx, 2)"]), may_loop(["y = charge(b, _3)"])
    (False, True, True)
    """
    return any("(ctx)" in line or "(ctx," in line or "charge(" in line or "BUDGET" in line for line in lines)


def indented(lines: list[str], ns: dict, levels: int = 1) -> list[str]:
    """`lines` (a statement's, or a block's: the names they set are their own) indented by `levels`; lines that
    would nest deeper than MAX_INDENT become a function of their own (`block`), called there.

    >>> indented(["if x:", "    y = 1"], {}, 2)
    ['        if x:', '            y = 1']
    >>> ns = namespace({}); indented(["pass"], ns, MAX_INDENT + 1)[0].strip().endswith("(ctx)")
    True
    """
    if levels + max((len(line) - len(line.lstrip(" "))) // 4 for line in lines) > MAX_INDENT:
        lines = [block(lines, ns)]
    pad = "    " * levels
    return [pad + line for line in lines]


def guarded_lines(fn: Callable, ns: dict, into: str | None = None) -> list[str] | None:
    """The lines of a function guarded_function made in `ns`, to write into another function made there (an item
    of a list of statements keeps its own guard: a fresh loop budget, its own located error); with `into`, an
    expression's value is put into that name. None for any other function."""
    made = getattr(fn, "guarded", None)
    if made is None or made[0] is not ns:
        return None
    _, fail, code, lines = made
    if into is not None:
        if code is None:
            return None
        lines = search_into(ns, code, into) or [f"{into} = {code}"]
    elif code is not None:
        return None
    return guard(fail, lines, ns)


def lend(ns: dict, code: str, lent: str) -> None:
    """Remember that `code`, which hands out a copy of a remembered list (so that no use can change the list
    remembered), may be `lent` (the list itself) where the list is only read (`borrowed`)."""
    ns.setdefault(LENT, {})[code] = lent


def borrowed(ns: dict, code: str) -> str:
    """The source of a value for a part of an expression that only reads it (its length, an item, `in`, a loop
    of an aggregate: an expression changes nothing): a remembered list itself, not a copy (see `lend`).

    >>> ns = namespace({}); lend(ns, "list(_7)", "_7")
    >>> borrowed(ns, "list(_7)"), borrowed(ns, "list(_8)")
    ('_7', 'list(_8)')
    """
    return ns.get(LENT, {}).get(code, code)


def search(ns: dict, code: str, until: bool, items: list[str], loop: str, cond: str | None, value: str) -> None:
    """Remember, for `code` (`any(...)`/`all(...)` over a held local), the lines returning its value as a loop
    (used where the expression is a function's whole value: guarded_function): the same steps (the list named and
    charged first, each element filtered by `cond`, then tested) without a generator resumed per element. `until`:
    the value that decides (True for any, False for all); `items`: lines naming the list before the loop.

    >>> ns = namespace({})
    >>> search(ns, "CODE", False, [], "for x in [1, 2, 3]", "x > 1", "x < 3")
    >>> ns[SEARCHES]["CODE"]
    ['for x in [1, 2, 3]:', '    if x > 1:', '        if not x < 3:', '            return False', 'return True']
    """
    ns.setdefault(SEARCHES, {})[code] = searching(until, items, loop, cond, value, [f"return {until}"]) + \
        [f"return {not until}"]
    ns.setdefault(SEARCH_PARTS, {})[code] = (until, items, loop, cond, value)


def searching(until: bool, items: list[str], loop: str, cond: str | None, value: str, found: list[str]) -> list[str]:
    """The lines of `search`'s loop, running `found` at the element that decides."""
    test = [f"if {value}:" if until else f"if not {value}:"] + ["    " + line for line in found]
    body = test if cond is None else [f"if {cond}:"] + ["    " + line for line in test]
    return items + [f"{loop}:"] + ["    " + line for line in body]


def search_into(ns: dict, code: str, into: str) -> list[str] | None:
    """The lines putting the value of `code`, an any/all that `search` remembered, into the name `into` as a loop
    (where a statement tests it: `if any(…)`), no generator resumed per element; None for any other code.

    >>> ns = namespace({})
    >>> search(ns, "CODE", True, [], "for x in [1, 2, 3]", None, "x > 1")
    >>> search_into(ns, "CODE", "t1")
    ['t1 = False', 'for x in [1, 2, 3]:', '    if x > 1:', '        t1 = True', '        break']
    >>> search_into(ns, "OTHER", "t1") is None
    True
    """
    parts = ns.get(SEARCH_PARTS, {}).get(code)
    if parts is None:
        return None
    until, items, loop, cond, value = parts
    return items + [f"{into} = {not until}"] + searching(until, [], loop, cond, value, [f"{into} = {until}", "break"])


def forgetting(cells: list, lines: list[str], ns: dict) -> list[str]:
    """`lines` with a Steady's `cells` forgotten before and after them (Steady.loop, as lines)."""
    if not cells:
        return lines
    if len(cells) <= FORGET_IN_PLACE:  # a few cells: emptied in place by one line (`_7[0] = _9[0] = MISSING`)
        forget = [" = ".join(f"{bound_once(ns, cell)}[0]" for cell in cells) + " = MISSING"]
    else:
        forget = [f"forget({bound(ns, cells)})"]
    return forget + ["try:"] + indented(lines, ns) + ["finally:"] + ["    " + line for line in forget]


def function_of_arguments(code: str, ns: dict, error: Callable[[Exception], Exception],
                          params: list[str]) -> Callable[..., Any] | None:
    """`code` as guarded_function makes it, a function of `ctx` and the Python locals `params` given as its
    arguments (the DSL locals they stand for: fuse.python_local), compiled now; None when `code` is a statement
    block's call (its lines are a function of `ctx` alone).

    >>> ns = namespace({})
    >>> twice = function_of_arguments("(_pv1x_ * 2)", ns, ValueError, ["_pv1x_"])
    >>> twice(None, 21)
    42
    """
    if code in ns.get(BLOCKS, {}):
        return None
    body = ns.get(SEARCHES, {}).get(code) or [f"return {code}"]
    lines = guard(bound(ns, error), body, ns)
    name = fresh(ns)
    source = f"def {name}(ctx, {', '.join(params)}):\n" + "".join(f"    {line}\n" for line in lines)
    return _compiled_function(name, source, "exec", ns)


def statements_function(lines: list[str], ns: dict) -> Callable[[Any], None]:
    """The function of `ctx` whose body is `lines` (Python statements, 4 spaces per level of indentation)."""
    name = fresh(ns)
    source = f"def {name}(ctx):\n" + "".join(f"    {line}\n" for line in lines or ["pass"])
    ns[name] = deferred(name, source, "exec", ns)
    return ns[name]


def deferred(name: str, source: str, mode: str, ns: dict) -> Callable[[Any], Any]:
    """The function of `ctx` that `source` defines (`exec`: a `def` of `name`) or is (`eval`: a lambda), its
    globals `ns`; compiled at its first call, unless the load cache keeps code objects (interp.dsl.cache: they
    are then compiled, or read, now). Most functions a spec's compile writes are never called on their own (their
    lines are written into a larger function, a rule of a phase that a game never reaches): compiling each at
    once cost a new process about a fifth of its load.

    The function returned is a stand-in whose first call compiles the source and takes the compiled code as its
    own (`__code__`: the same object, so whoever holds it calls the compiled code from then on, with nothing in
    between).

    >>> ns = namespace({})
    >>> f = deferred("_k1", "def _k1(ctx):\\n    return ctx + 1\\n", "exec", ns)
    >>> f.__code__.co_name, f(1), f.__code__.co_name, f(2)
    ('_first_call', 2, '_k1', 3)
    """
    if keeping():
        return _compiled_function(name, source, mode, ns)
    stand_in = FunctionType(_first_call.__code__, ns, name)
    stand_in.__defaults__ = (stand_in, (name, source, mode), _become)  # its globals are `ns`: given what it needs
    return stand_in


def _first_call(ctx, _self=None, _source=None, _become=None):
    """The code of a stand-in (deferred): become the function `_source` makes, and call that."""
    return _become(_self, _source)(ctx)  # type: ignore[misc]


def _become(stand_in: Any, source: tuple[str, str, str]) -> Any:
    name, text, mode = source
    made = _compiled_function(name, text, mode, stand_in.__globals__)
    stand_in.__code__, stand_in.__defaults__ = made.__code__, None
    return stand_in


def _compiled_function(name: str, source: str, mode: str, ns: dict) -> Callable[[Any], Any]:
    code = compiled(source, f"<spec {'statements' if mode == 'exec' else 'expression'}>", mode)
    if mode == "eval":
        return eval(code, ns)
    held = ns.get(name)
    exec(code, ns)
    made = ns[name]
    if held is not None:
        ns[name] = held  # the stand-in stays the name's value (it now runs the same code)
    return made


def block(lines: list[str], ns: dict) -> str:
    """The call (`_k7(ctx)`) of a function whose body is `lines` (Python statements over `ctx`, indented by four
    spaces per level), made at its first call; a guarded_function of that call has the lines written into it.

    >>> ns = namespace({})
    >>> call = block(["ctx.loc['x'] += 1", "if ctx.loc['x'] > 1:", "    ctx.loc['y'] = 0"], ns)
    >>> class Ctx: loc = {"x": 1}
    >>> guarded_function(call, ns, ValueError)(Ctx()), Ctx.loc
    (None, {'x': 2, 'y': 0})
    """
    if ACTIVE:
        check_escape("\n".join(lines))
    name = fresh(ns)
    call = f"{name}(ctx)"
    ns.setdefault(BLOCKS, {})[call] = lines

    def first(ctx):
        made = ns[name] = statements_function(lines, ns)
        return made(ctx)
    ns[name] = first
    return call


def function(code: str, ns: dict) -> Callable[[Any], Any]:
    """The function of one argument, `ctx`, whose value is `code`: made once per source text and namespace (a
    define's code joins every place that uses it; those asked for on their own share one function)."""
    if ACTIVE:
        check_escape(code)
    made = ns.setdefault(MADE, {})
    fn = made.get(code)
    if fn is None:
        fn = made[code] = deferred("<lambda>", "lambda ctx: " + code, "eval", ns)
    return fn
