"""`turns`: players take turns, each turn choosing one of the actions the spec declares — the building block of
fishing, matching and shedding games (a card played to capture, to build, to declare, or just laid down).

Spec keys:
- `players` (a list of seats, default `active`), `first` (who moves first, default the first of `players`),
  `next` (who moves after `me`; default the next seat of `players`), `until` (the phase ends as soon as this
  holds: checked when the phase starts and after every move).
- `actions`: a list; each has a `name`, optional parameters `for: "c in hand[me]"` (or a list of such
  clauses, later ones may use earlier names: `["c in hand[me]", "k in [2, 3]"]`), a `when` condition (the
  action with these values is legal when it holds), `do` statements, a `label` template naming the move
  (`"clear with {c}"`), an optional `next` (who moves after this action, overriding the phase's), an
  optional `log` line and an optional `bots` number (how much a bot likes the move; higher is better).
  In every expression `me` is the seat whose turn it is, and the parameters are bound by name.
- `before` / `after`: statements run around every action's `do` (shared bookkeeping, e.g. "when a move
  cleared the table, credit the points and empty it").
- `prompt`: a template for the question put to the player; `show`: lines shown under the table for the
  viewer (`me` = the viewing seat), `log`: lines added to the log after every move.

Templates are text with `{expression}` holes (`{{`, `}}` for literal braces); a line may also be
`{when: condition, text: template}` to appear only when the condition holds. Cards print as codes in the
move's notation (what a player types and what logs store, e.g. `clear with 7H`) and with suit symbols in
menus and logs; seats print as their names; lists print space-separated.

Moves are `Move("action", (name, value, …))`. The phase keeps only `{"seat", "over"}` in `state.ph`:
everything a game remembers between turns (a standing declaration, the last capturer) lives in spec vars.
"""
from __future__ import annotations

from typing import Callable

from interp.dsl import types as T
from interp.dsl.compile import Compiler, SourceRef, compile_holes, display as _text, parse
from interp.dsl.nodes import Tree
from interp.dsl.reads import names_in
from interp.engine.phases.base import _MISSING, Phase
from interp.engine.phases.params import compile_for
from interp.engine.state import Event, Move, tupled


class Template:
    """Text with `{expression}` holes, compiled once; rendered plainly (notation) or prettily (display)."""

    def __init__(self, parts: list):
        self.parts = parts  # str, or (fn, type)

    @classmethod
    def compile(cls, cc, key, locals_: dict) -> "Template":
        path = cc._p(key)
        doc = cc.c.doc
        text = str(doc.get(path))
        return cls(compile_holes(text, cc.c.scope, doc, path, 0, locals_))

    def render(self, st, pretty: bool) -> str:
        return self.format(st, self.capture(st), pretty)

    def capture(self, st) -> tuple:
        """The values of the holes now (lists frozen), so that the text can be rendered later by `format`."""
        return tuple(tupled(part[0](st)) for part in self.parts if not isinstance(part, str))

    def format(self, ctx, values: tuple, pretty: bool) -> str:
        """The text with `values` (from `capture`) in the holes; `ctx` gives the game and the player count."""
        held = iter(values)
        return "".join(part if isinstance(part, str) else _text(ctx, next(held), part[1], pretty)
                       for part in self.parts)


class _Line:
    """A template shown only when its condition holds."""

    def __init__(self, when, template: Template):
        self.when, self.template = when, template

    def render(self, st, pretty: bool = True) -> str | None:
        values = self.capture(st)
        return None if values is None else self.format(st, values, pretty)

    def capture(self, st) -> tuple | None:
        """The template's values now, or None when the line's condition does not hold."""
        if self.when is not None and not self.when(st):
            return None
        return self.template.capture(st)

    def format(self, ctx, values: tuple | None, pretty: bool = True) -> str | None:
        if values is None:
            return None
        text = self.template.format(ctx, values, pretty)
        return text if text.strip() else None


