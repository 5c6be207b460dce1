"""The discard phase (interp/engine/phases/discard.py): which cards may go and who sees them go.

A discard condition on the card alone is remembered by card (CardCondition): its cards are those of the condition
evaluated per card; a condition reading more than the card is worked out each time. A private discard shows the
other seats a card going, to every seat but the discarder's, whatever the player count."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.engine.phases.auction import PASS
from interp.engine.phases.base import with_locals
from interp.engine.phases.discard import CardCondition
from interp.spec.compiler import load_game
from tests.engine.test_auction import SPEC


def test_discard_conditions_on_the_card_alone_are_tabled_and_keep_the_same_cards():
    game = load_game("games/tarot.yaml")
    discard = next(p for p in game.phases if p.type_name == "discard")
    assert all(tier.table is not None for tier in discard.allowed) and discard.show.table is not None
    st = engine.new_match(game, 4, 3)
    cards = list(range(len(game.deck)))
    for tier in discard.allowed + [discard.show]:
        by_card = [c for c in cards if with_locals(st, {"me": 0, "card": c}, tier.fn)]
        assert tier.kept(st, 0, cards) == by_card
        assert [c for c in cards if tier.holds(st, 0, c)] == by_card
    # the Tarot ecart: no King, no oudler; trumps only when nothing else may go
    kings = [c for c in cards if game.deck.codes[c].startswith("K")]
    assert not set(kings) & set(discard.allowed[0].kept(st, 0, cards))


def test_a_discard_condition_reading_more_than_the_card_is_worked_out_each_time(tmp_path):
    text = SPEC.replace("AUCTION", "").replace("scoring: []", """  - id: drop
    type: discard
    who: "taker"
    from: hand
    to: hand
    count: 1
    allowed: "open or me == taker"
scoring: []""").replace("  - id: auction\n    type: auction\n\n    won: \"taker = winner; contract = high\"\n", "")
    path = tmp_path / "drop.yaml"
    path.write_text(text)
    game = load_game(str(path))
    drop = next(p for p in game.phases if p.type_name == "discard")
    assert drop.allowed[0].table is None
    assert isinstance(drop.allowed[0], CardCondition)


@pytest.mark.parametrize("path, players", [("games/preferans.yaml", 3), ("games/preferans.yaml", 4),
                                           ("games/tarot.yaml", 4), ("games/tarot.yaml", 5)])
def test_the_others_see_a_private_discard_go(path, players):
    """Each card discarded in private is logged twice: the card for the discarder alone, and a card going for
    every other seat (seats 0 … n-1 but the discarder's). The first bidder bids the lowest contract and the
    others pass, so that the talon (chien) is taken and discarded into at every deal."""
    game = load_game(path)
    rng = random.Random(1)
    masked = 0
    for seed in range(6):
        st = engine.new_match(game, players, seed)
        while not st.deal_over:
            legal = engine.legal_moves(st)
            if engine.current_phase(st).type_name == "auction":  # the lowest bid, then passes: a talon taken
                legal = [m for m in legal if m.kind == "bid"][:1] if st.ph["high"] < 0 else [PASS]
            engine.apply(st, rng.choice(legal))
        for event in st.events:
            if event.kind == "discard" and event.cards and event.audience is not None:
                assert event.audience == (event.seat,)
            elif event.kind == "discard" and not event.cards and event.value is None:
                assert event.audience == tuple(s for s in range(players) if s != event.seat)
                masked += 1
    assert masked > 0
