"""The search agent: legal moves from views alone, seeded play reproduced, a budget that charges sampling and grows
with the stakes, pruning of clearly worse moves, and a rollout policy that reads the world it plays.

Bounded: small budgets, a few decisions per spec. Strength and seconds per move are measured (docs/bots.md,
tools/sample_speed.py --search), not asserted here.
"""
from __future__ import annotations

import glob
import os
import random

import pytest

from interp.bots.agents import HeuristicAgent, WorldPolicy
from interp.bots.search import SHAPING, SearchAgent, _Rounds, stakes
from interp.bots.worlds import WorldSampler, draw_world
from interp.engine import match as engine
from interp.spec.compiler import load_game
from tests.conftest import ROOT

SPECS = sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "games", "*.yaml")))


def _decisions(path: str, seed: int = 3, every: int = 12):
    """(state, seat to move) at every `every`-th decision with a choice of one seeded random deal."""
    game = load_game(os.path.join(ROOT, path))
    st = engine.new_match(game, seed=seed)
    rng = random.Random(seed)
    k = 0
    while not st.deal_over:
        moves = engine.legal_moves(st)
        if len(moves) > 1:
            if k % every == 0:
                yield st, engine.to_move(st)
            k += 1
        engine.apply(st, rng.choice(moves))


@pytest.mark.parametrize("path", SPECS)
def test_a_legal_move_from_the_view_alone(path):
    for st, seat in _decisions(path):
        view = st.view(seat)
        moves = engine.legal_moves(st)
        assert view.viewer == seat and view.seed is None  # what the agent gets is a view
        agent = SearchAgent(seed=1, worlds=2)  # the default budget bounds the sampling; two worlds suffice here
        assert agent.choose(view, moves) in moves
        assert agent.last is not None and agent.last.worlds + agent.last.failures >= 1
        assert agent.last.work < 2 * agent.last.budget  # sampling stops when the budget is spent (one try may overrun)


def _piquet_after_declarations():
    """A Piquet view just after the declarations: its worlds need the declared hands (sampling is real work)."""
    game = load_game(os.path.join(ROOT, "games", "piquet.yaml"))
    st = engine.new_match(game, seed=2)
    rng = random.Random(2)
    while engine.current_phase(st).type_name != "tricks" or len(engine.legal_moves(st)) < 2:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    return st


def test_a_seed_reproduces_the_search():
    st = _piquet_after_declarations()
    seat = engine.to_move(st)
    moves = engine.legal_moves(st)
    runs = []
    for _ in range(2):
        agent = SearchAgent(seed=11, budget=1500)
        runs.append((agent.choose(st.view(seat), moves), agent.last))
    assert runs[0] == runs[1]


def test_sampling_is_charged_to_the_budget():
    """A budget smaller than one world's sampling buys one draw, and the agent is charged that draw's real work
    (the same draw, from the same seed and limit), plus one playout per legal move if it found a world."""
    st = _piquet_after_declarations()
    seat = engine.to_move(st)
    view = st.view(seat)
    moves = engine.legal_moves(st)
    agent = SearchAgent(seed=5, budget=1)
    agent.choose(view, moves)
    drawn = WorldSampler(view).draw(random.Random(5), limit=1)  # the agent's first draw, with its rng and limit
    assert drawn.work > 1 and agent.last.worlds + agent.last.failures == 1
    if drawn.world is None:
        assert agent.last.work == drawn.work and agent.last.worlds == 0
    else:
        assert agent.last.work >= drawn.work + len(moves) and agent.last.worlds == 1


def test_draw_world_is_seeded_and_bounded():
    st = _piquet_after_declarations()
    view = st.view(engine.to_move(st))
    a, b = draw_world(view, random.Random(9)), draw_world(view, random.Random(9))
    assert a.world is not None and b.world is not None and a.world.zones == b.world.zones
    assert 0 < b.work < a.work  # the second is not charged the view's probe, which the first found and kept
    assert a.world.view(view.viewer).to_json() == view.to_json()
    nothing = draw_world(view, random.Random(9), tries=0)
    assert nothing.world is None and nothing.work == 0