def _lines(cc, key, locals_: dict) -> list:
    """Template lines at `key` (a phase key, or a path tuple such as ("actions", 0, "log"))."""
    value = cc.c.doc.get(cc._p(key))
    items = value if isinstance(value, list) else [value]
    base = key if isinstance(key, tuple) else (key,)
    keys = [base + (i,) if isinstance(value, list) else base for i in range(len(items))]
    out = []
    for item, k in zip(items, keys):
        if isinstance(item, dict):
            when = cc.expr(k + ("when",), "bool", locals_) if "when" in item else None
            out.append(_Line(when, Template.compile(cc, k + ("text",), locals_)))
        else:
            out.append(_Line(None, Template.compile(cc, k, locals_)))
    return out


class Action:
    """A compiled action; `guards[j]` are the conjuncts of its `when` that need only the first j parameters;
    `domains` the names each text parameter may take (its list's known names, e.g. the suits; None if unknown)."""

    def __init__(self, name, params, guards, do, label, next_, log, bots, domains=()):
        self.name, self.params, self.guards, self.do = name, params, guards, do
        self.label, self.next, self.log, self.bots = label, next_, log, bots
        self.domains = tuple(domains) or (None,) * len(params)


class TurnsPhase(Phase):
    """A compiled `turns` phase: its actions (also `by_name`), the seat rules (`players`, `first`, `next_seat`,
    `until`), the statements run around every action, and its templates; `names` are the locals it binds."""

    type_name = "turns"
    __slots__ = ("actions", "players", "first", "next_seat", "until", "before", "after", "prompt_t", "show", "log",
                 "by_name", "names")

    def __init__(self, pid: str, when: Callable | None, label: str, *, actions: list, players: Callable,
                 first: Callable | None, next_seat: Callable | None, until: Callable, before: Callable | None,
                 after: Callable | None, prompt_t: Template | None, show: list, log: list):
        super().__init__(pid, when, label)
        self.actions: list[Action] = actions
        self.players, self.first, self.next_seat, self.until = players, first, next_seat, until
        self.before, self.after = before, after
        self.prompt_t = prompt_t
        self.show: list[_Line] = show
        self.log: list[_Line] = log
        self.by_name = {a.name: a for a in actions}
        self.names = {"me"} | {p[0] for a in actions for p in a.params}

    # -- compiling ------------------------------------------------------------------------------------------------
    @classmethod
    def compile(cls, spec: dict, cc) -> "TurnsPhase":
        me: dict[str, tuple] = {"me": (T.SEAT, None)}
        actions: list[Action] = []
        names: set[str] = set()
        for i, a in enumerate(spec["actions"]):
            path = ("actions", i)
            name = str(a["name"])
            if name in names:
                raise cc.error(f"two actions are named {name!r}", path + ("name",), "action names must be unique")
            names.add(name)
            local = dict(me)
            params = compile_for(cc, path, local)
            guards = _guards(cc, path + ("when",), local, [p[0] for p in params]) if "when" in a else \
                [[] for _ in range(len(params) + 1)]
            do = cc.stmts(path + ("do",), local) if "do" in a else None
            label = Template.compile(cc, path + ("label",), local) if "label" in a else None
            next_ = cc.expr(path + ("next",), "seat", local) if "next" in a else None
            log = _lines(cc, path + ("log",), local) if "log" in a else []
            bots = cc.expr(path + ("bots",), "num", local) if "bots" in a else None
            actions.append(Action(name, params, guards, do, label, next_, log, bots,
                                  [local[var][1] for var, _, _ in params]))
        return cls(
            spec["id"], cc.when(), spec.get("label", ""),
            actions=actions,
            players=cc.expr("players", "list[seat]") if "players" in spec else (lambda st: st.active),
            first=cc.expr("first", "seat") if "first" in spec else None,
            next_seat=cc.expr("next", "seat", me) if "next" in spec else None,
            until=cc.expr("until", "bool"),
            before=cc.stmts("before", me) if "before" in spec else None,
            after=cc.stmts("after", me) if "after" in spec else None,
            prompt_t=Template.compile(cc, "prompt", me) if "prompt" in spec else None,
            show=_lines(cc, "show", me) if "show" in spec else [],
            log=_lines(cc, "log", me) if "log" in spec else [],
        )

    # -- flow -------------------------------------------------------------------------------------------------------
    def start(self, st) -> None:
        players = list(self.players(st))
        first = self.first(st) if self.first is not None else (players[0] if players else None)
        st.ph = {"seat": first, "over": bool(self.until(st)) or first is None}

    def actor(self, st) -> int | None:
        return st.ph["seat"]

    def done(self, st) -> bool:
        return st.ph["over"]

    # -- legality -----------------------------------------------------------------------------------------------------
    def legal(self, st) -> list:
        me = st.ph["seat"]
        loc = st.loc
        saved = {k: loc.get(k, _MISSING) for k in self.names}
        moves: list[Move] = []
        try:
            loc["me"] = me
            for action in self.actions:
                if _passes(st, action.guards[0]):
                    self._collect(st, action, 0, (action.name,), moves)
        finally:
            _restore(loc, saved)
        return moves

    def _collect(self, st, action: Action, i: int, values: tuple, out: list) -> None:
        """Moves of `action` with the first i parameters bound to `values` (their guards already hold)."""
        if i == len(action.params):
            out.append(Move("action", values))
            return
        var, coll, _ = action.params[i]
        guards = action.guards[i + 1]
        loc = st.loc
        for v in list(coll(st)):
            loc[var] = v
            if _passes(st, guards):
                self._collect(st, action, i + 1, values + (tuple(v) if type(v) is list else v,), out)

    def _bind(self, st, move: Move, seat: int | None = None) -> tuple:
        """Bind `me` and the move's parameters; returns (action, saved locals) — restore with _restore."""
        action = self.by_name[move.value[0]]
        loc = st.loc
        saved = {k: loc.get(k, _MISSING) for k in self.names}
        loc["me"] = st.ph["seat"] if seat is None else seat
        for (var, _, _), v in zip(action.params, move.value[1:]):
            loc[var] = list(v) if type(v) is tuple else v  # a list parameter (subsets …) is a tuple in the move
        return action, saved

    # -- applying -----------------------------------------------------------------------------------------------------
    def apply(self, st, move: Move) -> None:
        me = st.ph["seat"]
        label = self._label_values(st, move)
        notes = ()
        mark = len(st.events)  # the move's own line goes before what its statements log
        action, saved = self._bind(st, move)
        try:
            if self.before is not None:
                self.before(st)
            if action.do is not None:
                action.do(st)
            if self.after is not None:
                self.after(st)
            notes = tuple(line.capture(st) for line in action.log + self.log)
            if action.next is not None:
                nxt = action.next(st)
            elif self.next_seat is not None:
                nxt = self.next_seat(st)
            else:
                players = list(self.players(st))
                # the next of `players` (a list that may shrink as seats finish: then its first, or nobody)
                nxt = players[(players.index(me) + 1) % len(players)] if me in players else \
                    players[0] if players else None
        finally:
            _restore(st.loc, saved)
        st.events.insert(mark, Event("turn", me, self.cards_of(move), (move, label, notes), phase=self.id))
        st.ph["seat"] = nxt
        st.ph["over"] = bool(self.until(st)) or nxt is None  # nobody to move next ends the phase, as at its start

    def cards_of(self, move: Move) -> tuple:
        """The cards a move names (its card and list-of-card parameters), for the event record."""
        out = []
        for (_, _, kind), value in zip(self.by_name[move.value[0]].params, move.value[1:]):
            if kind == T.CARD:
                out.append(value)
            elif kind == T.list_of(T.CARD):
                out.extend(value)
        return tuple(out)

    # -- text ---------------------------------------------------------------------------------------------------------
    def _label_values(self, st, move: Move) -> tuple | None:
        """The values of the action's `label` template for `move` (None: the action has no label)."""
        action = self.by_name[move.value[0]]
        if action.label is None:
            return None
        action, saved = self._bind(st, move)
        try:
            return action.label.capture(st)
        finally:
            _restore(st.loc, saved)

    def _label(self, st, move: Move, pretty: bool) -> str:
        return self._format_label(st, move, self._label_values(st, move), pretty)

    def _format_label(self, ctx, move: Move, values: tuple | None, pretty: bool) -> str:
        action = self.by_name[move.value[0]]
        if action.label is not None:
            return action.label.format(ctx, values, pretty)
        return " ".join([action.name] + [_text(ctx, v, p[2], pretty) for p, v in zip(action.params, move.value[1:])])

    def event_text(self, ctx, event) -> str:
        """The log line of a move: `North: clear with 7♥ — scores 20`."""
        move, label, notes = event.value
        action = self.by_name[move.value[0]]
        line = f"{ctx.game.seat_name(event.seat, ctx.n)}: {self._format_label(ctx, move, label, True)}"
        said = [note.format(ctx, values) for note, values in zip(action.log + self.log, notes)]
        said = [text for text in said if text]
        return line + " — " + "; ".join(said) if said else line

    def notation(self, st, move: Move) -> str:
        return self._label(st, move, False)

    def describe(self, st, move: Move) -> str:
        return self._label(st, move, True)

    def explain(self, st, text: str) -> str:
        deck = st.game.deck
        words = text.strip().upper().replace(",", " ").split()
        cards = {deck.index[w] for w in words if w in deck.index}
        moves = self.legal(st)
        if cards:
            with_card = [m for m in moves if any(v in cards or (type(v) is tuple and cards.intersection(v))
                                                 for v in m.value[1:])]
            shown = ", ".join(deck.pretty(c) for c in sorted(cards))
            if with_card:
                return (f"'{text}' is not a move now; with {shown} you can: "
                        + "; ".join(self.notation(st, m) for m in with_card))
            return f"'{text}' is not a move now, and no move uses {shown}"
        return f"'{text}' is not a move now (type 'moves' to list them, or a move's number)"

    def prompt(self, st) -> str:
        if self.prompt_t is None:
            return self.label
        loc = st.loc
        saved = {"me": loc.get("me", _MISSING)}
        loc["me"] = st.ph["seat"]
        try:
            return self.prompt_t.render(st, True)
        finally:
            _restore(loc, saved)

    def status(self, view, seat: int) -> list:
        """The `show` lines for `seat` (rendered on its view), for the screen under the table."""
        loc = view.loc
        saved = {"me": loc.get("me", _MISSING)}
        loc["me"] = seat
        try:
            return [t for t in (line.render(view) for line in self.show) if t]
        finally:
            _restore(loc, saved)

    # -- bots ---------------------------------------------------------------------------------------------------------
    def preference(self, view, move: Move, seat: int):
        """How much a bot likes `move` by the action's `bots` expression (0 without one), on its view."""
        action, saved = self._bind(view, move, seat)
        try:
            return action.bots(view) if action.bots is not None else 0
        finally:
            _restore(view.loc, saved)

    def bot_choice(self, view, seat: int, moves: list, rng) -> Move:
        """A best move by the actions' `bots` expressions; ties broken by `rng`."""
        scored = [(self.preference(view, m, seat), m) for m in moves]
        best = max(s for s, _ in scored)
        return rng.choice([m for s, m in scored if s == best])


