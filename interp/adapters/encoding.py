"""Fixed-size encodings of what one seat knows, shared by the adapters (plain lists of 0/1 floats; no numpy).

Layout, for `n` seats, `Z` zones, a deck of `D` cards and `A` action ids (`ActionSpace.num_actions`):

| piece | size | meaning |
|---|---|---|
| `player` | n | one-hot: the seat observing |
| `zones` | Z × D | 1 where the seat sees card d in zone z now (its hand, shown and revealed cards, tricks on the table) |
| `to_move` | n | one-hot: the seat to decide (all zero at the end of the deal) |
| `pending` | A, or 0 | only for a game with moves chosen in several ids (`ActionSpace.steps`): 1 at the ids the seat has chosen so far of the move it is making (all zero for the other seats: a move is seen when it is whole) |
| `moves` | n × A | information state only: 1 where a seat made a move with that id (every id of a move chosen in steps), as far as the seat saw it this deal |

The observation is `player + zones + to_move + pending`; the information state adds `moves`. The `moves` piece
records which moves were made, not their order, so it is a summary of the seat's history rather than a
perfect-recall encoding (the information-state *string* is the full, ordered history); `pending` likewise
records which ids were chosen, and the strings their order.

>>> from interp.spec.compiler import load_game
>>> from interp.engine import match as engine
>>> game = load_game("docs/examples/tiny.yaml")
>>> enc = Encoding(game, players=2)
>>> enc.observation_size, enc.information_size      # 2 + 4 zones (hand, won per seat) x 24 cards + 2; + 2 x 24 ids
(100, 148)
>>> st = engine.new_match(game, players=2, seed=7)
>>> vec = enc.observation(st.view(0), 0)
>>> sum(vec[2:2 + 4 * 24])                          # the 12 cards of seat 0's hand, nothing of seat 1's
12.0
"""
from __future__ import annotations

from typing import Sequence

from interp.engine import match as engine
from interp.engine.actions import ActionSpace
from interp.engine.events import lines
from interp.engine.state import Move, State


class Encoding:
    """Tensors and strings of a seat's view of one game at one player count."""

    def __init__(self, game, players: int, space: ActionSpace | None = None):
        self.game, self.n = game, players
        self.space = space or ActionSpace(game, players)
        self.zones = game.zone_count(players)
        self.deck = len(game.deck)
        pending = self.space.num_actions if self.space.steps else 0
        self.observation_size = 2 * players + self.zones * self.deck + pending
        self.information_size = self.observation_size + players * self.space.num_actions
        self.shapes = {"player": (players,), "zones": (self.zones, self.deck), "to_move": (players,),
                       "pending": (pending,), "moves": (players, self.space.num_actions)}

    def observation(self, view: State | None, seat: int, pending: Sequence[int] = ()) -> list:
        """The observation tensor of `seat` (a flat list); `view` is `state.view(seat)`, None before the deal;
        `pending` the ids chosen so far of a move being made in steps (shown only to the seat making it)."""
        out = [0.0] * self.observation_size
        out[seat] = 1.0
        if view is None:
            return out
        base = self.n
        for zid, cards in enumerate(view.zones):
            for card in cards:
                out[base + zid * self.deck + card] = 1.0
        base += self.zones * self.deck
        mover = engine.to_move(view)
        if mover is not None:
            out[base + mover] = 1.0
        if mover == seat:
            for action in pending:
                out[base + self.n + action] = 1.0
        return out

    def information(self, view: State | None, seat: int, pending: Sequence[int] = ()) -> list:
        """The information-state tensor of `seat`: the observation, then the moves it saw made this deal."""
        out = self.observation(view, seat, pending) + [0.0] * (self.n * self.space.num_actions)
        if view is None:
            return out
        for seat_, move in seen_moves(view):
            for action in self.space.action_ids(move):
                out[self.observation_size + seat_ * self.space.num_actions + action] = 1.0
        return out

    def observation_text(self, view: State | None, seat: int, pending: Sequence[int] = ()) -> str:
        """What `seat` sees now: the cards of each zone it sees, who is to move, and the steps it has chosen of
        the move it is making."""
        if view is None:
            return f"{self._name(seat)}: before the deal"
        parts = [f"{self._name(seat)} sees"]
        for zid, cards in enumerate(view.zones):
            if cards:
                pretty = " ".join(self.game.deck.pretty(c) for c in self._in_order(zid, cards))
                parts.append(f"{self.game.zone_name(zid, self.n)}: {pretty}")
        mover = engine.to_move(view)
        parts.append("deal over" if mover is None else f"{self._name(mover)} to move")
        if mover == seat and pending:
            parts.append("choosing: " + " ".join(self.space.step_text(a) for a in pending))
        return "\n".join(parts)

    def information_text(self, view: State | None, seat: int, pending: Sequence[int] = ()) -> str:
        """Everything `seat` knows: what it sees now, then every event of the deal it saw, in order."""
        if view is None:
            return self.observation_text(view, seat)
        return "\n".join([self.observation_text(view, seat, pending), *lines(view, view.events, seat)])

    def _in_order(self, zid: int, cards: list) -> list:
        """A zone's cards as the strings list them: a hand (a zone only its owner sees) in deck order, since its
        owner holds it in any order it likes (and one information set then has one string); any other zone as it
        lies (the order of a pile or a trick is what the table shows)."""
        decl, _ = self.game.zone_of(zid, self.n)
        return sorted(cards) if decl.visible == "owner" else cards

    def _name(self, seat: int) -> str:
        return self.game.seat_name(seat, self.n)


def seen_moves(view: State) -> list:
    """(seat, move) for each decision the view's events show, in order: logged moves and cards played to tricks
    (a hidden decision, such as another seat's discard, shows no move)."""
    out = []
    for e in view.events:
        if e.seat is None:
            continue
        if isinstance(e.value, Move):
            out.append((e.seat, e.value))
        elif e.kind == "play" and len(e.cards) == 1:
            out.append((e.seat, Move("card", e.cards[0])))
    return out
