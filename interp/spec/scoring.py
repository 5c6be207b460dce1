"""What a deal's end reads: facts (the vars a score keeper asks for), scoring, and the display's status, running
counts and result breakdown."""
from __future__ import annotations

from interp.dsl import types as T
from interp.dsl.compile import Scope
from interp.engine.facts import compile_fact_limits
from interp.engine.game import DisplayItem, FactDecl
from interp.spec.texts import SpecDSL


def fact_decls(c: SpecDSL, var_decls: dict) -> list:
    out = []
    for name, spec in (c.data.get("facts", {}) or {}).items():
        path = ("facts", name)
        if name not in var_decls:
            raise c.error(f"fact '{name}' is not a declared var", path, "declare it under vars:")
        spec = spec or {}
        if var_decls[name].per_seat and "seats" not in spec:
            raise c.error(f"fact '{name}' is per seat: say whose values are asked with seats:", path,
                             "e.g. seats: active")
        when = c.expr(path + ("when",), "bool") if "when" in spec else None
        seats = c.expr(path + ("seats",), "list[seat]") if "seats" in spec else None
        out.append(FactDecl(name, str(spec.get("ask", name)), when, seats))
    compile_fact_limits(c, out)
    return out


def scoring_block(c: SpecDSL, facts: list):
    """Scoring may read only facts (so the score keeper can run it), the sheet, options and built-ins."""
    return c.stmts(("scoring",), None, c.fact_scope(facts))


def status(c: SpecDSL, key: str = "status", scope: Scope | None = None) -> list:
    """`display.<key>`: each label's expression, or mapping {value, when, visible}, as a DisplayItem."""
    out = []
    for label, entry in ((c.data.get("display") or {}).get(key) or {}).items():
        path = ("display", key, label)
        value = path + ("value",) if isinstance(entry, dict) else path
        fn, type_, _ = c.typed_expr(value, None, scope)
        if key == "running" and not T.is_list(type_):
            raise c.error(f"a running count has one value per seat (a list, e.g. a per-seat var), not "
                             f"{type_}", value, "write a per-seat var, or [expression for s in seats]")
        if not isinstance(entry, dict):
            out.append(DisplayItem(label, fn, type_))
            continue
        when = c.expr(path + ("when",), "bool", scope=scope) if "when" in entry else None
        out.append(DisplayItem(label, fn, type_, when, str(entry.get("visible", "all"))))
    return out


def breakdown(c: SpecDSL, facts: list) -> list:
    """`display.result`: labelled expressions shown with each deal's result; like scoring, they read facts."""
    return status(c, "result", c.fact_scope(facts, "display.result"))
