"""Whose turn the hidden cards make it: a move made again on a world with some free cards put elsewhere.

In some games the seat to move next depends on the hidden hands (a seat that could add a card of a rank on the
table is asked, one that could not is passed over). The view shows who moved; the sampler must deal hands that
make the same seats move. Each question is answered by making the move again from the world before it, with cards
written in other places (nothing else replayed), and reading whose turn it is and what it may do (`turn`):

- `turn_fix`: a single exchange of two cards that lets the view's next decision be made, and undoes no earlier one;
- `turn_bans`: the cards a seat's hidden zone cannot have held: putting any one of them there, in place of any of
  the free cards it held, gives the turn to another seat. A rule that reads a hand only through "does it hold
  some card such that …" makes this exact; for any other rule a ban is an approximation that the check of
  every world (replayed in full) keeps honest.
- `turns_vary`: whether the turn depends on the hidden cards at all here (the same move made on a few worlds
  with the free cards shuffled gives another turn), so that the bans are looked for only where they can exist.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
>>> move = engine.legal_moves(st)[0]
>>> turn_after(st, move, []) == turn_after(st, move, [])
True
"""
from __future__ import annotations

from interp.engine import match as engine
from interp.engine.state import Move, State
from interp.errors import InterpError

SHUFFLES = 2  # worlds with the free cards shuffled that `turns_vary` tries


def turn(world: State) -> tuple:
    """What the hidden cards may decide of the next decision: (the seat to move, whether the deal is over, the
    kinds of move open to it: a `turns` phase's action names, else the moves' kinds)."""
    if world.deal_over:
        return None, True, frozenset()
    kinds = frozenset(m.value[0] if m.kind == "action" else m.kind for m in engine.legal_moves(world))
    return engine.actor(world), False, kinds


def turn_after(before: State, move: Move, put: list) -> tuple | None:
    """The `turn` after `move` is made on a copy of `before` with the cards `put` ((zone id, index, card)
    triples) written in place; None when the move cannot be made there."""
    world = before.copy()
    zones = world.zones
    for z, k, c in put:
        zones[z][k] = c
    try:
        engine.apply(world, move, check=False)
        return turn(world)
    except (InterpError, LookupError, ValueError, StopIteration):
        return None


def fits(got: tuple | None, want: tuple) -> bool:
    """Whether a `turn` lets the next logged decision be made: `want` is (its seat, its kind; None: any)."""
    return got is not None and got[0] == want[0] and (want[1] is None or want[1] in got[2])


def _spots(world: State, free: set, zones: list) -> list:
    return [(z, k, c) for z in zones for k, c in enumerate(world.zones[z]) if c in free]


def turn_fix(before: State, move: Move, want: tuple, groups: list, banned: dict, keeps) -> tuple | None:
    """(x, y): two cards of one of `groups` ((cards, zone ids) pairs: cards that may trade places), in different
    zones, whose exchange before `move` lets the next logged decision (`want`: see `fits`) be made, neither
    taking a place `banned` ({card: the cards its place may not take}) to it, and `keeps(x, y)` (the exchange
    undoes no earlier turn); None when no single exchange does."""
    for free, zones in groups:
        pair = _exchange(before, move, want, _spots(before, free, zones), banned, keeps)
        if pair is not None:
            return pair
    return None


def _exchange(before: State, move: Move, want: tuple, spots: list, banned: dict, keeps) -> tuple | None:
    none: frozenset = frozenset()
    for a, (z, k, x) in enumerate(spots):
        for w, i, y in spots[a + 1:]:
            if w != z and y not in banned.get(x, none) and x not in banned.get(y, none):
                if fits(turn_after(before, move, [(z, k, y), (w, i, x)]), want) and keeps(x, y):
                    return x, y
    return None


def _seat_after(before: State, move: Move, put: list) -> tuple | None:
    """(the seat to move, whether the deal is over) of `turn_after`: what the bans are about (the kinds of move
    open to a seat vary with its hand in most games, and are checked on every world)."""
    got = turn_after(before, move, put)
    return None if got is None else got[:2]


def turns_vary(before: State, move: Move, free: set, zones: list, rng) -> bool:
    """Whether the seat to move after `move` changes on one of SHUFFLES worlds whose free cards (in `zones`) are
    shuffled."""
    spots = _spots(before, free, zones)
    now = _seat_after(before, move, [])
    for _ in range(SHUFFLES):
        cards = [c for _, _, c in spots]
        rng.shuffle(cards)
        if _seat_after(before, move, [(z, k, c) for (z, k, _), c in zip(spots, cards)]) != now:
            return True
    return False


def turn_bans(before: State, move: Move, free: set, zones: list, owned: list) -> dict:
    """{zone id of `owned`: the free cards it cannot hold as `move` is made} (see the module docstring).
    `zones`: every hidden zone a free card may come from."""
    now = _seat_after(before, move, [])
    out = {}
    for z in owned:
        here = [k for k, c in enumerate(before.zones[z]) if c in free]
        if not here:
            continue
        others = [c for w in zones if w != z for c in before.zones[w] if c in free]
        banned = frozenset(c for c in others if all(_seat_after(before, move, [(z, k, c)]) != now for k in here))
        if banned:
            out[z] = banned
    return out
