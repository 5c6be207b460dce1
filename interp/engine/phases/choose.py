"""`choose`: one seat picks one option: named options (whist / pass / half-whist, open / closed) and/or every
element of a list (`from`) that satisfies `legal` (a contract at least the bid). Each option may carry a `when`
condition and `do` statements; inside them `me` is the choosing seat and `choice` the chosen element.

When `legal` is an `and` with a side `choice >= x` (or `choice > x`) whose `x` does not depend on the choice (a
number, or a bid: "at least the bid"), `x` is worked out once and the elements below it are left out before the
whole condition is checked on the others (the same choices, fewer evaluations).

When `from` and `legal` read nothing but `me`, `choice`, the game's constants and plain state names (vars and
options without an index; no zone) and call only built-ins of the deck or of their arguments alone (`card`,
`len`, `count`, `range` …), the choices are remembered by the player count, `me` and the values of those names,
and worked out again only for new values (the contract choice: once per declarer and bid, not at every deal; a
bid from `range(hand_size + 1)`: once per bidder, deal number and bids so far).
"""
from __future__ import annotations

from typing import Callable, NamedTuple

from interp.dsl import types as T
from interp.dsl.calls import DECK_ONLY
from interp.dsl.compile import ITEMS, Compiler, SourceRef, guarded, parse
from interp.dsl.nodes import Tree
from interp.dsl.reads import GAME_CONSTANTS, calls_in, free_names, names_in, read_names
from interp.engine.phases.base import Bound, Phase, either, with_locals
from interp.engine.phases.progress import Progress
from interp.engine.phases.turns import Template
from interp.engine.state import Event, Move, tupled

ORDERED = ("bid", "int", "num")  # element types whose `>=` in the DSL is Python's
CHOICE_MEMO = 256  # inputs whose choices a phase remembers (then it starts again)
PURE = DECK_ONLY | {"range"}  # built-ins whose value depends on their arguments and the deck alone


class Option(NamedTuple):
    """A named option: its `when` condition (None: always offered; `reads_me`: whether it reads `me`, else it
    is checked with nothing bound), its `do` statements and its label."""
    name: str
    when: Callable | None
    do: Callable | None
    label: str
    reads_me: bool = True


class Floor(NamedTuple):
    """The lower bound of a `legal` condition: `choice >= value` (or `>` when `strict`)."""
    value: Callable
    strict: bool


class ChoiceProgress(Progress):
    """A choice's progress, its `state.ph` (see `Progress`): the choosing `seat` and whether it has `chosen`.

    >>> ChoiceProgress(2) == {"seat": 2, "chosen": False}
    True
    """

    FIELDS = __slots__ = ("seat", "chosen")
    seat: int
    chosen: bool

    def __init__(self, seat: int, chosen: bool = False):
        self.seat, self.chosen = seat, chosen

    def copy(self) -> "ChoiceProgress":
        return ChoiceProgress(self.seat, self.chosen)


