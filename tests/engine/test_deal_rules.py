"""Who deals, who bids first, which cards are dealt (docs/spec-language.md: `match.next_dealer`, the auction's
`first`, the deal's `aside`), and a trick leader who does not play: small games written here, numbers by hand."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.errors import SpecError, SpecRuntimeError
from interp.spec.compiler import load_game

# Three seats, twelve cards (S and H, ranks 1-6); a deal of 3 each and 3 to the stock.
SPEC = """
name: Rules test
players: {default: 3}
seat_names: [Ann, Bob, Cy]
deck:
  suits: [S, H]
  ranks: ["1", "2", "3", "4", "5", "6"]
zones:
  hand: {per_seat: true, visible: owner}
  won: {per_seat: true}
  stock: {visible: none}
  out: {visible: all}
vars:
  taker: {type: seat}
  loser: {type: seat}
  tricks: {type: int, per_seat: true}
bids:
  fields: {level: int}
  ladder: [{each: {level: [1, 2, 3]}}]
phases:
  - id: deal
    type: deal
    into: hand
    packets: [{each: 3}]
    rest: stock
DEAL_EXTRA
  - id: auction
    type: auction
AUCTION_EXTRA
    won: "taker = winner"
  - id: play
    type: tricks
    leader: LEADER
    won: won
    on_trick: "tricks[winner] += 1"
  - id: end
    type: effects
    do: "loser = min_by(tricks[s] for s in seats)"
MATCH
"""


def game_of(tmp_path, deal_extra="", auction_extra="", leader='"active[0]"', match=""):
    path = tmp_path / "g.yaml"
    path.write_text(SPEC.replace("DEAL_EXTRA", deal_extra).replace("AUCTION_EXTRA", auction_extra)
                    .replace("LEADER", leader).replace("MATCH", match), encoding="utf-8")
    return load_game(str(path))


def play_deal(st, seed: int = 0) -> None:
    rng = random.Random(seed)
    deal = st.deal_no
    while st.deal_no == deal and not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))


def test_without_a_rule_the_deal_passes_left(tmp_path):
    st = engine.new_match(game_of(tmp_path), seed=1)
    for dealer in (0, 1, 2, 0):
        assert st.dealer == dealer
        play_deal(st)
        engine.next_deal(st)


def test_next_dealer_names_who_deals_after_each_deal(tmp_path):
    """`loser` (the fewest tricks, first in seat order on a tie) deals next, whoever dealt."""
    st = engine.new_match(game_of(tmp_path, match='match:\n  next_dealer: "loser"\n'), seed=5)
    for seed in range(6):
        play_deal(st, seed)
        tricks = st.vars["tricks"]
        fewest = min(range(3), key=lambda s: (tricks[s], s))
        engine.next_deal(st)
        assert st.dealer == fewest


def test_a_next_dealer_of_none_passes_the_deal_left(tmp_path):
    st = engine.new_match(game_of(tmp_path, match='match:\n  next_dealer: "taker"\n'), seed=2)
    st.vars["taker"] = None
    st.deal_over = True
    engine.next_deal(st)
    assert st.dealer == 1


def test_with_facts_next_dealer_reads_only_facts(tmp_path, capsys):
    from interp.cli import main
    path = tmp_path / "g.yaml"
    path.write_text(SPEC.replace("DEAL_EXTRA", "").replace("AUCTION_EXTRA", "").replace("LEADER", '"active[0]"')
                    .replace("MATCH", 'facts:\n  tricks: {seats: seats}\nmatch:\n  next_dealer: "loser"\n'))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "next_dealer may read only facts, and 'loser' is a var that is not one" in err, err


@pytest.mark.parametrize("first, dealer, order", [
    ("dealer", 0, [0, 1, 2]),          # active runs from the dealer's left: Bob, Cy, Ann; turned to Ann
    ("dealer", 2, [2, 0, 1]),
    ("left(dealer, 2)", 0, [2, 0, 1]),  # the dealer's right opens
])
def test_the_auction_starts_with_the_seat_first_names(tmp_path, first, dealer, order):
    st = engine.new_match(game_of(tmp_path, auction_extra=f'    first: "{first}"'), seed=0, dealer=dealer)
    spoken = []
    while st.phase == 1 and not st.deal_over:
        spoken.append(engine.to_move(st))
        moves = engine.legal_moves(st)
        engine.apply(st, moves[1] if len(spoken) < 3 else moves[0])  # three bids, then passes
    assert spoken[:3] == order


def test_a_first_bidder_who_does_not_bid_hands_the_word_to_the_next_one(tmp_path):
    st = engine.new_match(game_of(tmp_path, auction_extra='    bidders: "[left(dealer), left(dealer, 2)]"\n'
                                                          '    first: "dealer"'), seed=0, dealer=0)
    assert engine.to_move(st) == 1


def test_cards_set_aside_are_not_dealt(tmp_path):
    """Both 1s go out face up; of the other ten cards each seat gets 3 and the stock the last one."""
    game = game_of(tmp_path, deal_extra='    aside: {cards: "[card(\'1S\'), card(\'1H\')]", zone: out}')
    for seed in range(5):
        st = engine.new_match(game, seed=seed)
        zone = {name: st.zones[ids[0]] for name, ids in st.zone_ids.items()}
        assert [game.deck.codes[c] for c in zone["out"]] == ["1S", "1H"]
        hands = [st.zones[i] for i in st.zone_ids["hand"]]
        assert [len(h) for h in hands] == [3, 3, 3] and len(zone["stock"]) == 1
        dealt = sorted(c for h in hands for c in h) + sorted(zone["stock"])
        assert sorted(dealt) == [c for c in range(12) if game.deck.codes[c] not in ("1S", "1H")]


def test_a_deal_counts_without_the_cards_set_aside(tmp_path):
    game = game_of(tmp_path, deal_extra='    aside: {cards: "[c for c in [card(\'1S\'), card(\'2S\')]]", zone: out}')
    game.phases[0].rest = None  # 9 cards dealt of the 10 left: too few without a rest
    with pytest.raises(SpecError, match="the deal uses 9 cards but there are 10"):
        engine.new_match(game, seed=0)


def test_a_leader_who_is_not_a_player_is_a_located_error(tmp_path):
    game = game_of(tmp_path, leader='"if taker == seats[0] then seats[1] else seats[0]"')
    game.phases[2].players = lambda st: [2]
    st = engine.new_match(game, seed=0)
    with pytest.raises(SpecRuntimeError) as info:
        while not st.deal_over:
            engine.apply(st, engine.legal_moves(st)[0])
    assert "phase 'play': the leader (" in info.value.message and "is not one of the players (Cy)" in \
        info.value.message
    assert info.value.location is not None and info.value.location.line > 1
