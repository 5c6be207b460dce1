"""The search agent: legal moves from views alone, seeded play reproduced, and a budget that charges sampling.

Bounded: small budgets, a few decisions per spec. Strength and seconds per move are measured (docs/bots.md,
tools/sample_speed.py --search), not asserted here.
"""
from __future__ import annotations

import glob
import os
import random

import pytest

from interp.bots.search import SearchAgent
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
        assert agent.last.work < 2 * agent.budget  # sampling stops when the budget is spent (one try may overrun)


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
