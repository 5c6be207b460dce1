"""Moves as integers: a stable, dense action space per game and player count, for learning code and search.

`ActionSpace(game, players)` numbers every move the game's phases can ever produce — 0 … `num_actions - 1` — from
the compiled Game alone, so a move has the same id in every deal (a player count has its own numbering: seats
are values). `action_id(move)` and `move_of(id)` convert; `legal_mask(state)` is a list of
booleans, True at the ids of `engine.legal_moves(state)`, and `legal_ids(state)` the sorted ids themselves.

The space is a sequence of blocks, one per kind of move, in this order (a block is left out when no phase makes
such moves):

| block | moves | values |
|---|---|---|
| `card` | playing or discarding a card | every card of the deck, by card number |
| `pass`, `bid`, `hold`, `double`, `redouble` | auction calls | one `pass`; each bid of the ladder; `hold` at each bid of the ladder; one `double`, one `redouble` (auctions with doubles) |
| `option` | named options: of `choose` phases, trick announcements, `done` (discard), the declare answers | names, in phase order |
| `choice` | a `choose` phase's pick from its `from:` list | all values of the list's type (below), or 0 … its `max`, in phase order |
| `say` | a declare step's number | the integers 0 … the largest step `max` (else 0 … `int_values` - 1) |
| `claim/K` | a declare claim whose key has K numbers | K-tuples: position i up to step i's largest `max` |
| `action:NAME` | a `turns` action with its parameters | the action's parameter values, all combinations |
| `part:TYPE`, `end` | steps of a move chosen in several ids (below) | the type's values; one |

A list that reads nothing from the state (`for: "k in [2, 3, 4]"`) gives its own values; otherwise the values of
its element type: a card — each card of the deck; a seat — 0 … players - 1; a bid — each bid of the ladder; a
bool — false, true; text — the names the spec allows there (its domain, e.g. the suits); an int — 0 …
`int_values` - 1 (INT_VALUES = 128 unless `ActionSpace(..., int_values=N)` says otherwise). A tuple of values is numbered in mixed radix, the last position fastest. A value outside its type's
values (an int of 200, text with no known domain) cannot be numbered: `ActionSpace` or `action_id` raises
ValueError saying which.

A `turns` action taking a list (`s in takes(c)`: a set of cards captured) is chosen in several ids: its head (the
action with the parameters before the list, in `action:NAME`), one `part:TYPE` id per element, then `end`.
`action_ids(move)` and `move_of_ids(ids)` convert; `legal_ids(st, pending)` are the next ids of the legal moves
whose ids begin with `pending`; `choose(st, pending, id)` says whether a whole move is made (docs/actions.md).

>>> from interp.engine import match as engine
>>> from interp.spec.compiler import load_game
>>> game = load_game("docs/examples/tiny.yaml")
>>> space = ActionSpace(game, players=2)
>>> space.num_actions, [(b.name, b.size) for b in space.blocks]
(24, [('card', 24)])
>>> st = engine.new_match(game, players=2, seed=7)
>>> ids = space.legal_ids(st)
>>> [space.move_of(i) for i in ids] == engine.legal_moves(st)
True
>>> all(space.action_id(space.move_of(i)) == i for i in range(space.num_actions))
True
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from interp.dsl import types as T
from interp.engine.match import legal_moves
from interp.engine.phases.declare import EQUAL, GOOD, NOT_GOOD, PASS
from interp.engine.phases.discard import DONE
from interp.engine.phases.trick_calls import call_name
from interp.engine.state import Move

INT_VALUES = 128
"""Integers in moves (a declared number, an int parameter or choice) are numbered 0 … INT_VALUES - 1."""


@dataclass(frozen=True)
class Block:
    """A run of ids [offset, offset + size) for moves of one `kind`: `values` (one per id) or, for tuples,
    `radices` — the per-position value lists, numbered in mixed radix with `prefix` before them."""

    name: str
    kind: str
    offset: int
    values: tuple = ()
    radices: tuple = ()
    prefix: tuple = ()
    whole: bool = True  # False: its ids are steps of a move chosen in several ids (see `Steps`)

    @property
    def size(self) -> int:
        if not self.radices:
            return len(self.values)
        size = 1
        for values in self.radices:
            size *= len(values)
        return size

    def move(self, index: int) -> Move:
        if not self.radices:
            return Move(self.kind, self.values[index])
        parts = []
        for values in reversed(self.radices):
            index, digit = divmod(index, len(values))
            parts.append(values[digit])
        return Move(self.kind, self.prefix + tuple(reversed(parts)))


@dataclass(frozen=True)
class Steps:
    """How a `turns` action with a list parameter is chosen id by id: first its head id (the action with its
    parameters before the first list, from the `action:NAME` block), then each later parameter — a list as one
    `part:TYPE` id per element, in the move's order, then the `end` id; any other value as one `part:TYPE` id."""

    head: int  # how many parameters the head id carries
    types: tuple[str, ...]  # the types of the later parameters


