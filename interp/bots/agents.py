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