def test_a_decision_before_the_play_gets_more_budget_and_more_for_more_moves():
    # Preferans opens with the auction (3 moves: no more for their number): SHAPING ordinary budgets; the play of
    # a card among 16 moves gets sqrt(16 / 4) = 2, a shaping decision among 100 moves is capped at 3 * 2.
    st = engine.new_match(load_game(os.path.join(ROOT, "games", "preferans.yaml")), seed=1)
    moves = engine.legal_moves(st)
    assert engine.current_phase(st).type_name == "auction" and len(moves) <= 4
    assert stakes(st.view(engine.to_move(st)), moves) == SHAPING == 3
    assert stakes(st, moves * 33) == 3 * 2.0
    tiny = engine.new_match(load_game(os.path.join(ROOT, "docs", "examples", "tiny.yaml")), seed=5)
    assert stakes(tiny, engine.legal_moves(tiny) * 4) == 2.0


def _rounds(rows: list):
    rounds = _Rounds(len(rows[0]))
    for values in rows:
        rounds.worlds += 1
        for i, v in enumerate(values):
            rounds.add(i, v)
    return rounds


def test_moves_worth_the_same_in_every_world_end_the_search():
    rounds = _rounds([[3, 3], [-1, -1], [2, 2], [0, 0]])
    assert rounds.prune(budget_left=10 ** 6, world_cost=2) is False and rounds.alive == [0, 1]


def test_a_clearly_worse_move_is_dropped_and_a_close_one_kept():
    # Move 1 trails move 0 by exactly 1 in every world (no spread: clearly worse); move 2 trails by 1, 0, -1, 0
    # (mean 0.5... below by 0.5 with a standard error of 0.41: not clearly worse at 4 worlds).
    rounds = _rounds([[5, 4, 4], [2, 1, 2], [0, -1, 1], [3, 2, 3]])
    assert rounds.prune(budget_left=10 ** 6, world_cost=3) is True and rounds.alive == [0, 2]
    assert rounds.next_check == 8  # the next round doubles the worlds


def test_a_budget_that_cannot_double_the_worlds_keeps_the_better_half():
    # Eight moves a little apart (i) under much noise: none is clearly worse after 4 worlds. Each world cost 8
    # playout moves a move; doubling the worlds would cost 4 * 8 * 8 = 256 more, and with 20 left only the better
    # half (by mean) goes on.
    noise = random.Random(0)
    rows = [[i + noise.uniform(-40, 40) for i in range(8)] for _ in range(4)]
    means = [sum(r[i] for r in rows) / 4 for i in range(8)]
    rounds = _rounds(rows)
    assert rounds.prune(budget_left=20, world_cost=8 * 8) is True
    assert sorted(rounds.alive) == sorted(sorted(range(8), key=means.__getitem__, reverse=True)[:4])
    rounds = _rounds(rows)
    assert rounds.prune(budget_left=10 ** 6, world_cost=8 * 8) is True and rounds.alive == list(range(8))


def test_the_search_spends_its_budget_on_the_moves_left():
    st = _piquet_after_declarations()
    seat = engine.to_move(st)
    agent = SearchAgent(seed=3, budget=3000)
    agent.choose(st.view(seat), engine.legal_moves(st))
    effort = agent.last
    assert effort.budget == round(3000 * stakes(st.view(seat), engine.legal_moves(st)))
    assert 1 <= effort.finalists <= len(engine.legal_moves(st)) and effort.worlds >= 4


def test_the_rollout_policy_leads_a_card_no_opponent_can_beat():
    # Tiny (hearts trump, follow suit, trump when void). South leads holding K♠ A♦ 9♣; North holds J♠ 9♥ J♣:
    # A♦ is trumped (North has no diamond), 9♣ is beaten by J♣, K♠ stands (North must follow with J♠). The
    # heuristic leads its highest card (A♦); the rollout policy, which sees North's hand in a world, leads K♠.
    game = load_game(os.path.join(ROOT, "docs", "examples", "tiny.yaml"))
    st = engine.new_match(game, seed=1, dealer=0)
    deck = game.deck
    card = {deck.pretty(c): c for c in range(len(deck))}
    south, north = st.zone_ids["hand"][1], st.zone_ids["hand"][0]
    st.zones[south] = [card["K♠"], card["A♦"], card["9♣"]]
    st.zones[north] = [card["J♠"], card["9♥"], card["J♣"]]
    assert engine.to_move(st) == 1
    moves = engine.legal_moves(st)
    assert deck.pretty(HeuristicAgent(seed=1).choose(st, moves).value) == "A♦"
    assert deck.pretty(WorldPolicy(seed=1).choose(st, moves).value) == "K♠"
    st.zones[north] = [card["A♠"], card["9♥"], card["J♣"]]  # now nothing stands: the cheapest card is led
    assert deck.pretty(WorldPolicy(seed=1).choose(st, engine.legal_moves(st)).value) == "9♣"


