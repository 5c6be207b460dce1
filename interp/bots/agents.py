"""Bots. Each gets only a view (`state.view(seat)`) and the legal moves, and returns one of them.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> st = engine.new_match(game, seed=3)
>>> seat = engine.to_move(st)
>>> move = HeuristicAgent(seed=1).choose(st.view(seat), engine.legal_moves(st))
>>> move in engine.legal_moves(st)
True
"""
from __future__ import annotations

import random
from typing import Any

from interp.engine import match as engine
from interp.engine.phases.base import with_locals
from interp.engine.state import Move, State


class Agent:
    """The protocol (docs/bots.md, "Writing an agent"): made as `Class(seed=seed)`; asked `choose(view, moves)`
    with the deciding seat's view (`state.view(seat)`, never the full state) and the legal moves (a non-empty list
    of Move); returns one of `moves`. Any class with that shape is an agent — `--bots module:Class` names one of
    your own (`interp.bots.registry`); subclassing this one is optional."""

    name = "agent"

    def choose(self, view: State, moves: list) -> Move:
        raise NotImplementedError


class RandomAgent(Agent):
    """Uniformly random legal moves (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: State, moves: list) -> Move:
        return self.rng.choice(moves)


class HeuristicAgent(Agent):
    """Plays by the spec's `bots:` hints: bids up to `bid_limit`, scores choose-options by the spec's
    expressions, discards low cards of short suits, and in tricks wins cheaply, ducks when it wants no
    tricks, does not overtake a teammate (`team`), and makes the announcements its `bots` expressions favour."""

    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, view: State, moves: list) -> Move:
        if len(moves) == 1:
            return moves[0]
        phase = engine.current_phase(view)
        me = engine.actor(view)
        method = getattr(self, "on_" + phase.type_name, None)
        move = method(view, phase, me, moves) if method else None
        return move if move is not None and move in moves else self.rng.choice(moves)

    # -- per phase type -----------------------------------------------------------------------------------------------
    def on_auction(self, view, phase, me, moves):
        limit_fn = view.game.bots.get("bid_limit")
        if limit_fn is None:
            return self.rng.choice(moves)
        limit = with_locals(view, {"me": me}, limit_fn)
        if limit is None:
            return moves[0]  # pass
        for move in moves:
            if move.kind == "bid" and move.value == limit.index:
                return move
        for move in moves:
            if move.kind in ("hold", "bid") and move.value <= limit.index and move.value not in phase.special:
                return move
        return moves[0]

    def on_choose(self, view, phase, me, moves):
        prefs = view.game.bots.get("choose", {}).get(phase.id)
        if not prefs:
            return moves[0]

        def score(move):
            if move.kind == "option":
                fn = prefs.get(move.value)
                return with_locals(view, {"me": me}, fn) if fn else 0
            fn = prefs.get("choice")
            return with_locals(view, {"me": me, "choice": move.value}, fn) if fn else 0
        return max(moves, key=score)

    def on_discard(self, view, phase, me, moves):
        cards = [m for m in moves if m.kind == "card"]
        if not cards:
            return moves[-1]
        if phase.bots is not None:
            return max(cards, key=lambda m: phase.preference(view, m.value, me))
        deck = view.game.deck
        hand = phase.hand(view)
        length = {s: sum(1 for c in hand if deck.suit_of[c] == s) for s in deck.suits}
        return min(cards, key=lambda m: (deck.rank_of[m.value] + length.get(deck.suit_of[m.value], 0),))

    def on_turns(self, view, phase, me, moves):
        return phase.bot_choice(view, me, moves, self.rng)

    def on_declare(self, view, phase, me, moves):
        return phase.bot_choice(view, me, moves)

    def on_tricks(self, view, phase, me, moves):
        calls = [m for m in moves if m.kind == "option"]
        if calls:  # announcements: make the one the spec's `bots` expression likes best, if it likes any
            best = max(calls, key=lambda m: phase.bot_score(view, me, m.value))
            if phase.bot_score(view, me, best.value) > 0:
                return best
            moves = [m for m in moves if m.kind == "card"]
            if len(moves) == 1:
                return moves[0]
        bots = view.game.bots
        wants = with_locals(view, {"me": me}, bots["wants_tricks"]) if "wants_tricks" in bots else True
        team = bots.get("team")
        deck = view.game.deck
        order = view.ph.get("strength") or deck.rank_of  # the phase's trump-dependent order, if it has one
        by_rank = sorted(moves, key=lambda m: order[m.value])
        winning = phase.best_so_far(view)
        if not view.ph["trick"]:
            return by_rank[-1] if wants else by_rank[0]
        mine = team is not None and winning is not None and winning >= 0 and \
            with_locals(view, {"me": winning}, team) == with_locals(view, {"me": me}, team)
        winners = [m for m in by_rank if phase.best_so_far(view, m.value, me) == me]
        if wants:
            return self.cheapest(view, me, by_rank if mine or not winners else winners)
        losers = [m for m in by_rank if m not in winners]
        return losers[-1] if losers else by_rank[-1]


    def cheapest(self, view, me, cards: list) -> Move:
        """The card to give up (or to win with): the lowest by the spec's `bots.card_value` (ties: the lower rank),
        else simply the lowest."""
        value = view.game.bots.get("card_value")
        if value is None:
            return cards[0]
        return min(cards, key=lambda m: with_locals(view, {"me": me, "card": m.value}, value))


class WorldPolicy(HeuristicAgent):
    """The search agent's rollout policy: the heuristic, made to use what a sampled world shows — every hand — in
    the play of the cards. Where it wants tricks it leads a card no opponent can beat if it has one (else its
    cheapest), wins a trick only with a card that no opponent still to play can beat (the cheapest such), gives
    its most valuable card (`bots.card_value`) to a trick its side has surely won, and otherwise gives up its
    cheapest card. It reads the other seats' hands, so it plays worlds, not views: it is no agent for a seat.

    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=3)
    >>> WorldPolicy(seed=1).choose(st, engine.legal_moves(st)) in engine.legal_moves(st)
    True
    """

    name = "world-policy"

    def on_tricks(self, view, phase, me, moves):
        bots = view.game.bots
        if any(m.kind != "card" for m in moves):
            return super().on_tricks(view, phase, me, moves)
        if "wants_tricks" in bots and not with_locals(view, {"me": me}, bots["wants_tricks"]):
            return self.duck(view, phase, me, moves)
        ph = view.ph
        order = ph.get("strength") or view.game.deck.rank_of
        by_rank = sorted(moves, key=lambda m: order[m.value])
        side = _sides(view, me)
        opponents = [s for s in ph.order[ph.turn + 1:] if not side(s)]
        hands = {s: view.zones[view.zone_ids[phase.hand][s]] for s in opponents}
        trick, by = list(ph.trick), list(ph.by)

        def stands(card: int) -> bool:  # no opponent still to play can take the trick once `card` is in it
            return not any(_can_take(view, phase, trick + [card], by + [me], s, hands[s]) for s in opponents)
        if not trick:
            standing = [m for m in _tops(view, by_rank) if stands(m.value)]
            return self.cheapest(view, me, standing or by_rank)
        winning = phase.best_so_far(view)
        if winning is not None and winning >= 0 and side(winning) and \
                not any(_can_take(view, phase, trick, by, s, hands[s]) for s in opponents):
            return self.dearest(view, me, by_rank)
        winners = [m for m in by_rank if phase.best_so_far(view, m.value, me) == me and stands(m.value)]
        return self.cheapest(view, me, winners or by_rank)

    def duck(self, view, phase, me, moves: list) -> Move:
        """Where it wants no tricks: its dearest card (`bots.card_value`; with none, its highest) among those that
        surely lose the trick — following, a card that does not beat the trick so far; leading, a card an opponent
        must beat (it holds the suit, and every card of it beats this one) — else as the heuristic plays."""
        ph = view.ph
        order = ph.get("strength") or view.game.deck.rank_of
        by_rank = sorted(moves, key=lambda m: order[m.value])
        if ph.trick:
            losing = [m for m in by_rank if phase.best_so_far(view, m.value, me) != me]
        else:
            side = _sides(view, me)
            hands = {s: view.zones[view.zone_ids[phase.hand][s]] for s in ph.order[ph.turn + 1:] if not side(s)}
            losing = [m for m in by_rank if any(_must_beat(view, phase, m.value, me, s, hand)
                                                for s, hand in hands.items())]
        if not losing:
            return super().on_tricks(view, phase, me, moves)
        return self.dearest(view, me, losing) if "card_value" in view.game.bots else losing[-1]

    def dearest(self, view, me, cards: list) -> Move:
        """The card to give to a trick its side has surely won: the highest by `bots.card_value`, else the lowest
        (with no values, giving a card away gains nothing: keep the high ones)."""
        value = view.game.bots.get("card_value")
        if value is None:
            return cards[0]
        return max(cards, key=lambda m: with_locals(view, {"me": me, "card": m.value}, value))


def _sides(view: State, me: int):
    """seat -> whether it is on `me`'s side, by the spec's `bots.team` (none: every seat alone)."""
    team = view.game.bots.get("team")
    if team is None:
        return lambda seat: seat == me
    mine = with_locals(view, {"me": me}, team)
    return lambda seat: seat == me or with_locals(view, {"me": seat}, team) == mine


def _tops(view: State, cards: list) -> list:
    """The highest card of each suit among `cards` (ordered from low to high): the only ones that may stand."""
    suit_of = view.game.deck.suit_of
    top = {suit_of[m.value]: m for m in cards}
    return [m for m in cards if top[suit_of[m.value]] is m]


def _must_beat(view: State, phase, card: int, me: int, seat: int, hand: list) -> bool:
    """Whether `seat`, holding `hand`, must beat `card` led by `me`: the phase makes it follow suit, it holds the
    suit, and every card of it takes the trick from `card`."""
    suit_of = view.game.deck.suit_of
    same = [c for c in hand if suit_of[c] == suit_of[card]]
    if not phase.follow or not same:
        return False
    ph: Any = view.ph
    saved = ph.trick, ph.by
    try:
        for other in same:
            ph.trick, ph.by = [card, other], [me, seat]
            if phase.winner(view) != seat:
                return False
    finally:
        ph.trick, ph.by = saved
    return True


def _can_take(view: State, phase, trick: list, by: list, seat: int, hand: list) -> bool:
    """Whether `seat` could take the trick `trick` (played by `by`) with a card of `hand`: its best card of the
    suit led is tried and, when it has none or need not follow suit, its best trump (finer rules — an escape
    card, an obligation to overtrump — are not asked: a rough bound)."""
    ph: Any = view.ph  # a tricks phase's progress (engine.phases.trick_rules.TrickProgress)
    deck = view.game.deck
    order = ph.strength or deck.rank_of
    led = deck.suit_of[trick[0]]
    tries: dict = {}
    for card in hand:
        suit = deck.suit_of[card]
        if (suit == led or suit == ph.trump) and (suit not in tries or order[card] > order[tries[suit]]):
            tries[suit] = card
    if led in tries and phase.follow:
        tries = {led: tries[led]}
    saved = ph.trick, ph.by
    try:
        for card in tries.values():
            ph.trick, ph.by = trick + [card], by + [seat]
            if phase.winner(view) == seat:
                return True
    finally:
        ph.trick, ph.by = saved
    return False
