"""Spades (games/spades.yaml, games/spades-blind-nil.yaml): the scoring of random deals is pagat's scoring written
out plainly below; blind nil is offered before the deal to a side 100 or more behind, and only there. Worked
examples of each rule are tests/scenarios/spades/."""
from __future__ import annotations

import random

from interp.engine import match as engine
from tests.conftest import game_of

SIDES = ((0, 2), (1, 3))


def pagat_side(bets: list, tricks: list, blind: list, side: tuple, bags: int) -> tuple:
    """(points, bags after) for one side, as pagat words it: 10 a trick bid when the side takes at least its bid
    (a nil bidder's tricks do not count), 1 a bag (overtricks and a nil bidder's tricks), -10 a trick bid when
    set; nil ±100 (blind ±200); each ten bags -100, the rest carried."""
    contract = sum(bets[s] for s in side)
    taken = sum(tricks[s] for s in side if bets[s] > 0)
    points, new_bags = 0, sum(tricks[s] for s in side if bets[s] == 0)
    if contract > 0:
        if taken >= contract:
            points, new_bags = 10 * contract, new_bags + taken - contract
        else:
            points = -10 * contract
    for s in side:
        if bets[s] == 0:
            value = 200 if blind[s] else 100
            points += value if tricks[s] == 0 else -value
    bags += new_bags
    points += new_bags - 100 * (bags // 10)
    return points, bags % 10


def play_match(path: str, seed: int, deals: int, sheet: dict | None = None):
    game = game_of(path)
    st = engine.new_match(game, 4, seed)
    for column, values in (sheet or {}).items():
        st.sheet[column] = list(values)
    if sheet:
        engine.start_deal(st)  # the first deal again, with the sheet set before its first phase
    rng = random.Random(seed)
    for _ in range(deals):
        yield st
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        if st.match_over:
            return
        engine.next_deal(st)


def test_random_deals_score_as_pagat_words_it():
    checked = 0
    for seed in range(3):
        bags = [0, 0]
        for st in play_match("games/spades.yaml", seed, 15):
            pass
        # replay the records: each deal's entries from its facts and the bags before it
        for record in st.deals:
            facts, entries = record["facts"], record["entries"]
            for k, side in enumerate(SIDES):
                points, bags[k] = pagat_side(facts["bet"], facts["tricks"], [False] * 4, side, bags[k])
                for s in side:
                    assert entries.get("score", {}).get(s, 0) == points, (record, k)
                checked += 1
        assert [st.sheet["bags"][s] for s in (0, 1)] == bags
    assert checked >= 30


def test_blind_nil_is_offered_before_the_deal_to_the_side_behind_only():
    offered = set()
    blind_made = 0
    for seed in range(8):
        sheet = {"score": [0, 150, 0, 150]} if seed % 2 == 0 else {"score": [150, 0, 150, 0]}
        for st in play_match("games/spades-blind-nil.yaml", seed, 1, sheet):
            assert engine.current_phase(st).id == "blind"
            assert all(len(st.zones[h]) == 0 for h in st.zone_ids["hand"])  # no card dealt yet
            behind = (0, 2) if seed % 2 == 0 else (1, 3)
            offered.add(engine.to_move(st))
            assert engine.to_move(st) in behind
        facts = st.deals[-1]["facts"]
        blind = facts["blind"]
        assert sum(blind) <= 1 and all(not blind[s] or s in behind for s in range(4))
        for k, side in enumerate(SIDES):
            points, _ = pagat_side(facts["bet"], facts["tricks"], blind, side, 0)
            assert st.deals[-1]["entries"].get("score", {}).get(side[0], 0) == points
        blind_made += sum(blind)
    assert offered == {0, 1, 2, 3} and blind_made > 0


def test_the_screen_asks_for_a_bid_with_the_sides_bid_so_far_then_shows_both_contracts(tmp_path):
    from tests.table.test_play import screen
    _, text, code = screen("games/spades.yaml", ["bid 3"], tmp_path, n=4, seed=3)
    assert code == 0
    assert "North: bid 2" in text and "your bid (your side so far: 2)" in text
    assert "[1] nil  [2] bid 1" in text and "South: bid 3" in text
    assert "South–North bid 5 · West–East bid" in text and "(trumps: ♠)" in text
