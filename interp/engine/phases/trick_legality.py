"""Which cards a `tricks` phase lets the seat to move play: `follow` the suit led (`must_beat`: heading the trick
in it if possible), `must_trump` when void (unless `trump_exempt`), `overtrump` when trumping, escape cards
always — suits being the effective ones (`suit:`), the rules those of the trick in play; the spec's `allowed`
narrows that further, and `announcements` are offered before the card. `explain` says why a card is not legal."""
from __future__ import annotations

from interp.dsl.compile import ITEMS
from interp.engine.phases.base import with_locals
from interp.engine.phases.trick_calls import call_name
from interp.engine.phases.trick_rules import NO_CARDS
from interp.engine.phases.trick_winner import TrickWinner
from interp.engine.state import Move


class TrickLegality(TrickWinner):
    """The legal moves of the seat to move (see the module); on `TrickWinner`, as `trump_exempt` reads who is
    winning so far."""

    __slots__ = ()

    def legal(self, st) -> list:
        ph = st.ph
        seat = ph.order[ph.turn]
        hand = st.zones[st.zone_ids[self.hand][seat]]
        cards = self.playable(st, hand) if ph.trick else sorted(hand) if ph.suits is None else self.in_order(st, hand)
        if self.allowed is not None:
            cards = self.permitted(st, seat, cards)
        moves = st.game.card_moves
        calls_until = self.calls_until
        if calls_until is not None and ph.no >= calls_until:
            return list(map(moves.__getitem__, cards))  # (a C loop: no frame for a comprehension)
        return self.offered(st, seat) + [moves[c] for c in cards]

    def permitted(self, st, seat: int, cards: list) -> list:
        """The cards the spec's `allowed` condition lets `seat` play now (all of them if it allows none)."""
        if self.allowed is None or not cards:
            return cards
        ph = st.ph
        if self.allowed_args is not None:
            return self.allowed_args(st, seat, ph.no + 1, list(ph.trick), cards) or cards
        return with_locals(st, {"me": seat, "trick_no": ph.no + 1, "cards": list(ph.trick), ITEMS: cards},
                           self.allowed) or cards

    def offered(self, st, seat: int) -> list:
        """The announcements `seat` may make now, before its card."""
        ph = st.ph
        trick_no = ph.no + 1
        said = ph.said
        candidates = [a for a in self.announcements
                      if (a.trick_no is None or a.trick_no == trick_no) and (a.params or a.name not in said)]
        if not candidates:
            return []

        def made(ctx) -> list:
            out: list = []
            for a in candidates:
                if a.params:
                    self.expand(ctx, a, [], out)
                elif a.when is None or a.when(ctx):
                    out.append(a.move)
            return out
        names = {var: None for a in candidates for var, _, _ in a.params}
        return with_locals(st, {"me": seat, "trick_no": trick_no, "cards": ph.trick, **names}, made)

    def expand(self, ctx, call, values: list, out: list) -> None:
        """The moves of announcement `call` (with `for:` parameters) whose `when` holds and that its player has
        not made in this trick, the first len(values) parameters bound to `values` (value, type)."""
        if len(values) == len(call.params):
            name = call_name(call.name, values, ctx.game.deck)
            if name not in ctx.ph.said and (call.when is None or call.when(ctx)):
                out.append(Move("option", name))
            return
        var, items, type_ = call.params[len(values)]
        for value in list(items(ctx)):
            ctx.loc[var] = value
            self.expand(ctx, call, values + [(value, type_)], out)

    def playable(self, st, hand: list) -> list:
        """The cards of `hand` the follow / trump / overtrump / must_beat rules allow, in card order (escape cards
        always; with effective suits, grouped by them: `in_order`)."""
        ph = st.ph
        trick = ph.trick
        rules = ph.rules
        if rules is None:
            follow, must_trump, must_beat = self.follow, self.must_trump, self.must_beat
        else:
            follow, must_trump, _, must_beat = rules
        if ph.suits is not None:
            return self.in_order(st, self.followed(st, hand, must_trump, must_beat) if trick and follow else hand)
        if not trick or not follow:
            return sorted(hand)
        return sorted(self.followed(st, hand, must_trump, must_beat))

    def in_order(self, st, cards) -> list:
        """`cards` in the order a player sees them: by card, or grouped by effective suit (`SuitSets.position`)."""
        sets = self.suit_sets(st)
        return sorted(cards) if sets is None else sorted(cards, key=sets.position.__getitem__)

    def followed(self, st, hand: list, must_trump: bool, must_beat: bool) -> list | frozenset:
        """`playable`'s cards, in any order, when a card was led and the suit must be followed."""
        ph = st.ph
        trick = ph.trick
        deck = st.game.deck
        suit_of = ph.suits or deck.suit_of
        esc = ph.escape
        free = None  # the escape cards in hand, played freely; the rules bind the rest
        if esc:
            for card in trick:
                if card not in esc:
                    led = suit_of[card]
                    break
            else:  # only escape cards so far: a free lead
                return hand
            for card in esc:
                if card in hand:
                    free = [c for c in esc if c in hand]
                    hand = [c for c in hand if c not in esc]
                    break
        else:
            led = suit_of[trick[0]]
        sets = self.suit_sets(st) if ph.suits is not None else None
        by_suit = sets.by_suit if sets is not None else self.by_suit or self.suit_cards(deck)
        same = by_suit.get(led, NO_CARDS).intersection(hand)
        trump = ph.trump
        if same:
            if must_beat:
                same = self.heading(st, same, led)
            cards = self.over_trumped(st, same) if led == trump else same
        elif must_trump and trump is not None and \
                (trumps := by_suit.get(trump, NO_CARDS).intersection(hand)) and \
                not (self.trump_exempt is not None and self.exempt(st)):
            cards = self.over_trumped(st, trumps)
        else:
            cards = hand
        return cards if free is None else free + list(cards)

    def heading(self, st, same, led: str):
        """`must_beat`: of `same` (cards of the `led` suit), those above the best card of that suit in the trick,
        if there are any (else all of them)."""
        ph = st.ph
        suit_of, rank_of = ph.suits or st.game.deck.suit_of, ph.strength or st.game.deck.rank_of
        esc = ph.escape
        best = max((rank_of[c] for c in ph.trick if suit_of[c] == led and c not in esc), default=-1)
        return [c for c in same if rank_of[c] > best] or same

    def suit_cards(self, deck) -> dict:
        """The deck's cards by suit, as sets, and by card the set of its suit (`suit_mates`): worked out at the
        first follow, then kept (the deck never changes)."""
        by_suit: dict = {}
        for card, suit in enumerate(deck.suit_of):
            by_suit.setdefault(suit, set()).add(card)
        self.by_suit = {suit: frozenset(cards) for suit, cards in by_suit.items()}
        self.suit_mates = [self.by_suit[suit] for suit in deck.suit_of]
        return self.by_suit

    def mates_table(self, deck) -> list:
        """`suit_mates`, worked out with `suit_cards`."""
        self.suit_cards(deck)
        return self.suit_mates or []

    def exempt(self, st) -> bool:
        """Whether `trump_exempt` frees the player to move (void in the led suit) from trumping."""
        if self.trump_exempt is None:
            return False
        ph = st.ph
        return bool(with_locals(st, {"me": ph.order[ph.turn], "winning": self.winner(st)}, self.trump_exempt))

    def over_trumped(self, st, trumps: frozenset) -> frozenset | list:
        """The `trumps` (a player's) that may be played on the trick: with `overtrump`, those above the best trump
        in it if there are any (in any order)."""
        ph = st.ph
        if not (self.overtrump if ph.rules is None else ph.rules[2]):
            return trumps
        suit_of, rank_of = ph.suits or st.game.deck.suit_of, ph.strength or st.game.deck.rank_of
        trump, esc = ph.trump, ph.escape
        best = None
        for c in ph.trick:
            if suit_of[c] == trump and c not in esc:
                rank = rank_of[c]
                if best is None or rank > best:
                    best = rank
        if best is None:
            best = -1
        return [c for c in trumps if rank_of[c] > best] or trumps

    def explain(self, st, text: str) -> str:
        game = st.game
        card = game.deck.index.get(text.strip().upper())
        if card is None:
            return f"'{text}' is not a card: write rank then suit, e.g. 10H or QS"
        ph = st.ph
        seat = ph.order[ph.turn]
        hand = st.zones[st.zone_ids[self.hand][seat]]
        if card not in hand:
            return f"{game.deck.pretty(card)} is not in the hand you are playing"
        if card in self.playable(st, hand):  # the follow rules allow it, the spec's `allowed` does not
            return f"{game.deck.pretty(card)} may not be played now"
        suit_of = ph.suits or game.deck.suit_of
        _, _, overtrump, must_beat = self.rules(ph)
        led = self.led_suit(ph, suit_of)
        reason = self.reason(st, hand, led, overtrump, must_beat)
        if suit_of[card] != game.deck.suit_of[card]:
            return f"{reason} — {game.deck.pretty(card)} counts as {game.suit_label(suit_of[card])} here"
        return reason

    def reason(self, st, hand: list, led: str | None, overtrump: bool, must_beat: bool) -> str:
        """`explain`'s sentence for a card the follow rules forbid."""
        game, ph = st.game, st.ph
        suit_of = ph.suits or game.deck.suit_of
        if any(suit_of[c] == led for c in hand):
            if (overtrump or must_beat) and led == ph.trump:
                return "you must follow suit and beat the highest trump if you can"
            if must_beat:
                return f"you must follow suit ({game.suit_label(led)}) and beat its highest card if you can"
            return f"you must follow suit ({game.suit_label(led)})"
        if overtrump:
            return "you must trump, and beat the highest trump if you can"
        return f"you have no {game.suit_label(led)}, so you must trump ({game.suit_label(ph.trump)})"
