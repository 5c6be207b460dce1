"""The PettingZoo adapter (the `pettingzoo` extra): PettingZoo's own api_test and seed_test on every spec and
player count (a bounded number of cycles), the rewards are the deal values, and observations come from views."""
from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed: pip install '.[pettingzoo]'")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from interp.adapters.pettingzoo import env, environments  # noqa: E402
from interp.engine import match as engine  # noqa: E402
from tests.conftest import SPECS, game_of  # noqa: E402

# Every spec and player count (Scopa's captures, a card and the set of cards it takes, are chosen in steps).
CASES = [(path, n) for path in SPECS for n in game_of(path).players]


@pytest.mark.parametrize("path,n", CASES)
def test_pettingzoo_api(path, n):
    api_test(env(game_of(path), players=n), num_cycles=40)


@pytest.mark.parametrize("path,n", CASES)
def test_pettingzoo_seed(path, n):
    seed_test(lambda: env(game_of(path), players=n), num_cycles=40)


@pytest.mark.parametrize("path,n", [("games/tarot.yaml", 4), ("games/scopa.yaml", 2)])
def test_a_deal_played_through_the_environment_scores_its_deal_values(path, n):
    e = env(game_of(path), players=n)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, done, cut, _ = e.last()
        totals[agent] += reward
        if done or cut:
            e.step(None)
            continue
        assert obs["action_mask"].sum() >= 1
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents
    assert list(totals.values()) == [float(v) for v in engine.deal_values(e.st)]


def test_only_the_agent_to_act_has_legal_actions():
    e = env("preferans", players=3)
    e.reset(seed=1)
    masks = {a: e.observe(a)["action_mask"].sum() for a in e.possible_agents}
    assert [a for a, m in masks.items() if m] == [e.agent_selection]


def test_every_shipped_game_with_numbered_moves_has_an_environment():
    names = environments()
    assert "tarot" in names and "piquet-rubicon" in names and "scopa" in names
    assert names["tarot"](players=5).possible_agents.__len__() == 5


def test_a_capture_is_chosen_in_steps_by_the_same_agent():
    """Scopa, seed 3 of test_actions' worked example, as an environment: take 3B + 7S with KC is the steps 19,
    112, 106, 120; the agent stays selected until the move is whole, and no reward comes before it."""
    from interp.engine import match as eng
    e = env("scopa")
    e.reset(seed=1)
    e._st = eng.new_match(e.game, 2, seed=3)  # the worked example's deal
    e.agent_selection = e.possible_agents[eng.to_move(e.st)]
    agent = e.agent_selection
    masks = []
    for action in (19, 112, 106, 120):
        masks.append(list(np.flatnonzero(e.observe(agent)["action_mask"])))
        e.step(action)
        assert e.rewards == dict.fromkeys(e.possible_agents, 0.0)
    assert masks == [[19, 60, 67], [102, 112], [106], [120]]
    assert e.agent_selection != agent and e.pending == ()
    with pytest.raises(Exception, match="begins no legal move"):
        e.step(80)  # 80 is a step (the card AD taken), not the first id of a move


def test_an_illegal_action_is_refused():
    from interp.errors import IllegalMoveError
    e = env("docs/examples/tiny.yaml")
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError):
        e.step(illegal)


def test_the_docs_example_runs():
    with open("docs/adapters.md", encoding="utf-8") as f:
        block = re.search(r"## PettingZoo\n\n```python\n(.*?)```", f.read(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "docs/adapters.md", "exec"), namespace)
    assert namespace["e"].possible_agents == ["South", "West"]  # Scopa's seat names
    assert int(namespace["obs"]["action_mask"].sum()) >= 1


@pytest.mark.parametrize("path,n", CASES)
def test_an_illegal_action_id_in_range_is_refused_as_an_illegal_move(path, n):
    """Issue 25: an id that numbers a move of another phase (a card during Preferans' or Tarot's auction) raised
    TypeError or IndexError while the refusal was worded. Every id the mask forbids (or a spread of 40 of them)
    is refused with IllegalMoveError naming it, and the deal is unchanged."""
    from interp.errors import IllegalMoveError
    e = env(game_of(path), players=n)
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.observe(agent)
    forbidden = np.flatnonzero(before["action_mask"] == 0)
    for action in forbidden[::max(1, len(forbidden) // 40)]:
        with pytest.raises(IllegalMoveError, match="not legal now|begins no legal move"):
            e.step(int(action))
    after = e.observe(agent)
    assert e.agent_selection == agent and (after["observation"] == before["observation"]).all()
