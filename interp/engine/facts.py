"""Fact constraints: what a deal's facts can possibly be, so the score keeper refuses the impossible.

A fact declares `min:` / `max:` (number expressions, for each value: each seat's, for a per-seat fact) and
`check:`, a list of `{rule: BOOL-EXPRESSION, message: TEXT}` over the facts given so far. In a per-seat fact's
rules, `asked` is the list of seats whose values were given:

    tricks:
      ask: Tricks taken
      seats: active
      min: 0
      max: 10
      check:
        - {rule: "sum(tricks[s] for s in asked) == 10", message: "the tricks of a deal add up to 10"}

Rules are compiled in the scope scoring has (facts, options, the sheet, built-ins). The score keeper checks a
value against `min`/`max` as it is given and the rules once the whole fact is given; a random playout's facts
always satisfy them (tests/engine/test_facts.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from interp.dsl import types as T


@dataclass(frozen=True)
class FactRule:
    """One `check:` item: a bool closure and the message shown when it is false."""

    holds: Callable
    message: str


@dataclass(frozen=True)
class FactLimits:
    """The constraints of one fact: bounds for each value, and rules over the facts given so far."""

    low: Callable | None = None
    high: Callable | None = None
    rules: tuple = ()
    places: dict = field(default_factory=dict)  # "min", "max" or a rule's index -> (Location, source line)


NO_LIMITS = FactLimits()


def compile_fact_limits(compiler, facts: list) -> None:
    """Compile each fact's `min`, `max` and `check` (in the scope scoring has) onto its declaration."""
    if not facts:
        return
    scope = compiler.fact_scope(facts)
    for decl in facts:
        path = ("facts", decl.name)
        spec = compiler.data["facts"][decl.name] or {}
        var = compiler.data.get("vars", {})[decl.name]
        if ("min" in spec or "max" in spec) and (var or {}).get("type") not in ("int", "num"):
            key = "min" if "min" in spec else "max"
            raise compiler.error(f"{key}: bounds a number, and fact '{decl.name}' is not one", path + (key,),
                                 "use check: with a rule for other kinds of value")
        low = compiler.expr(path + ("min",), T.NUM, None, scope) if "min" in spec else None
        high = compiler.expr(path + ("max",), T.NUM, None, scope) if "max" in spec else None
        local = {"asked": (T.list_of(T.SEAT), None)} if decl.seats is not None else None
        rules = tuple(FactRule(compiler.expr(path + ("check", i, "rule"), T.BOOL, local, scope), str(item["message"]))
                      for i, item in enumerate(spec.get("check") or []))
        keys = [k for k in ("min", "max") if k in spec] + list(range(len(rules)))
        paths = {k: path + ((k,) if isinstance(k, str) else ("check", k, "rule")) for k in keys}
        places = {k: (where := compiler.doc.where(p), compiler.doc.line_of(where)) for k, p in paths.items()}
        decl.limits = FactLimits(low, high, rules, places)


def value_problem(st, decl, value, seat: int | None = None) -> str | None:
    """Why one value of fact `decl` is impossible (outside its min/max), or None."""
    limits = decl.limits
    low = limits.low(st) if limits.low is not None else None
    high = limits.high(st) if limits.high is not None else None
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    whose = f" of {st.game.seat_name(seat, st.n)}" if seat is not None else ""
    if low is not None and high is not None:
        wanted = f"from {_num(low)} to {_num(high)}"
    else:
        wanted = f"at least {_num(low)}" if low is not None else f"at most {_num(high)}"
    return f"{decl.name}{whose} is {wanted}, not {_num(value)}"


def fact_problems(st, decl, seats: list | None = None) -> list:
    """Every constraint the fact `decl` breaks, as it stands in `st` (per-seat facts: for `seats`)."""
    problems = []
    value = st.vars[decl.name]
    if decl.limits.low is not None or decl.limits.high is not None:
        for seat in seats if seats is not None else [None]:
            problem = value_problem(st, decl, value[seat] if seat is not None else value, seat)
            if problem is not None:
                problems.append(problem)
    if decl.limits.rules:
        had, saved = "asked" in st.loc, st.loc.get("asked")
        st.loc["asked"] = list(seats) if seats is not None else []
        try:
            problems.extend(rule.message for rule in decl.limits.rules if not rule.holds(st))
        finally:
            if had:
                st.loc["asked"] = saved
            else:
                del st.loc["asked"]
    return problems


def broken_limit(st) -> tuple | None:
    """The first limit the facts of a deal just played break, as (the fact's declaration, the message, the
    limit's key: "min", "max" or a rule's index), or None. The facts are taken as the score keeper asks them
    (those whose `when` holds, for their `seats`); `interp validate` reports the first one at the limit's line,
    so that a variant that changes what a fact can be (card points, say) is told which limit to change."""
    for decl in st.game.facts:
        if decl.when is not None and not decl.when(st):
            continue
        seats = list(decl.seats(st)) if decl.seats is not None else None
        limits, value = decl.limits, st.vars[decl.name]
        if limits.low is not None or limits.high is not None:
            for seat in seats if seats is not None else [None]:
                one = value[seat] if seat is not None else value
                problem = value_problem(st, decl, one, seat)
                if problem is not None:
                    low = limits.low(st) if limits.low is not None else None
                    return decl, problem, "min" if low is not None and one < low else "max"
        if limits.rules:
            st.loc["asked"] = seats if seats is not None else []
            try:
                for i, rule in enumerate(limits.rules):
                    if not rule.holds(st):
                        return decl, rule.message, i
            finally:
                del st.loc["asked"]
    return None


def _num(value) -> str:
    return str(int(value)) if value == int(value) else str(float(value))
