"""The OpenSpiel adapter (the `openspiel` extra): OpenSpiel's own conformance test on every spec and player
count, its ISMCTS bot over `resample_from_infostate`, and the adapter's contracts (views only, deal values)."""
from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed: pip install '.[openspiel]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interp.adapters import openspiel as adapter  # noqa: E402
from interp.engine import match as engine  # noqa: E402
from tests.conftest import SPECS, game_of  # noqa: E402

# Every spec and player count (Scopa's captures, a card and the set of cards it takes, are chosen in steps).
CASES = [(path, n) for path in SPECS for n in game_of(path).players]


@pytest.mark.parametrize("path,n", CASES)
def test_openspiel_random_simulation(path, n):
    """OpenSpiel's RandomSimTest: legal actions, chance outcomes, clones, strings and tensors at every node, and
    every state serialised and read back (pyspiel.serialize_game_and_state) and pickled."""
    name = adapter.register(game_of(path))
    pyspiel.random_sim_test(pyspiel.load_game(name, {"players": n}), num_sims=1, serialize=True, verbose=False)


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


def test_shipped_games_register_on_import_and_compile_when_loaded():
    """In a fresh process, importing the adapter registers every shipped game; loading one compiles that one."""
    code = ("import pyspiel, interp.adapters.openspiel as a; from interp.spec.resources import shipped_games;"
            "names = [g.short_name for g in pyspiel.registered_games() if g.short_name.startswith('interp_')];"
            "assert len(names) == len(shipped_games()), names;"
            "assert not any(c.compiled for c in a._registered.values());"
            "pyspiel.load_game('interp_tarot_5').new_initial_state();"
            "print(sorted(n for n, c in a._registered.items() if c.compiled))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["['interp_tarot_5']"]


def test_spec_options_are_game_parameters():
    """Tarot's `rounds` option (default 2) as a parameter: the match is played with it; an unknown name is refused."""
    game = pyspiel.load_game("interp_tarot", {"players": 4, "rounds": 1})
    assert game.get_parameters()["rounds"] == 1 and game.get_parameters()["garde_contre"] == 6
    state = game.new_initial_state()
    state.apply_action(5)
    assert state.st.options["rounds"] == 1
    assert pyspiel.load_game("interp_tarot").get_parameters()["rounds"] == 2
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'round'"):
        pyspiel.load_game("interp_tarot", {"round": 1})


def test_states_pickle_and_play_on_identically():
    """A Scopa state in the middle of a capture chosen in steps, pickled and serialised, reads back with the same
    strings, legal actions and pending ids, and plays to the same returns; so does a resampled state (which has no
    history to replay) and the game itself."""
    state = _deal(adapter.register(game_of("games/scopa.yaml")), 2, 3)
    state.apply_action(19)  # take with KC: a move chosen in steps, now pending
    game = state.get_game()
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    world = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for original in (state, world):
        copies = [pickle.loads(pickle.dumps(original)),
                  pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, original))[1]]
        for again in copies:
            assert again.pending == original.pending == (19,)
            for player in (0, 1):
                assert again.information_state_string(player) == original.information_state_string(player)
            rng_a, rng_b, ahead = random.Random(1), random.Random(1), original.clone()
            while not ahead.is_terminal():
                assert again.legal_actions() == ahead.legal_actions()
                again.apply_action(rng_a.choice(again.legal_actions()))
                ahead.apply_action(rng_b.choice(ahead.legal_actions()))
            assert again.returns() == ahead.returns()


def test_zero_sum_and_utility_bounds_come_from_the_spec():
    """Tarot declares `match.zero_sum`; Hearts does not (its scores are points taken, all positive); tiny.yaml
    declares `value_range: [-120, 120]`, the bounds OpenSpiel gets; Tarot declares none (±UTILITY_BOUND)."""
    general, zero = pyspiel.GameType.Utility.GENERAL_SUM, pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("interp_tarot").get_type().utility == zero
    assert pyspiel.load_game("interp_hearts").get_type().utility == general
    from interp.spec.compiler import load_game
    tiny = pyspiel.load_game(adapter.register(load_game("docs/examples/tiny.yaml")))
    assert (tiny.min_utility(), tiny.max_utility(), tiny.utility_sum()) == (-120.0, 120.0, 0.0)
    assert pyspiel.load_game("interp_tarot").max_utility() == adapter.UTILITY_BOUND


def test_exploitability_of_the_uniform_policy_on_a_small_zero_sum_spec():
    """tests/specs/bet-or-check.yaml, worked out in its header: against the uniform policy the first to speak
    best responds by always betting (2p - 0.5, the uniform policy getting 2p - 0.75), the other by calling with the
    high card and folding the low (1.5 - 2.5p, against 0.75 - 2p); NashConv 1 - 0.5p, exploitability 0.5 - 0.25p,
    p the share of the deals in which the first to speak holds the high card."""
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    from interp.spec.compiler import load_game
    spec = load_game("tests/specs/bet-or-check.yaml")
    deals = 8
    game = pyspiel.load_game(adapter.register(spec), {"deals": deals})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    high = spec.deck.parse("2S")
    firsts = [engine.new_match(spec, 2, seed=k) for k in range(deals)]
    p = sum(high in st.zones[spec.zone_id("hand", st.active[0], 2)] for st in firsts) / deals
    assert 0 < p < 1  # both kinds of deal are among the eight
    assert exploitability.exploitability(game, policy.UniformRandomPolicy(game)) == pytest.approx(0.5 - 0.25 * p)


def test_one_information_set_has_one_string():
    """Two Tarot states that differ only in the order of seat 0's hand are one information set for seat 0: one
    string (the hand listed in deck order), and one tensor."""
    state = _deal("interp_tarot", 4, 9)
    other = state.clone()
    hand = state.st.game.zone_id("hand", 0, 4)
    other.match.st.zones[hand] = list(reversed(other.st.zones[hand]))
    assert other.st.zones[hand] != state.st.zones[hand]
    assert other.information_state_string(0) == state.information_state_string(0)
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    cards = state.information_state_string(0).split("\n")[1].split(": ")[1].split()
    deck = state.st.game.deck
    assert cards == [deck.pretty(c) for c in sorted(state.st.zones[hand])]