class ChoosePhase(Phase):
    type_name = "choose"
    __slots__ = ("choice_type", "who", "options", "source", "source_legal", "source_do", "floor", "inputs",
                 "memo", "offered", "actions", "option_events", "asks", "most", "moves", "question")

    def __init__(self, pid, when, who, options, source, source_legal, source_do, label, choice_type=("any", None),
                 floor: Floor | None = None, inputs: Callable | None = None, most: Bound | None = None,
                 question: Template | None = None):
        # without a label, the question is made from the options legal at the time (see `prompt`); the phase is
        # called by all its options (the rules summary)
        self.asks = bool(label)
        super().__init__(pid, when, label or (either([o.label for o in options]) if options and source is None
                                              else ""))
        self.choice_type = choice_type
        self.question = question  # the label as a template, when it has {…} holes (with `me`); else None
        self.most = most  # `max`: the declared bound of a `from` list of numbers (a Bound), or None
        self.who, self.options = who, options
        self.source, self.source_legal, self.source_do = source, source_legal, source_do
        self.floor = floor
        self.inputs = inputs  # the values the choices depend on besides `me` and the player count (or None)
        self.memo: dict = {}
        self.moves: dict = {}  # (type, item) -> the move choosing it, made once (moves_of)
        # (move, when, whether the when reads `me`) by option, and each option's `do` by name: built once
        self.offered = tuple((Move("option", o.name), o.when, o.reads_me) for o in options)
        self.actions = {o.name: o.do for o in reversed(options)}  # the first option of a name wins
        self.option_events: dict = {}  # option name -> by seat, the event of choosing it (option_event)

    @classmethod
    def compile(cls, spec: dict, cc) -> "ChoosePhase":
        who = cc.expr("who", "seat")
        me = {"me": ("seat", None)}
        options = []
        for i, opt in enumerate(spec.get("options", [])):
            path = ("options", i)
            when = cc.expr(path + ("when",), "bool", me) if "when" in opt else None
            reads_me = when is not None and "me" in free_names(parse(_text(opt["when"]), "expr"), cc.c.scope.macros)
            do = cc.stmts(path + ("do",), me) if "do" in opt else None
            options.append(Option(str(opt["name"]), when, do, opt.get("label", str(opt["name"])), reads_me))
        source = source_legal = source_do = None
        choice = ("any", None)
        if "from" in spec:
            source, list_type, domain = cc.typed_expr("from", me)
            if not list_type.startswith("list["):
                raise cc.error("'from' must give a list of choices", "from")
            choice = (list_type[5:-1], domain)
            local = dict(me, choice=choice)
            source_legal = cc.filter("legal", "choice", local) if "legal" in spec else None
            source_do = cc.stmts("do", local) if "do" in spec else None
        floor = _floor(cc, me, choice[0]) if source_legal is not None else None
        inputs = _inputs(cc) if source_legal is not None else None
        if "max" in spec and choice[0] != T.INT:
            raise cc.error(f"'max' bounds a choice of whole numbers, and this phase chooses a {choice[0]}", "max")
        question = Template.compile(cc, "label", me) if "label" in spec else None
        label = ""
        if question is not None:  # its text, with `…` for each hole where no seat is asking (the rules summary)
            label = "".join(part if isinstance(part, str) else "…" for part in question.parts)
            if all(isinstance(part, str) for part in question.parts):
                question = None  # no holes: the text as written (`{{` read as a brace)
        return cls(spec["id"], cc.when(), who, options, source, source_legal, source_do, label,
                   choice, floor, inputs, cc.bound("max"), question)

    def start(self, st) -> None:
        st.ph = ChoiceProgress(self.who(st))

    def progress_of(self, values: dict) -> ChoiceProgress:
        return ChoiceProgress.of(values)

    def actor(self, st) -> int | None:
        return st.ph.seat

    def done(self, st) -> bool:
        return st.ph.chosen

    def legal(self, st) -> list:
        me = st.ph.seat
        moves = []
        for move, when, reads_me in self.offered:
            if when is None or (with_locals(st, {"me": me}, when) if reads_me else when(st)):
                moves.append(move)
        if self.source is not None:
            moves.extend(self.choices(st, me))
        return moves

    def choices(self, st, me: int) -> list:
        """The moves choosing an element of `from` that `legal` allows; remembered when `inputs` says by what."""
        if self.inputs is None:
            return self.work_out_choices(st, me)
        key = (st.n, me, self.inputs(st))
        known = self.memo.get(key)
        if known is None:
            if len(self.memo) >= CHOICE_MEMO:
                self.memo.clear()
            known = self.memo[key] = self.work_out_choices(st, me)
        return known

    def work_out_choices(self, st, me: int) -> list:
        items = with_locals(st, {"me": me}, self.source)
        if self.most is not None:
            for item in items:
                self.most.check(item, f"phase {self.id!r}: a number of its 'from' list")
        if self.source_legal is None:
            return self.moves_of(items)
        items = self.above_floor(st, me, items)
        if not items:
            return []
        return self.moves_of(with_locals(st, {"me": me, ITEMS: items}, self.source_legal))

    def moves_of(self, items: list) -> list:
        """The move choosing each of `items`, each made once and kept (`moves`, by the item and its type: 1 and
        true are different choices); an item that is no key (a list) gets a move of its own."""
        made, moves = self.moves, []
        for item in items:
            try:
                move = made.get((type(item), item))
            except TypeError:
                move = Move("choice", item)
            if move is None:
                if len(made) >= CHOICE_MEMO:
                    made.clear()
                move = made[(type(item), item)] = Move("choice", item)
            moves.append(move)
        return moves

    def above_floor(self, st, me: int, items: list) -> list:
        """The `items` the `legal` condition's lower bound keeps (all of them without one, or when it is none)."""
        if self.floor is None:
            return items
        low = with_locals(st, {"me": me}, self.floor.value)
        if low is None:
            return items
        return [x for x in items if x > low] if self.floor.strict else [x for x in items if x >= low]

    def apply(self, st, move: Move) -> bool:
        """Make the choice `move` (its `do` statements run); the phase is then over."""
        return self.play(st, move, [])  # (its log entry goes to a list nobody keeps: the caller logs moves)

    def play(self, st, move: Move, history: list) -> bool:
        """`Phase.play` in one body: log the choice `move` in `history` (by its `notation`), then make it; the
        phase is then over."""
        ph = st.ph
        me = ph.seat
        events = st.events
        mark = len(events)  # the move's own line goes before what its statements log
        asked = None if self.question is None else self.asked(st, me)  # the question as put, before the answer
        option = move.kind == "option"
        if option:
            history.append([st.deal_no, me, move.value])
            do = self.actions[move.value]
        else:
            history.append([st.deal_no, me, st.game.value_code(move.value, self.choice_type[0], st.n)])
            do = self.source_do
        if do is not None:  # with `me` (and `choice`) bound
            loc = st.loc
            if loc:
                with_locals(st, {"me": me} if option else {"me": me, "choice": move.value}, do)
            else:  # with_locals with nothing bound yet, in place
                loc["me"] = me
                if not option:
                    loc["choice"] = move.value
                try:
                    do(st)
                finally:
                    loc.clear()
        if asked is not None:  # the question as it was put: its values kept with the move
            event = Event("choose", me, (), (move, asked), None, self.id)
        elif option:
            row = self.option_events.get(move.value)
            event = row[me] if row is not None and me < len(row) else self.option_event(me, move)
        else:
            event = Event("choose", me, (), move, None, self.id)
        ph.chosen = True
        if len(events) == mark:
            events.append(event)
        else:
            events.insert(mark, event)
        return True

    def option_event(self, me: int, move: Move) -> Event:
        """The event of `me` choosing the option of `move`, from a table built the first time and then shared by
        every deal (an event is never changed once logged)."""
        row = self.option_events.setdefault(move.value, [])
        while len(row) <= me:
            row.append(Event("choose", len(row), (), move, None, self.id))
        return row[me]

    def event_text(self, ctx, event) -> str:
        """`West (take the turned-up suit as trumps?): pass`; without a label, `West: pass`."""
        move = event.value
        note = f" ({self.label})" if self.asks else ""
        if isinstance(move, tuple):  # (the move, the values of the label's holes when it was asked)
            assert self.question is not None
            move, values = move
            note = f" ({self.question.format(ctx, values, True)})"
        return f"{ctx.game.seat_name(event.seat, ctx.n)}{note}: {self.describe(ctx, move)}"

    def asked(self, st, me: int) -> tuple:
        """The values of the label's holes for the chooser `me` now (see `Template.capture`)."""
        assert self.question is not None
        question = self.question
        return with_locals(st, {"me": me}, question.capture)

    def prompt(self, st) -> str:
        """The label; without one, the moves legal now as a question: `stay or fold?` (never an option that
        is not legal now)."""
        if self.question is not None:
            return self.question.format(st, self.asked(st, st.ph.seat), True)
        if self.asks:
            return self.label
        return either([self.describe(st, m) for m in self.legal(st)]) + "?"

    def notation(self, st, move: Move) -> str:
        if move.kind == "option":
            return move.value
        return st.game.value_code(move.value, self.choice_type[0], st.n)

    def describe(self, st, move: Move) -> str:
        if move.kind == "option":
            return next(o.label for o in self.options if o.name == move.value)
        return st.game.show(move.value, self.choice_type[0], st.n) or str(move.value)


