"""Who wins a trick: the best card of the suit led or, once trumped, the best trump (`strength` orders a suit; the
suits are the effective ones, `suit:`);
escape cards never win (unless `escape_wins` says the led one does), a card led from a zone wins only if it
`can_win` and credits whom `credit` names; and the seat winning so far, for bots and for `trump_exempt`."""
from __future__ import annotations

from interp.engine.phases.base import with_locals
from interp.engine.phases.card_tables import PER_CARD_MEMO
from interp.engine.phases.trick_rules import ZONE_SEAT, TrickRules


class TrickWinner(TrickRules):
    """The winner of the trick in play (see the module)."""

    __slots__ = ()

    def winner(self, st) -> int | None:
        """The seat credited with the finished trick (None: nobody)."""
        ph = st.ph
        trick, by, esc = ph.trick, ph.by, ph.escape
        card = trick[0]
        if by[0] == ZONE_SEAT or (esc and card in esc):
            return self.rare_winner(st)
        # the common case, a player's card leads: the best card of the suit led or, once trumped, the best trump
        deck = st.game.deck
        suit_of, rank_of, trump = ph.suits or deck.suit_of, ph.strength or deck.rank_of, ph.trump
        best, best_suit, best_rank = 0, suit_of[card], rank_of[card]
        i = 0
        for card in trick:  # (the first card is passed over: it does not beat itself)
            suit = suit_of[card]
            if suit == best_suit:
                rank = rank_of[card]
                if rank > best_rank and not (esc and card in esc):
                    best, best_rank = i, rank
            elif suit == trump and not (esc and card in esc):
                best, best_suit, best_rank = i, suit, rank_of[card]
            i += 1
        return by[best]

    def by_power(self, st) -> int:
        """`winner` for a trick a player's card leads, in the deck's rank order and printed suits: each card's power
        looked up (`power_table`), the first played of the highest power wins (as `winner`'s loop has it)."""
        ph = st.ph
        trick, esc = ph.trick, ph.escape
        deck = st.game.deck
        key = (ph.trump, deck.suit_of[trick[0]], *esc) if esc else (ph.trump, deck.suit_of[trick[0]])
        powers = self.powers.get(key) or self.power_table(deck, key)
        values = list(map(powers.__getitem__, trick))
        return ph.by[values.index(max(values))]

    def power_table(self, deck, key: tuple) -> list:
        """By card, its power in a trick under the trump `key[0]` whose first card is of the suit `key[1]` (the
        escape cards `key[2:]` in play), in the deck's rank order: 0 for an escape card and for a card of neither
        the suit led nor trumps, its rank (from 1) for the suit led, above every one of those for a trump; the
        highest power wins. Made once per key (`powers`, up to PER_CARD_MEMO keys, then again).

        >>> from interp.engine.cards import Deck
        >>> deck = Deck.build({"suits": ["A", "B"], "ranks": ["7", "8", "9"]})  # 7A 8A 9A 7B 8B 9B
        >>> phase = TrickWinner.__new__(TrickWinner); phase.powers = {}
        >>> phase.power_table(deck, ("B", "A", 1))  # B trumps, an A card led, 8A an escape card
        [1, 0, 3, 5, 6, 7]
        """
        trump, led, *escape = key
        ranks = deck.rank_of
        low = min(ranks)
        above = max(ranks) - low + 2  # what a trump adds: above the highest card of the suit led
        powers = [0] * len(ranks)
        for card, suit in enumerate(deck.suit_of):
            if suit == led:
                powers[card] = ranks[card] - low + 1
            elif suit == trump:
                powers[card] = ranks[card] - low + 1 + above
        for card in escape:
            powers[card] = 0
        if len(self.powers) >= PER_CARD_MEMO:
            self.powers.clear()
        self.powers[key] = powers
        return powers

    def rare_winner(self, st) -> int | None:
        """`winner` for a trick led by an escape card or from a zone."""
        ph = st.ph
        trick, by, esc = ph.trick, ph.by, ph.escape
        first = by[0]
        lead_from = self.lead_from
        if esc and trick[0] in esc and first != ZONE_SEAT and self.escape_wins is not None \
                and self.led_escape_wins(st):
            return first
        deck = st.game.deck
        suit_of, rank_of = ph.suits or deck.suit_of, ph.strength or deck.rank_of
        led = suit_of[trick[0]] if not esc or trick[0] not in esc else self.led_suit(ph, suit_of)
        trump = ph.trump
        zone_out = first == ZONE_SEAT and not (lead_from is not None and lead_from.can_win(st))
        best, best_rank, trumped = None, None, False  # the seat winning so far, its card's rank, a trump's?
        for card, seat in zip(trick, by):
            if (zone_out and seat == ZONE_SEAT) or (esc and card in esc):
                continue
            suit = suit_of[card]
            if suit == trump:
                rank = rank_of[card]
                if not trumped or rank > best_rank:
                    best, best_rank, trumped = seat, rank, True
            elif suit == led and not trumped:
                rank = rank_of[card]
                if best_rank is None or rank > best_rank:
                    best, best_rank = seat, rank
        if best is None or best == ZONE_SEAT:
            return lead_from.credit(st) if first == ZONE_SEAT and lead_from is not None else first
        return best

    def led_escape_wins(self, st) -> bool:
        """Whether the escape card leading the trick in play wins it (the spec's `escape_wins`)."""
        if self.escape_wins is None:
            return False
        ph = st.ph
        return bool(with_locals(st, {"card": ph.trick[0], "leader": ph.by[0], "trick_no": ph.no + 1,
                                     "last": self.last_trick(st)}, self.escape_wins))

    def last_trick(self, st) -> bool:
        """Whether the trick in play is the phase's last: the count reached, or no hand holds a card beyond it."""
        ph = st.ph
        if ph.total is not None and ph.no + 1 >= ph.total:
            return True
        zones, hands = st.zones, self.hands(st)
        played = set(ph.by)
        return all(len(zones[hands[s]]) <= (s not in played) for s in ph.players)

    def best_so_far(self, st, extra: int | None = None, seat: int | None = None) -> int | None:
        """The seat currently winning the trick (with `extra` played by `seat`, if given); None if nobody."""
        ph = st.ph
        if not ph.trick and extra is None:
            return None
        saved = ph.trick, ph.by
        if extra is not None:
            ph.trick, ph.by = ph.trick + [extra], ph.by + [seat]
        try:
            return self.winner(st)
        finally:
            ph.trick, ph.by = saved
