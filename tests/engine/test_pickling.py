"""Games, states and agents pickle, so that deals can be played in other processes and on other machines
(`interp simulate --executor ray`): a game as the way to load it again (a shipped game by its name, another spec
file by its absolute path), a state with its game, an agent as it is."""
from __future__ import annotations

import copy
import os
import pickle
import random

import pytest

from interp.bots.registry import make_agent
from interp.engine import match as engine
from interp.spec.compiler import compile_spec, load_game
from interp.spec.loader import load_spec

from ..conftest import ROOT

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


def test_a_shipped_game_pickles_as_its_name_and_another_file_as_its_absolute_path():
    shipped = pickle.loads(pickle.dumps(load_game("tarot")))
    assert shipped.name == load_game("tarot").name and shipped.reload[1] == ("tarot",)
    assert load_game(os.path.relpath(TINY)).reload[1] == (TINY,)


def test_a_state_pickled_mid_deal_plays_on_exactly_as_the_original():
    game = load_game("preferans")
    st = engine.new_match(game, None, 7)
    rng = random.Random(1)
    for _ in range(12):
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])
    twin = pickle.loads(pickle.dumps(st))
    assert twin.game is pickle.loads(pickle.dumps(game))  # loaded once in this process, shared by its states
    while not st.deal_over:
        moves = engine.legal_moves(st)
        assert engine.legal_moves(twin) == moves
        move = moves[rng.randrange(len(moves))]
        engine.apply(st, move)
        engine.apply(twin, move)
    assert twin.deal_over and engine.deal_values(twin) == engine.deal_values(st)
    assert twin.to_json() == st.to_json()


@pytest.mark.parametrize("name", ["random", "heuristic", "search"])
def test_an_agent_pickles_and_chooses_as_the_original(name):
    game = load_game(TINY)
    st = engine.new_match(game, None, 3)
    agent = make_agent(name, seed=5, **({"worlds": 4} if name == "search" else {}))
    twin = pickle.loads(pickle.dumps(agent))
    seat = engine.to_move(st)
    assert twin.choose(st.view(seat), engine.legal_moves(st)) == agent.choose(st.view(seat), engine.legal_moves(st))


def test_a_game_compiled_from_a_document_in_memory_does_not_pickle_and_says_why():
    game = compile_spec(load_spec(TINY))
    with pytest.raises(pickle.PicklingError, match="only a game loaded from its file pickles"):
        pickle.dumps(game)


def test_copying_a_game_shares_its_compiled_parts_rather_than_loading_it_again():
    game = load_game(TINY)
    twin = copy.copy(game)
    assert twin is not game and twin.phases is game.phases and twin.reload == game.reload