def _floor(cc, me: dict, element: str) -> Floor | None:
    """The lower bound in a `legal` condition (see the module docstring), or None."""
    if element not in ORDERED:
        return None
    source = SourceRef(cc.c.doc, cc._p("legal"))
    tree = parse(str(cc.c.doc.get(cc._p("legal"))), "expr", source)
    for part in tree.children if isinstance(tree, Tree) and tree.data == "and_" else [tree]:
        if not (isinstance(part, Tree) and part.data == "compare" and len(part.children) == 3):
            continue
        left, op, right = part.children
        if str(op) not in (">=", ">") or _name_of(left) != "choice" or "choice" in names_in(right, cc.c.scope.macros):
            continue
        bound = Compiler(cc.c.scope, source, me).expr(right)
        if bound.type == element:
            return Floor(guarded(bound, source), str(op) == ">")
    return None


def _inputs(cc) -> Callable | None:
    """What `from` and `legal` depend on besides `me`, `choice` and the player count, as a function of the state
    giving a key, when that is plain state names only (see the module docstring); else None."""
    macros, symbols = cc.c.scope.macros, cc.c.scope.symbols
    names: set = set()
    for key in ("from", "legal"):
        tree = parse(str(cc.c.doc.get(cc._p(key))), "expr")
        if not calls_in(tree, macros) <= PURE:
            return None
        names |= read_names(tree, macros)
    names -= {"me", "choice"} | GAME_CONSTANTS
    used = [symbols.get(name) for name in sorted(names)]
    if any(s is None or s.index or s.zone for s in used):
        return None
    getters = tuple(s.get for s in used)
    if len(getters) == 1:  # the common case (the bid): its value itself is the key
        get = getters[0]
        if used[0].type in T.SCALARS:  # never a list: the value as it is
            return get
        return lambda st: tupled(get(st))
    return lambda st: tuple([tupled(get(st)) for get in getters])


def _text(value) -> str:
    """A condition as the DSL reads it (YAML's true and false as written in the DSL)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _name_of(node) -> str | None:
    """The name an expression is, when it is nothing but a name."""
    return str(node.children[0]) if isinstance(node, Tree) and node.data == "name" else None
