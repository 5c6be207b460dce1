"""`effects`: run DSL statements, no decision (take the talon, credit tricks of an unplayed deal …)."""
from __future__ import annotations

from interp.engine.phases.base import Phase


class EffectsPhase(Phase):
    type_name = "effects"
    interactive = False
    __slots__ = ("do",)

    def __init__(self, pid, when, do, label=""):
        super().__init__(pid, when, label)
        self.do = do

    def start(self, st) -> None:
        st.ph = {}
        self.do(st)

    @classmethod
    def compile(cls, spec: dict, cc) -> "EffectsPhase":
        return cls(spec["id"], cc.when(), cc.stmts("do"), spec.get("label", ""))
