"""The phase protocol every building block follows, and the helpers phases share.

A phase is compiled once from its spec mapping. At run time it keeps its own small, flat, JSON-able dict in
`state.ph` (or a record that reads as that dict, `phases.progress.Progress`: `tricks`, `auction`, `discard` and
`choose` keep one; see `progress_of`). An automatic phase (a deal, effects) does its work in `start`; an
interactive one names the seat to move (`actor`), lists `legal` moves, `apply`s one, and says when it is `done`;
the engine makes a move through `play` (log it, apply it, say whether the phase is done).
"""
from __future__ import annotations

from typing import Any, Callable, NamedTuple

from interp.engine.state import Move, State
from interp.errors import Location, SpecRuntimeError


class Bound(NamedTuple):
    """A number's declared `max` (from 0) and where the spec writes it: the range adapters number it in, and the
    located error when a game gives a number outside it."""

    most: int
    location: Location | None = None
    source_line: str | None = None

    def check(self, value: Any, what: str) -> None:
        """Raise a located SpecRuntimeError when `value` (said of `what`) is outside 0 … most."""
        if not 0 <= value <= self.most:
            raise SpecRuntimeError(f"{what} is {value}, outside the declared 0 … {self.most} (max)", self.location,
                                   "raise the max, or check the expression it bounds", self.source_line)


class Phase:
    """Base class: `when` (a compiled DSL condition or None) decides whether the phase runs in a deal."""

    type_name = ""
    interactive = True
    __slots__ = ("id", "when", "label", "location", "source_line")

    def __init__(self, pid: str, when: Callable | None, label: str = ""):
        self.id = pid
        self.when = when
        self.label = label or pid
        self.location: Location | None = None  # where the phase is written in its spec (set by the compiler)
        self.source_line: str | None = None

    def start(self, st: State) -> None:
        st.ph = {}

    def progress_of(self, values: dict) -> Any:
        """The phase's `state.ph` from `values`, the dict a saved state holds (a phase keeping its progress in a
        record of its own reads it back here; most keep the dict)."""
        return values

    def actor(self, st: State) -> int | None:
        return None

    def legal(self, st: State) -> list:
        return []

    def apply(self, st: State, move: Move) -> bool | None:
        """Make `move` (a legal one). A phase may return whether it is now `done`, which spares the engine asking;
        None (what most phases return) means: ask."""
        raise NotImplementedError

    def done(self, st: State) -> bool:
        return True

    def play(self, st: State, move: Move, history: list) -> bool:
        """Make `move` (a legal one) for the seat to move, logging it in `history` first as `[deal number, seat,
        notation]`; whether the phase is now `done`. The engine makes every move through here: this one asks
        `actor`, `notation`, `apply` and `done` in turn; a phase may do it all in one lean body instead."""
        game = st.game
        if move.kind == "card" and game.plain_notation[st.phase]:  # `notation`'s own rule, without the call
            history.append([st.deal_no, self.actor(st), game.deck.codes[move.value]])
        else:
            history.append([st.deal_no, self.actor(st), self.notation(st, move)])
        over = self.apply(st, move)
        return self.done(st) if over is None else over

    def held(self, st: State) -> list:
        """Cards the phase holds outside every zone (a trick being played), for card accounting."""
        return []

    def notation(self, st: State, move: Move) -> str:
        """The text a player types for `move`; also what the move log stores."""
        if move.kind == "card":
            return st.game.deck.codes[move.value]
        return str(move.value)

    def describe(self, st: State, move: Move) -> str:
        """A longer label for menus and logs (defaults to the notation, with suit symbols)."""
        if move.kind == "card":
            return st.game.deck.pretty(move.value)
        return self.notation(st, move)

    def explain(self, st: State, text: str) -> str:
        """Why `text` is not a legal move now (the prompt shows this and asks again)."""
        return f"'{text}' is not a legal move here"

    def prompt(self, st: State) -> str:
        return self.label


def either(words: list) -> str:
    """Alternatives as a question lists them: `a`, `a or b`, `a, b or c` (what a prompt offers, made from the
    moves legal now, so that it never names one that is not).

    >>> either(["stay", "fold", "raise"]), either(["fold"])
    ('stay, fold or raise', 'fold')
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def with_locals(st: State, values: dict, fn: Callable) -> Any:
    """Evaluate `fn(st)` with DSL local names bound, restoring what was there."""
    loc = st.loc
    if not loc:  # the common case, nothing bound yet: bind, evaluate, unbind all
        loc.update(values)
        try:
            return fn(st)
        finally:
            loc.clear()
    saved = {k: loc.get(k, _MISSING) for k in values}
    loc.update(values)
    try:
        return fn(st)
    finally:
        for k, v in saved.items():
            if v is _MISSING:
                loc.pop(k, None)
            else:
                loc[k] = v


_MISSING = object()


def kept_where(items: list, name: str, condition: Callable) -> Callable:
    """A closure listing the `items` for which `condition` holds with the DSL local `name` bound to each in turn;
    run it with `with_locals`, which restores the locals afterwards."""
    def kept(ctx):
        loc = ctx.loc
        out = []
        for item in items:
            loc[name] = item
            if condition(ctx):
                out.append(item)
        return out
    return kept