def _passes(st, guards: list) -> bool:
    for guard in guards:
        if not guard(st):
            return False
    return True


def _guards(cc, path: tuple, locals_: dict, params: list) -> list:
    """Split `when` at its top-level `and`s; each conjunct is checked as soon as the parameters it mentions (also
    through defines) are bound, so a condition on the state alone is checked once, not once per candidate."""
    doc = cc.c.doc
    text = doc.get(cc._p(path))
    text = str(text).lower() if isinstance(text, bool) else str(text)
    source = SourceRef(doc, cc._p(path))
    tree = parse(text, "expr", source)
    parts = tree.children if isinstance(tree, Tree) and tree.data == "and_" else [tree]
    guards: list[list] = [[] for _ in range(len(params) + 1)]
    for part in parts:
        compiler = Compiler(cc.c.scope, source, locals_)
        compiled = compiler.expect(part, compiler.expr(part), T.BOOL, "a condition" if len(parts) == 1
                                   else "each side of 'and'")
        names = names_in(part, cc.c.scope.macros)
        depth = max((i + 1 for i, p in enumerate(params) if p in names), default=0)
        guards[depth].append(compiled.fn)
    return guards


def _restore(loc: dict, saved: dict) -> None:
    for k, v in saved.items():
        if v is _MISSING:
            loc.pop(k, None)
        else:
            loc[k] = v