@dataclass(frozen=True)
class Step:
    """What choosing one more id made: the ids chosen so far of a move not yet whole (`pending`), or the whole
    legal `move` (then `pending` is empty)."""

    pending: tuple[int, ...]
    move: Move | None


class ActionSpace:
    """Every move of `game` with `players` seats, numbered densely and the same way in every deal."""

    def __init__(self, game, players: int, int_values: int = INT_VALUES):
        self.game, self.players, self.int_values = game, players, int_values
        self.blocks: list[Block] = []
        self._index: dict = {}  # (kind, value) -> id, for blocks with values
        self._tuples: dict = {}  # (kind, prefix, length) -> (block, {value: digit} per position)
        self.steps: dict[str, Steps] = {}  # action name -> how it is chosen, for actions taking a list
        self._build()
        self.num_actions = sum(b.size for b in self.blocks)
        self.max_ids = max([1] + [self._most_ids(s) for s in self.steps.values()])
        """The most ids one move takes (1 unless some move is chosen in steps)."""

    # -- conversions --------------------------------------------------------------------------------------------------
    def action_id(self, move: Move) -> int:
        """The id of `move`; ValueError if the game can make no such move, or makes it in several ids (a move
        carrying a list: see `action_ids`)."""
        if self._steps_of(move) is not None:
            raise ValueError(f"{move} is chosen in several ids: use action_ids")
        return self._id(move)

    def action_ids(self, move: Move) -> tuple[int, ...]:
        """The ids that choose `move`, in order: one for most moves; for an action taking a list, its head, then
        each element and `end` (see `Steps`)."""
        steps = self._steps_of(move)
        if steps is None:
            return (self._id(move),)
        name, values = move.value[0], move.value[1:]
        ids = [self._id(Move("action", (name, *values[:steps.head])))]
        for type_, value in zip(steps.types, values[steps.head:]):
            if T.is_list(type_):
                ids.extend(self._part_id(T.element(type_), v, move) for v in value)
                ids.append(self._index[("end", None)])
            else:
                ids.append(self._part_id(type_, value, move))
        return tuple(ids)

    def move_of_ids(self, ids: Sequence[int]) -> Move:
        """The move that `ids` choose (the inverse of `action_ids`); ValueError if they choose no whole move."""
        block = self._block_of(ids[0]) if ids else None
        if block is not None and block.whole and len(ids) == 1:
            return block.move(ids[0] - block.offset)
        head = block.move(ids[0] - block.offset) if block is not None and block.kind == "action" else None
        steps = self.steps.get(head.value[0]) if head is not None else None
        if head is None or steps is None:
            raise ValueError(f"ids {list(ids)} are not the ids of one move")
        values, rest = list(head.value), list(ids[1:])
        for type_ in steps.types:
            if T.is_list(type_):
                items = []
                while rest and rest[0] != self._index[("end", None)]:
                    items.append(self._part_value(T.element(type_), rest.pop(0), ids))
                if not rest:
                    raise ValueError(f"ids {list(ids)}: a list is not closed by `end`")
                rest.pop(0)
                values.append(tuple(items))
            else:
                values.append(self._part_value(type_, rest.pop(0) if rest else -1, ids))
        if rest:
            raise ValueError(f"ids {list(ids)}: {len(rest)} ids after the whole move")
        return Move("action", tuple(values))

    def is_whole(self, action: int) -> bool:
        """Whether id `action` is a whole move by itself (not a step of a move chosen in several ids)."""
        return self._block_of(action).whole

    def _id(self, move: Move) -> int:
        found = self._index.get((move.kind, move.value), None) if _hashable(move.value) else None
        if found is not None:
            return found
        if isinstance(move.value, tuple):
            prefix = move.value[:1] if move.kind == "action" else ()
            entry = self._tuples.get((move.kind, prefix, len(move.value) - len(prefix)))
            if entry is not None:
                block, digits = entry
                index = 0
                for value, table in zip(move.value[len(prefix):], digits):
                    if value not in table:
                        raise ValueError(f"{move} is outside the action space: {value!r} is not one of its values")
                    index = index * len(table) + table[value]
                return block.offset + index
        raise ValueError(f"{move} is outside the action space of {self.game.name} ({self.players} players)")

    def move_of(self, action: int) -> Move:
        """The move numbered `action` (0 <= action < num_actions); ValueError for a step of a move chosen in
        several ids (`is_whole` is false: see `move_of_ids`)."""
        block = self._block_of(action)
        if not block.whole:
            raise ValueError(f"action {action} ({block.name}) is one step of a move: see move_of_ids")
        return block.move(action - block.offset)

    def legal_ids(self, st, pending: Sequence[int] = (), moves: Sequence[Move] | None = None) -> list[int]:
        """The ids that may be chosen now, sorted: those of the legal moves; where some move is chosen in several
        ids, the next ids of the legal moves whose ids begin with `pending` (the ids chosen so far). `moves`:
        `engine.legal_moves(st)`, if the caller has them already."""
        moves = legal_moves(st) if moves is None else moves
        if not self.steps:
            if pending:
                raise ValueError(f"{self.game.name} chooses every move in one id; nothing is pending")
            return sorted(self._id(m) for m in moves)
        k, pending = len(pending), tuple(pending)
        return sorted({ids[k] for ids in map(self.action_ids, moves) if ids[:k] == pending})

    def legal_mask(self, st, pending: Sequence[int] = ()) -> list[bool]:
        """num_actions booleans: True at every id of `legal_ids(st, pending)`."""
        mask = [False] * self.num_actions
        for action in self.legal_ids(st, pending):
            mask[action] = True
        return mask

    def choose(self, st, pending: Sequence[int], action: int, moves: Sequence[Move] | None = None) -> Step:
        """Choose id `action` after the ids `pending`: the legal move they make whole, or the longer pending
        prefix; ValueError if no legal move's ids begin so. `moves` as for `legal_ids`."""
        chosen = (*pending, action)
        found = False
        for move in legal_moves(st) if moves is None else moves:
            ids = self.action_ids(move)
            if ids == chosen:
                return Step((), move)
            found = found or ids[:len(chosen)] == chosen
        if not found:
            raise ValueError(f"action {action} after {list(pending)} begins no legal move")
        return Step(chosen, None)

    def step_text(self, action: int) -> str:
        """A step of a move chosen in several ids, as words: the head (`take 7D …`), an element (`+ 3C`) or
        `end`."""
        block = self._block_of(action)
        if block.kind == "end":
            return "end"
        value = block.move(action - block.offset).value
        if block.kind.startswith("part:"):
            return "+ " + self._shown(block.kind[len("part:"):], value)
        name, *params = value
        steps = self.steps[name]
        action_ = next(a for p in self.game.phases if p.type_name == "turns" for a in p.actions if a.name == name)
        types = [type_ for _, _, type_ in action_.params[:steps.head]]
        return " ".join([name, *(self._shown(t, v) for t, v in zip(types, params)), "…"])

    def _block_of(self, action: int) -> Block:
        if not 0 <= action < self.num_actions:
            raise ValueError(f"action {action} is not in 0 … {self.num_actions - 1}")
        for block in self.blocks:
            if action < block.offset + block.size:
                return block
        raise AssertionError("blocks cover 0 … num_actions - 1")

    def _steps_of(self, move: Move) -> Steps | None:
        if move.kind != "action" or not isinstance(move.value, tuple) or not move.value:
            return None
        return self.steps.get(move.value[0])

    def _part_id(self, type_: str, value: Any, move: Move) -> int:
        found = self._index.get((f"part:{type_}", value))
        if found is None:
            raise ValueError(f"{move} is outside the action space: {value!r} is not one of its values")
        return found

    def _part_value(self, type_: str, action: int, ids: Sequence[int]) -> Any:
        block = self._block_of(action) if 0 <= action < self.num_actions else None
        if block is None or block.kind != f"part:{type_}":
            raise ValueError(f"ids {list(ids)}: expected a {type_} step, not {action}")
        return block.values[action - block.offset]

    def _shown(self, type_: str, value: Any) -> str:
        return self.game.show(value, type_, self.players) or str(value)

    def _most_ids(self, steps: Steps) -> int:
        """The most ids a move chosen by `steps` takes: a list holds each of its element type's values once."""
        most = 1
        for type_ in steps.types:
            if T.is_list(type_):
                most += len(self._domain(T.element(type_), None, where="")) + 1
            else:
                most += 1
        return most

    # -- building -------------------------------------------------------------------------------------------------------
    def _build(self) -> None:
        phases = self.game.phases
        kinds = {p.type_name for p in phases}
        if kinds & {"tricks", "discard"}:
            self._values("card", "card", range(len(self.game.deck)))
        if "auction" in kinds:
            ladder = range(len(self.game.bids))
            self._values("pass", "pass", [None])
            self._values("bid", "bid", ladder)
            if any(p.holds for p in phases if p.type_name == "auction"):
                self._values("hold", "hold", ladder)
            if any(p.doubles for p in phases if p.type_name == "auction"):
                self._values("double", "double", [None])
                self._values("redouble", "redouble", [None])
        self._values("option", "option", _unique(name for p in phases for name in self._options(p)))
        self._values("choice", "choice", _unique(
            v for p in phases if p.type_name == "choose" and p.source
            for v in _constant(p.source) or self._choices(p)))
        categories = [c for p in phases if p.type_name == "declare" for c in p.categories]
        if categories:
            self._values("say", "say", self._declared([b for c in categories for b in c.maxima]))
            for length in sorted({len(c.steps) for c in categories}):
                alike = [c for c in categories if len(c.steps) == length]
                self._tuple(f"claim/{length}", "claim", (),
                            [self._declared([c.maxima[i] for c in alike]) for i in range(length)])
        later: list[str] = []  # the types of the parameters chosen as steps, in order
        for p in phases:
            for action in p.actions if p.type_name == "turns" else ():
                types = [type_ for _, _, type_ in action.params]
                head = next((i for i, type_ in enumerate(types) if T.is_list(type_)), len(types))
                radices = [_constant(fn) or self._domain(type_, domain, where=f"action {action.name} ({var})")
                           for (var, fn, type_), domain in zip(action.params[:head], action.domains)]
                self._tuple(f"action:{action.name}", "action", (action.name,), radices, whole=head == len(types))
                if head < len(types):
                    self.steps[action.name] = Steps(head, tuple(types[head:]))
                    later.extend(types[head:])
        for type_ in _unique(T.element(t) if T.is_list(t) else t for t in later):
            self._values(f"part:{type_}", f"part:{type_}",
                         self._domain(type_, None, where=f"a step of type {type_}"), whole=False)
        if any(T.is_list(t) for t in later):
            self._values("end", "end", [None], whole=False)

    def _options(self, phase) -> list[str]:
        """The option names a phase may offer: a trick announcement with `for:` parameters gives one per value of
        its lists (their own values when they read nothing from the state, else their type's)."""
        if phase.type_name != "tricks":
            return _options(phase)
        out = []
        for a in phase.announcements:
            if not a.params:
                out.append(a.name)
                continue
            radices = [[(v, type_) for v in _constant(fn) or
                        self._domain(type_, domain, where=f"announcement {a.name} ({var})")]
                       for (var, fn, type_), domain in zip(a.params, a.domains)]
            out.extend(call_name(a.name, list(values), self.game.deck) for values in itertools.product(*radices))
        return out

    def _choices(self, phase) -> Sequence:
        """The values a `choose` phase's pick may carry: its type's, or 0 … its declared `max` (numbers)."""
        if phase.most is not None:
            return range(phase.most.most + 1)
        return self._domain(phase.choice_type[0], phase.choice_type[1], where=f"phase {phase.id}")

    def _declared(self, bounds: list) -> range:
        """The numbers a declare step may say, where every step concerned declares its `max` (a Bound): 0 … the
        largest; else 0 … int_values - 1."""
        if bounds and all(b is not None for b in bounds):
            return range(max(b.most for b in bounds) + 1)
        return range(self.int_values)

    def _offset(self) -> int:
        return sum(b.size for b in self.blocks)

    def _values(self, name: str, kind: str, values: Iterable, whole: bool = True) -> None:
        values = tuple(v for v in values if (kind, v) not in self._index)
        if not values:
            return
        block = Block(name, kind, self._offset(), values=values, whole=whole)
        self._index.update(((kind, v), block.offset + i) for i, v in enumerate(values))
        self.blocks.append(block)

    def _tuple(self, name: str, kind: str, prefix: tuple, radices: Sequence, whole: bool = True) -> None:
        radices = tuple(tuple(r) for r in radices)
        if not radices:
            self._values(name, kind, [prefix], whole=whole)
            return
        block = Block(name, kind, self._offset(), radices=radices, prefix=prefix, whole=whole)
        self._tuples[(kind, prefix, len(radices))] = (block, [{v: i for i, v in enumerate(r)} for r in radices])
        self.blocks.append(block)

    def _domain(self, type_: str, domain: Any, where: str) -> Sequence:
        """The values a move may carry where the DSL type is `type_` (text: `domain`, its allowed names)."""
        if type_ == T.CARD:
            return range(len(self.game.deck))
        if type_ == T.SEAT:
            return range(self.players)
        if type_ == T.BID:
            return self.game.bids
        if type_ == T.BOOL:
            return (False, True)
        if type_ == T.INT:
            return range(self.int_values)
        if type_ == T.STR and domain:
            return sorted(domain)
        if T.is_list(type_):
            raise ValueError(f"{where}: a choice of a {type_} cannot be numbered densely (there are 2 ** (deck "
                             "size) such values); a turns action taking a list is chosen in steps instead")
        raise ValueError(f"{where}: moves carrying {type_} values cannot be numbered"
                         + (" (text with no known set of names)" if type_ == T.STR else ""))


