"""What a phase's compile step may ask of the spec compiler: located DSL compilation, zones, bids, errors."""
from __future__ import annotations

from interp.dsl.compile import SourceRef, compile_filter_args
from interp.engine.phases.base import Bound
from interp.errors import SpecError


class PhaseContext:
    """What a phase's compile step may ask for: located DSL compilation, zones, bids, errors."""

    def __init__(self, compiler, path: tuple):
        """`compiler` is the SpecDSL (texts) at work; `path` the phase's path in the spec."""
        self.c = compiler
        self.path = path
        self.spec = compiler.doc.get(path)

    def _p(self, key) -> tuple:
        return self.path + (key if isinstance(key, tuple) else (key,))

    def expr(self, key, want=None, locals_=None):
        return self.c.expr(self._p(key), want, locals_)

    def filter(self, key, var: str, locals_: dict):
        """The condition at `key` on the local `var` as a filter over the items in the local compile.ITEMS."""
        return self.c.filter(self._p(key), var, locals_)

    def filter_args(self, key, var: str, locals_: dict):
        """The filter of `filter` as a function of the state and the values of the other `locals_` (in their
        order), then the items, passed as arguments (compile_filter_args); None when it must read them from
        `ctx.loc`. Asked after `filter`, which reports the condition's mistakes."""
        path = self._p(key)
        return compile_filter_args(str(self.c.doc.get(path)), var, self.c.scope, SourceRef(self.c.doc, path),
                                   locals_)

    def typed_expr(self, key, locals_=None):
        return self.c.typed_expr(self._p(key), locals_)

    def stmts(self, key, locals_=None):
        return self.c.stmts(self._p(key), locals_)

    def number(self, key, value):
        return self.c.number(self._p(key), value)

    def bound(self, key) -> Bound | None:
        """The `max` at `key` (a path under the phase) as a Bound located in the spec, or None when absent."""
        path = self._p(key)
        parent = self.c.doc.get(path[:-1])
        if not isinstance(parent, dict) or parent.get(path[-1]) is None:
            return None
        most = parent[path[-1]]
        where = self.c.doc.where(path)
        return Bound(int(most), where, self.c.doc.line_of(where))

    def when(self):
        """The phase's `when` condition, whose defines are remembered while the engine skips phases (Stretch)."""
        return self.c.expr(self._p("when"), "bool", steady=self.c.stretch) if "when" in self.spec else None

    def zone_name(self, key, per_seat: bool | None = None) -> str:
        path = self._p(key)
        name = self.c.doc.get(path)
        zones = {z: d for z, d in (self.c.data.get("zones", {}) or {}).items()}
        if name not in zones:
            raise self.c.error(f"unknown zone {name!r}", path, "zones: " + ", ".join(zones))
        if per_seat is not None and bool(zones[name].get("per_seat", False)) != per_seat:
            kind = "a per-seat zone (like hand)" if per_seat else "a shared zone (like talon)"
            raise self.c.error(f"zone {name!r} must be {kind} here", path)
        return name

    def default_hand(self) -> str:
        if "hand" not in (self.c.data.get("zones", {}) or {}):
            raise self.c.error("no zone 'hand': name the zone to play from with hand:", self.path)
        return "hand"

    def bid_index(self, key, name: str) -> int:
        ladder_names = self.c.bid_names
        if name not in ladder_names:
            raise self.c.error(f"no bid {name!r} in the ladder", self._p(key), "special bids must be ladder rungs")
        return ladder_names.index(name)

    def error(self, message: str, key, hint=None) -> SpecError:
        return self.c.error(message, self._p(key), hint)

    def error_factory(self):
        doc, path = self.c.doc, self.path

        def make(message: str, hint: str | None):
            return doc.error(message, path, hint)
        return make
