"""Who wins a trick: the best card of the suit led or, once trumped, the best trump (`strength` orders a suit; the
suits are the effective ones, `suit:`);
escape cards never win (unless `escape_wins` says the led one does), a card led from a zone wins only if it
`can_win` and credits whom `credit` names; and the seat winning so far, for bots and for `trump_exempt`."""
from __future__ import annotations

from interp.engine.phases.base import with_locals
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
