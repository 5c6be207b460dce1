"""`for:` parameters of a move a spec declares once for many values (a `turns` action, a trick announcement):
`for: "c in hand[me]"`, or a list of such clauses where later ones may use earlier names."""
from __future__ import annotations

import re

from interp.dsl import types as T
from interp.dsl.compile import Compiler, ShiftedSource, parse

_FOR = re.compile(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", re.S)


def compile_for(cc, path: tuple, local: dict) -> list:
    """The parameters written at `path + ("for",)` under the phase (none if absent), as (name, list closure, element
    type) in order; each name is added to `local` (the names the move's expressions see) as it is compiled."""
    spec = cc.c.doc.get(cc._p(path))
    written = spec.get("for", []) if isinstance(spec, dict) else []
    clauses = [written] if isinstance(written, str) else written
    params = []
    for j, clause in enumerate(clauses):
        key = path + ("for",) if isinstance(written, str) else path + ("for", j)
        m = _FOR.match(str(clause))
        if not m:
            raise cc.error("write for: 'name in list'", key)
        var = m.group(1)
        if var in local:
            raise cc.error(f"'{var}' is already a name here", key)
        source = ShiftedSource(cc.c.doc, cc._p(key), m.start(2))
        coll = Compiler(cc.c.scope, source, local).expr(parse(m.group(2), "expr", source))
        if not T.is_list(coll.type):
            raise cc.error(f"'for' needs a list, not {coll.type}", key)
        params.append((var, coll.fn, T.element(coll.type)))
        local[var] = (T.element(coll.type), coll.domain)
    return params
