"""`choose`: one seat picks one option: named options (whist / pass / half-whist, open / closed) and/or every
element of a list (`from`) that satisfies `legal` (a contract at least the bid). Each option may carry a `when`
condition and `do` statements; inside them `me` is the choosing seat and `choice` the chosen element.
"""
from __future__ import annotations

from ..state import Event, Move
from .base import Phase, kept_where, with_locals


class ChoosePhase(Phase):
    type_name = "choose"
    __slots__ = ("choice_type", "who", "options", "source", "source_legal", "source_do")

    def __init__(self, pid, when, who, options, source, source_legal, source_do, label, choice_type="any"):
        super().__init__(pid, when, label)
        self.choice_type = choice_type
        self.who, self.options = who, options
        self.source, self.source_legal, self.source_do = source, source_legal, source_do

    @classmethod
    def compile(cls, spec: dict, cc) -> "ChoosePhase":
        who = cc.expr("who", "seat")
        me = {"me": ("seat", None)}
        options = []
        for i, opt in enumerate(spec.get("options", [])):
            path = ("options", i)
            when = cc.expr(path + ("when",), "bool", me) if "when" in opt else None
            do = cc.stmts(path + ("do",), me) if "do" in opt else None
            options.append((str(opt["name"]), when, do, opt.get("label", str(opt["name"]))))
        source = source_legal = source_do = None
        choice = ("any", None)
        if "from" in spec:
            source, list_type, domain = cc.typed_expr("from", me)
            if not list_type.startswith("list["):
                raise cc.error("'from' must give a list of choices", "from")
            choice = (list_type[5:-1], domain)
            local = dict(me, choice=choice)
            source_legal = cc.expr("legal", "bool", local) if "legal" in spec else None
            source_do = cc.stmts("do", local) if "do" in spec else None
        return cls(spec["id"], cc.when(), who, options, source, source_legal, source_do, spec.get("label", ""),
                   choice)

    def start(self, st) -> None:
        st.ph = {"seat": self.who(st), "chosen": False}

    def actor(self, st) -> int | None:
        return st.ph["seat"]

    def done(self, st) -> bool:
        return st.ph["chosen"]

    def legal(self, st) -> list:
        me = st.ph["seat"]
        moves = []
        for name, when, _, _ in self.options:
            if when is None or with_locals(st, {"me": me}, when):
                moves.append(Move("option", name))
        if self.source is not None:
            items = with_locals(st, {"me": me}, self.source)
            if self.source_legal is None:
                moves.extend(Move("choice", item) for item in items)
            else:
                moves.extend(Move("choice", item) for item in with_locals(st, {"me": me, "choice": None},
                                                                          self.legal_choices(items)))
        return moves

    def legal_choices(self, items: list):
        """A closure listing the `items` the `legal` condition allows, `choice` bound to each in turn."""
        return kept_where(items, "choice", self.source_legal)

    def apply(self, st, move: Move) -> None:
        me = st.ph["seat"]
        mark = len(st.events)  # the move's own line goes before what its statements log
        if move.kind == "option":
            do = next(o[2] for o in self.options if o[0] == move.value)
            if do is not None:
                with_locals(st, {"me": me}, do)
        elif self.source_do is not None:
            with_locals(st, {"me": me, "choice": move.value}, self.source_do)
        st.ph["chosen"] = True
        st.events.insert(mark, Event("choose", me, value=move, phase=self.id))

    def event_text(self, ctx, event) -> str:
        return f"{ctx.game.seat_name(event.seat, ctx.n)} ({self.label}): {self.describe(ctx, event.value)}"

    def notation(self, st, move: Move) -> str:
        if move.kind == "option":
            return move.value
        return st.game.value_code(move.value, self.choice_type[0], st.n)

    def describe(self, st, move: Move) -> str:
        if move.kind == "option":
            return next(o[3] for o in self.options if o[0] == move.value)
        return st.game.show(move.value, self.choice_type[0], st.n) or str(move.value)
