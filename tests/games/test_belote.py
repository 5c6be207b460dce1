"""Belote (games/belote.yaml) and the trick mechanisms it stands on: trump-dependent strength and points
(`strength`, `points`, `trick_points`), `trump_exempt`. Worked examples of each scoring and trick rule are
tests/scenarios/belote/; the litige is worked in tests/score_inputs/belote.yaml."""
from __future__ import annotations

import os
import random

import pytest

from interp.engine import match as engine
from interp.errors import SpecError
from interp.spec.compiler import load_game
from interp.spec.loader import load_spec
from interp.table.scorekeeper import score_deals
from tests.conftest import ROOT, game_of

BELOTE = "games/belote.yaml"


def test_the_litige_holds_the_takers_points_for_the_next_deals_winner():
    doc = load_spec(os.path.join(ROOT, "tests", "score_inputs", "belote.yaml"))
    st = score_deals(game_of(BELOTE), doc.data, doc)
    assert [d["entries"] for d in st.deals] == [
        {"score": {1: 81, 3: 81}, "held": {0: 81, 2: 81}},
        {"score": {0: 50, 1: 193, 2: 50, 3: 193}, "held": {0: -81, 2: -81}}]
    assert st.sheet["score"] == [50, 274, 50, 274]


def test_two_litiges_in_a_row_by_opposite_sides_pay_all_they_held_to_the_next_winner():
    """tests/score_inputs/belote-two-litiges.yaml, worked there: 81 held from each side, 162 paid to the winner."""
    doc = load_spec(os.path.join(ROOT, "tests", "score_inputs", "belote-two-litiges.yaml"))
    st = score_deals(game_of(BELOTE), doc.data, doc)
    assert [d["entries"] for d in st.deals] == [
        {"score": {1: 81, 3: 81}, "held": {0: 81, 2: 81}},
        {"score": {0: 81, 2: 81}, "held": {1: 81, 3: 81}},
        {"score": {0: 262, 1: 62, 2: 262, 3: 62}, "held": {0: -81, 1: -81, 2: -81, 3: -81}}]
    assert st.sheet["score"] == [343, 143, 343, 143] and st.sheet["held"] == [0, 0, 0, 0]


def test_random_deals_share_162_points_and_eight_tricks_and_score_by_the_rules():
    game = game_of(BELOTE)
    st = engine.new_match(game, 4, 1)
    rng = random.Random(1)
    scored = 0
    while scored < 12:
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        record = st.deals[-1]
        if not record.get("redeal"):
            facts = record["facts"]
            pts, tricks = facts["pts"], facts["tricks"]
            assert pts[0] + pts[1] == 162 and tricks[0] + tricks[1] == 8
            bonus = [20 * bool(facts["belote"][t]) for t in (0, 1)]
            deal = [record["entries"]["score"].get(s, 0) for s in (0, 1)]
            held = [record["entries"].get("held", {}).get(s, 0) for s in (0, 1)]
            capot = [t for t in (0, 1) if tricks[t] == 8]
            # what a deal gives out: 162 (250 for a capot) and the belote, some of it maybe held (a litige);
            # points held earlier move from `held` to the winner's score and cancel out
            assert sum(deal) + sum(held) == (250 if capot else 162) + sum(bonus)
            if capot:
                assert deal[capot[0]] - max(0, -held[capot[0]] - held[1 - capot[0]]) == 250 + bonus[capot[0]]
            scored += 1
        if st.match_over:
            break
        engine.next_deal(st)
    assert scored > 0


def test_the_trump_order_and_points_come_from_the_tables():
    game = game_of(BELOTE)
    st = engine.new_match(game, 4, 2)
    while engine.current_phase(st).id != "play":
        engine.apply(st, engine.legal_moves(st)[0])  # take the turned-up suit
    trump = st.vars["trump"]
    deck = game.deck
    strength, points = st.ph["strength"], st.ph["points"]
    order = sorted((c for c in range(len(deck)) if deck.suit_of[c] == trump), key=lambda c: strength[c])
    assert [deck.rank_name[c] for c in order] == ["7", "8", "Q", "K", "10", "A", "9", "J"]
    assert {deck.rank_name[c]: points[c] for c in order} == {"7": 0, "8": 0, "Q": 3, "K": 4, "10": 10, "A": 11,
                                                              "9": 14, "J": 20}
    plain = next(s for s in deck.suits if s != trump)
    assert sorted(points[c] for c in range(len(deck)) if deck.suit_of[c] == plain) == [0, 0, 0, 2, 3, 4, 10, 11]
    assert sum(points) == 152


def test_a_strength_table_naming_a_rank_the_deck_lacks_is_a_located_error(tmp_path):
    text = open(os.path.join(ROOT, BELOTE), encoding="utf-8").read()
    path = tmp_path / "b.yaml"
    path.write_text(text.replace('strength: {trump: ["7", "8", Q, K,', 'strength: {trump: ["7", "8", Q, KK,'))
    with pytest.raises(SpecError) as exc:
        load_game(str(path))
    assert "strength: no rank 'KK' in the deck" in exc.value.message and exc.value.location.line > 100


def test_strength_and_points_as_expressions_on_card_and_trump(tmp_path):
    text = open(os.path.join(ROOT, BELOTE), encoding="utf-8").read()
    path = tmp_path / "b.yaml"
    text = text.replace('strength: {trump: ["7", "8", Q, K, "10", A, "9", J]}',
                        '''strength: "if suit(card) == trump and rank_name(card) == 'J' then 99 else rank(card)"''')
    text = text.replace('points: {trump: {J: 20, "9": 14, A: 11, "10": 10, K: 4, Q: 3}}',
                        '''points: "if suit(card) == trump then 1 else 0"''')
    path.write_text(text)
    game = load_game(str(path))
    st = engine.new_match(game, 4, 2)
    while engine.current_phase(st).id != "play":
        engine.apply(st, engine.legal_moves(st)[0])
    trump, deck = st.vars["trump"], game.deck
    jack = next(c for c in range(len(deck)) if deck.suit_of[c] == trump and deck.rank_name[c] == "J")
    assert st.ph["strength"][jack] == 99 and sum(st.ph["points"]) == 8
