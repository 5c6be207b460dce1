"""The OpenSpiel adapter (the `openspiel` extra): OpenSpiel's own conformance test on every spec and player
count, its ISMCTS bot over `resample_from_infostate`, and the adapter's contracts (views only, deal values)."""
from __future__ import annotations

import random
import re

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interp.engine import match as engine  # noqa: E402
from interp.adapters import openspiel as adapter  # noqa: E402

from tests.conftest import SPECS, game_of  # noqa: E402

# Every spec and player count (Scopa's captures, a card and the set of cards it takes, are chosen in steps).
CASES = [(path, n) for path in SPECS for n in game_of(path).players]


@pytest.mark.parametrize("path,n", CASES)
def test_openspiel_random_simulation(path, n):
    """OpenSpiel's RandomSimTest: legal actions, chance outcomes, clones, strings and tensors at every node."""
    name = adapter.register(game_of(path))
    pyspiel.random_sim_test(pyspiel.load_game(name, {"players": n}), num_sims=2, serialize=False, verbose=False)


def _deal(name: str, n: int, seed: int):
    game = pyspiel.load_game(name, {"players": n})
    state = game.new_initial_state()
    state.apply_action(seed)
    return state


def test_returns_are_the_deal_values_of_the_same_deal():
    path = "games/preferans.yaml"
    name = adapter.register(game_of(path))
    rng = random.Random(4)
    state = _deal(name, 3, 11)
    st = engine.new_match(game_of(path), 3, seed=11)  # the same deal, played alongside by the engine
    space = state.get_game().space
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        assert state.legal_actions() == space.legal_ids(st)
        engine.apply(st, space.move_of(action))
        state.apply_action(action)
    assert state.returns() == [float(v) for v in engine.deal_values(st)]


def test_information_comes_from_the_view_only():
    """Seat 0's information string names every card of its hand; its tensors set a zone bit for exactly the
    cards its view shows (its hand), none of seat 1's."""
    game = game_of("games/preferans.yaml")
    state = _deal(adapter.register(game), 3, 3)
    st, enc = state.st, state.get_game().encoding
    seen = [(z, c) for z, cards in enumerate(st.view(0).zones) for c in cards]
    hidden = [(z, c) for z, cards in enumerate(st.zones) for c in cards if (z, c) not in seen]
    assert len(seen) == 10 and len(hidden) == 22  # a hand of ten; two hands and the talon unseen
    text = state.information_state_string(0)
    assert all(game.deck.pretty(c) in text for _, c in seen)
    for tensor in (state.information_state_tensor(0), state.observation_tensor(0)):
        bits = [(z, c) for z in range(enc.zones) for c in range(enc.deck) if tensor[3 + z * enc.deck + c]]
        assert sorted(bits) == sorted(seen)


def test_resampled_states_share_the_information_state():
    name = adapter.register(game_of("games/tarot.yaml"))
    rng = random.Random(2)
    state = _deal(name, 4, 5)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(3):
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.legal_actions() == state.legal_actions()


def test_a_capture_is_chosen_card_by_card_and_seen_whole():
    """Scopa, seed 3 (the worked example of test_actions): the seat to move holds JS AS KC, the table is 3B 3S 7S
    6S. Taking 3B + 7S with KC is the actions 19 (take with KC), 112 (3B), 106 (7S), 120 (end), all by the same
    player; the steps are in the chooser's information only, and the other seat sees the move when it is made."""
    state = _deal(adapter.register(game_of("games/scopa.yaml")), 2, 3)
    chooser = state.current_player()
    other = 1 - chooser
    assert state.legal_actions() == [19, 60, 67]
    before = state.information_state_string(other), state.information_state_tensor(other)
    state.apply_action(19)
    assert state.current_player() == chooser and state.legal_actions() == [102, 112]
    assert "choosing: take K♥ …" in state.information_state_string(chooser)
    assert (state.information_state_string(other), state.information_state_tensor(other)) == before
    world = state.resample_from_infostate(chooser, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.legal_actions() == [102, 112]
    assert world.information_state_string(chooser) == state.information_state_string(chooser)
    for action in (112, 106):
        state.apply_action(action)
        assert state.current_player() == chooser
    assert state.legal_actions() == [120]
    table = state.st.game.zone_id("table", None, 2)
    state.apply_action(120)
    assert state.current_player() == other and state.pending == ()
    assert sorted(state.st.zones[table]) == [state.st.game.deck.parse(c) for c in ("3S", "6S")]
    assert "take" in state.information_state_string(other).split("\n")[-1]


@pytest.mark.parametrize("path,n,seeds", [("docs/examples/tiny.yaml", 2, (1, 2)), ("games/preferans.yaml", 3, (1, 2)),
                                          ("games/scopa.yaml", 2, (1,))])
def test_ismcts_plays_deals(path, n, seeds):
    """OpenSpiel's ISMCTS bot, sampling worlds through resample_from_infostate, plays whole deals legally."""
    from interp.spec.compiler import load_game
    name = adapter.register(load_game(path))
    game = pyspiel.load_game(name, {"players": n})
    rs = __import__("numpy").random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rs)
    for seed in seeds:
        state = game.new_initial_state()
        state.apply_action(seed)
        while not state.is_terminal():
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert len(state.returns()) == n


def test_bad_player_count_is_refused():
    name = adapter.register(game_of("games/tarot.yaml"))
    with pytest.raises(Exception, match="for 3, 4, 5 players, not 2"):
        pyspiel.load_game(name, {"players": 2})


def test_the_docs_example_runs():
    """The OpenSpiel example of docs/adapters.md (the README shows the same one)."""
    with open("docs/adapters.md", encoding="utf-8") as f:
        block = re.search(r"## OpenSpiel\n\n```python\n(.*?)```", f.read(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "docs/adapters.md", "exec"), namespace)
    assert "interp_scopa" in namespace["names"] and namespace["state"].current_player() in range(5)
