"""Python source for DSL expressions: the compile stage that joins an expression's parts into one function.

Each part of an expression compiles to a closure; `a == 1 and b != c` would be five closures calling each other at
every evaluation. Parts that can say what they compute as Python source (`Compiled.code`: names, constants,
operators, comparisons, conditionals, built-in calls) are joined into their parent's source instead, and the
whole runs as one function made by `eval` when it is first needed. A part that cannot (a loop, a define's use, a
string with holes) takes part through its closure, bound to a name in the namespace. The namespace belongs to one
compile scope (a game), so a game's functions never see another's names.

>>> ns = namespace({})
>>> f = function("(ctx.loc['x'] + " + bound(ns, lambda ctx: 2) + "(ctx)) * 3", ns)
>>> class Ctx: loc = {"x": 5}
>>> f(Ctx())
21
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .dslruntime import (BUDGET, MISSING, PYTHON_ERRORS, charge, divide, field_value, floordiv, forget, item_at,
                         modulo, refuse_big, too_big)

if TYPE_CHECKING:
    from .dslscope import Compiled

NAMESPACE = "python namespace"  # its key in a scope's `shared` dict
MADE = "__made__"  # its key in a namespace: the functions made there, by source text
BLOCKS = "__blocks__"  # its key in a namespace: a statement block's call (`_k7(ctx)`) -> the block's lines
MAX_CODE = 4000  # characters of source one function may have; a longer expression keeps its parts' closures
MAX_DEPTH = 60  # brackets open at once (Python's parser allows 200)
LITERALS = (int, bool, str, type(None))  # values written as themselves in source (repr gives them back)
HELPERS = {"item_at": item_at, "field_value": field_value, "divide": divide, "floordiv": floordiv,
           "modulo": modulo, "BUDGET": BUDGET, "PYTHON_ERRORS": PYTHON_ERRORS, "too_big": too_big,
           "refuse_big": refuse_big, "type": type, "int": int,
           "charge": charge, "forget": forget, "MISSING": MISSING}


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


def fits(code: str) -> bool:
    """Whether source is small and shallow enough to be one function (else the caller keeps closures)."""
    if len(code) > MAX_CODE:
        return False
    depth = peak = 0
    for ch in code:
        if ch in "([":
            depth += 1
            peak = max(peak, depth)
        elif ch in ")]":
            depth -= 1
    return peak <= MAX_DEPTH


def guarded_function(code: str, ns: dict, error: Callable[[str], Exception]) -> Callable[[Any], Any]:
    """`code` as a top-level function: a fresh loop budget, and a Python error inside it reported by `error` (a
    located error naming the expression) — dslruntime.guard written into the function, not a frame around it."""
    fail = bound(ns, lambda exc: error(f"{type(exc).__name__}: {exc}"))
    name = fresh(ns)
    lines = ns.get(BLOCKS, {}).get(code) or [f"return {code}"]
    body = "".join(f"        {line}\n" for line in lines)
    source = (f"def {name}(ctx):\n    BUDGET.steps = 0\n    try:\n{body}"
              f"    except PYTHON_ERRORS as exc:\n        raise {fail}(exc) from None\n")
    exec(compile(source, "<spec expression>", "exec"), ns)
    return ns[name]


def block(lines: list[str], ns: dict) -> str:
    """The call (`_k7(ctx)`) of a function whose body is `lines` (Python statements over `ctx`, indented by four
    spaces per level), made at its first call; a guarded_function of that call has the lines written into it.

    >>> ns = namespace({})
    >>> call = block(["ctx.loc['x'] += 1", "if ctx.loc['x'] > 1:", "    ctx.loc['y'] = 0"], ns)
    >>> class Ctx: loc = {"x": 1}
    >>> guarded_function(call, ns, ValueError)(Ctx()), Ctx.loc
    (None, {'x': 2, 'y': 0})
    """
    name = fresh(ns)
    call = f"{name}(ctx)"
    ns.setdefault(BLOCKS, {})[call] = lines

    def first(ctx):
        source = f"def {name}(ctx):\n" + "".join(f"    {line}\n" for line in lines)
        exec(compile(source, "<spec statements>", "exec"), ns)
        return ns[name](ctx)
    ns[name] = first
    return call


def function(code: str, ns: dict) -> Callable[[Any], Any]:
    """The function of one argument, `ctx`, whose value is `code`: made once per source text and namespace (a
    define's code joins every place that uses it; those asked for on their own share one function)."""
    made = ns.setdefault(MADE, {})
    fn = made.get(code)
    if fn is None:
        fn = made[code] = eval(compile("lambda ctx: " + code, "<spec expression>", "eval"), ns)
    return fn
