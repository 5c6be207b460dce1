"""Whose turn the hidden cards make it: a move made again on a world with some free cards put elsewhere.

In some games the seat to move next depends on the hidden hands (a seat that could add a card of a rank on the
table is asked, one that could not is passed over). The view shows who moved; the sampler must deal hands that
make the same seats move. Each question is answered by making the move again from the world before it, with cards
written in other places (nothing else replayed), and reading whose turn it is and what it may do (`turn`):

- `turn_fix`: a single exchange of two cards that lets the view's next decision be made, and undoes no earlier one;
- `turn_needs`: what each seat's hidden zone must hold for the turn to be what it is: the cards it cannot hold (a
  seat passed over holds no card that would have let it move) and the cards one of its free cards must be (a
  seat asked holds one). Sought after every move of a `turns` phase, from the first, so that every exchange
  the sketch makes later, and every layout drawn, can be held to them without a replay. A rule that reads a
  hand only through "does it hold some card such that …" makes them exact; for any other rule they are an
  approximation that the check of every world (replayed in full) keeps honest.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
>>> move = engine.legal_moves(st)[0]
>>> turn_after(st, move, []) == turn_after(st, move, [])
True
"""
from __future__ import annotations

import random

from interp.engine import match as engine
from interp.engine.state import Move, State
from interp.errors import InterpError


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


def turn_fix(before: State, move: Move, want: tuple, groups: list, keeps) -> tuple | None:
    """(x, y): two cards of one of `groups` ((cards, zone ids) pairs: cards that may trade places), in different
    zones, whose exchange before `move` lets the next logged decision (`want`: see `fits`) be made and
    `keeps(x, y)` (the exchange undoes no earlier turn); None when no single exchange does."""
    for free, zones in groups:
        pair = _exchange(before, move, want, _spots(before, free, zones), keeps)
        if pair is not None:
            return pair
    return None


def _exchange(before: State, move: Move, want: tuple, spots: list, keeps) -> tuple | None:
    for a, (z, k, x) in enumerate(spots):
        for w, i, y in spots[a + 1:]:
            if w != z and fits(turn_after(before, move, [(z, k, y), (w, i, x)]), want) and keeps(x, y):
                return x, y
    return None


SHUFFLES = 2  # deals of the hidden hands shuffled that `rests_on_hands` tries after each move
_RESTS: dict = {}  # id(game) -> (game, whether its turns rest on the hidden hands)


def rests_on_hands(game) -> bool:
    """Whether a `turns` phase of `game` lets the hidden hands decide whose turn it is: in one deal of seeded
    random play (seed 0, the default players), some move of it, made again with the cards of the seats' own
    zones shuffled among them (SHUFFLES times), gives the next decision to another seat. Found once per game (the
    kinds of move open to a seat rest on its hand in most games: they are not compared).

    >>> from interp.spec.compiler import load_game
    >>> rests_on_hands(load_game("docs/examples/tiny.yaml"))
    False
    """
    got = _RESTS.get(id(game))
    if got is None:
        got = (game, _rests(game))
        _RESTS[id(game)] = got
    return got[1]


def _rests(game) -> bool:
    st = engine.new_match(game, seed=0)
    rng = random.Random(0)
    owned = [z for z in range(len(st.zones)) if game.zone_of(z, st.n)[1] is not None]
    while not st.deal_over:
        before, move = st.copy(), rng.choice(engine.legal_moves(st))
        turns = game.phases[st.phase].type_name == "turns"
        engine.apply(st, move)
        if not turns or st.deal_over:
            continue
        want = (engine.actor(st), None)
        spots = [(z, k, c) for z in owned for k, c in enumerate(before.zones[z])]
        for _ in range(SHUFFLES):
            cards = [c for _, _, c in spots]
            rng.shuffle(cards)
            if not fits(turn_after(before, move, [(z, k, c) for (z, k, _), c in zip(spots, cards)]), (want[0], None)):
                return True
    return False


def turn_needs(before: State, move: Move, want: tuple, free: set, zones: list, owned: list) -> tuple:
    """({zone id: the free cards it cannot hold}, {zone id: the free cards one of its free cards must be}) as
    `move` is made: what each zone of `owned` must hold for the next logged decision (`want`: see `fits`) to be
    possible after `move` (`zones`: every hidden zone a free card may come from). Each free card of the zone is
    exchanged in turn with each free card elsewhere, until one of its places has *changers*: cards that, put
    there, rule the decision out. When one changer rules it out wherever it is put, the seat was passed over
    for holding no card of some kind: the changers are banned from the zone. Else that place held the one card
    that gave the seat its turn: one of the zone's free cards must be it or a card that does not rule the
    decision out there. Exact for a rule of the form "holds some card such that …" (a seat holding two such
    cards says nothing, as no single exchange rules its turn out); for any other rule an approximation that
    the check of every world keeps honest.

    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=4)
    >>> turn_needs(st, engine.legal_moves(st)[0], (0, None), set(), [], [])
    ({}, {})
    """
    spots = {c: (w, i) for w in zones for i, c in enumerate(before.zones[w]) if c in free}
    bans, needs = {}, {}
    for z in owned:
        here = [k for k, c in enumerate(before.zones[z]) if c in free]
        others = sorted(c for c, (w, _) in spots.items() if w != z)
        changers: list = []
        for k in here:
            changers = [c for c in others if _rules_out(before, move, want, (z, k), spots[c])]
            if changers:
                break
        if not changers or len(changers) == len(others):
            continue
        if all(_rules_out(before, move, want, (z, i), spots[changers[0]]) for i in here):
            bans[z] = frozenset(changers)
        else:
            needs[z] = frozenset(others) - frozenset(changers) | {before.zones[z][k]}
    return bans, needs


def _rules_out(before: State, move: Move, want: tuple, a: tuple, b: tuple) -> bool:
    """Whether exchanging the cards at places a and b ((zone id, index) pairs) before `move` rules out the next
    logged decision (False when the move cannot be made there: that tells nothing)."""
    (z, k), (w, i) = a, b
    got = turn_after(before, move, [(z, k, before.zones[w][i]), (w, i, before.zones[z][k])])
    return got is not None and not fits(got, want)