def _hearts_at_a_lead():
    """A Hearts deal at the lead of its second trick (hearts wants no tricks), and its cards by name."""
    game = load_game(os.path.join(ROOT, "games", "hearts.yaml"))
    st = engine.new_match(game, seed=4)
    policy = HeuristicAgent(seed=1)
    while engine.current_phase(st).id != "play" or st.ph.no < 1 or st.ph.trick:
        engine.apply(st, policy.choose(st, engine.legal_moves(st)))
    deck = game.deck
    return st, {deck.pretty(c): c for c in range(len(deck))}


def _deal_hands(st, card: dict, hands: dict) -> None:
    """Give each seat (counted on from the seat to move) the named cards."""
    first = engine.to_move(st)
    for k, names in hands.items():
        st.zones[st.zone_ids["hand"][(first + k) % 4]] = sorted(card[n] for n in names)


def test_where_it_wants_no_tricks_the_rollout_policy_leads_a_card_an_opponent_must_beat():
    # South to lead 3♣ or 9♦. The next seat holds 10♦ J♦ (it must beat 9♦); 3♣ may win (the only clubs out, 2♣
    # and K♣, are one hand's: it can duck). The heuristic leads its lowest card, 3♣; the rollout policy 9♦.
    st, card = _hearts_at_a_lead()
    _deal_hands(st, card, {0: ["3♣", "9♦"], 1: ["10♦", "J♦"], 2: ["2♣", "K♣"], 3: ["4♥", "5♥"]})
    moves = engine.legal_moves(st)
    pretty = st.game.deck.pretty
    assert pretty(HeuristicAgent(seed=1).choose(st, moves).value) == "3♣"
    assert pretty(WorldPolicy(seed=1).choose(st, moves).value) == "9♦"


def test_where_it_wants_no_tricks_the_rollout_policy_gives_its_dearest_card_to_a_trick_it_cannot_win():
    # 5♣ is led; the next seat holds no club: Q♠ (worth 13 * 20 + 10 by `card_value`), A♦ (12) and 2♥ (20) all
    # lose. The heuristic gives its highest-ranked card, A♦; the rollout policy the dearest, Q♠.
    st, card = _hearts_at_a_lead()
    _deal_hands(st, card, {0: ["5♣", "7♣"], 1: ["Q♠", "A♦", "2♥"], 2: ["8♣"], 3: ["9♣"]})
    engine.apply(st, st.game.card_moves[card["5♣"]])
    moves = engine.legal_moves(st)
    pretty = st.game.deck.pretty
    assert pretty(HeuristicAgent(seed=1).choose(st, moves).value) == "A♦"
    assert pretty(WorldPolicy(seed=1).choose(st, moves).value) == "Q♠"


def test_moves_the_worlds_cannot_tell_apart_are_played_as_the_heuristic_plays_them():
    # Moves 0 and 2 are worth the same in every world, move 1 less: the anchor (the heuristic's move) is played
    # unless the leader beats it clearly.
    rounds = _rounds([[2, 1, 2], [0, -1, 0], [5, 4, 5], [1, 0, 1]])
    assert rounds.choice(anchor=2) == 2 and rounds.choice(anchor=0) == 0
    assert rounds.choice(anchor=1) == 0  # move 0 beats move 1 by 1 in every world: clearly better


def test_a_playout_knows_the_bids_made_before_the_decision():
    # Bridge: the first bidder bids 1♠ and two passes follow; the playouts of the fourth call's pass end the
    # auction, whose `won` finds the declarer among the bids made (read from the deal's log). Playouts on worlds
    # copied with no log found no 1♠ bidder and stopped on "the leader (nobody) is not one of the players".
    st = engine.new_match(load_game(os.path.join(ROOT, "games", "bridge.yaml")), seed=1)
    for call in ("1♠", "pass", "pass"):
        engine.apply(st, next(m for m in engine.legal_moves(st) if engine.describe(st, m) == call))
    seat = engine.to_move(st)
    moves = engine.legal_moves(st)
    agent = SearchAgent(seed=1, budget=300)
    assert agent.choose(st.view(seat), moves) in moves and agent.last.worlds >= 1