def has_action_space(game) -> bool:
    """Whether the game's moves can be numbered densely: not if a move carries a value with no bounded set of
    values (text with no known names, a `choose` phase picking a list)."""
    try:
        ActionSpace(game, game.default_players)
    except ValueError:
        return False
    return True


def _options(phase) -> list[str]:
    """The option names a phase may offer."""
    kind = phase.type_name
    if kind == "choose":
        return [option[0] for option in phase.options]
    if kind == "discard":
        return [DONE.value]
    if kind == "declare":
        return [answer.value for answer in (GOOD, NOT_GOOD, EQUAL, PASS)]
    return []


class _ReadsState(Exception):
    pass


class _NoState:
    """A stand-in for the state that refuses every read: a DSL closure that returns with it is a constant."""

    def __getattr__(self, name: str) -> Any:
        raise _ReadsState(name)


def _constant(fn) -> list | None:
    """The value of a list expression that reads nothing from the state (`[2, 3, 4]`), else None."""
    try:
        value = fn(_NoState())
    except Exception:  # any failure means it needs the state; the type's values stand in
        return None
    return _unique(value) if isinstance(value, list) and all(_hashable(v) for v in value) else None


def _unique(values: Iterable) -> list:
    out, seen = [], set()
    for v in values:
        if v not in seen:
            seen.add(v)
            out.append(v)
    return out


def _hashable(value: Any) -> bool:
    return not isinstance(value, (list, dict))

