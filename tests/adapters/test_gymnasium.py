"""The Gymnasium single-agent environment (gymnasium comes with the `pettingzoo` extra): Gymnasium's own
`check_env` on every spec, the learner's reward worked out by hand on a two-move game, seeding, moves refused
outside the mask, and the docs' random-policy example."""
from __future__ import annotations

import os
import re

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed: pip install '.[pettingzoo]'")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from interp.adapters.gymnasium import env  # noqa: E402
from interp.engine.state import Move  # noqa: E402
from tests.conftest import ROOT, SPECS  # noqa: E402

TAKE_OR_GIVE = os.path.join(ROOT, "tests", "specs", "take-or-give.yaml")


@pytest.mark.parametrize("path", SPECS)
def test_check_env_passes_on_every_spec(path):
    """Gymnasium's env_checker: spaces, reset and step signatures, seeding determinism, observations in their
    space, rendering (render_mode "ansi")."""
    check_env(env(path, seat=0, opponents="heuristic", render_mode="ansi"), skip_render_check=False)


class Always:
    """An opponent that makes the named choice whenever it may."""

    def __init__(self, option: str):
        self.option = option

    def choose(self, view, moves):
        return Move("option", self.option)


@pytest.mark.parametrize("learner,opponent,reward", [("take", "give", 1.0), ("give", "take", -1.0),
                                                      ("take", "take", 0.0), ("give", "give", 0.0)])
def test_the_reward_is_the_learners_deal_value(learner, opponent, reward):
    """take-or-give: a take moves a point from the other player. Taking against a giver is worth +1 a deal,
    giving against a taker -1, the same choice 0; the reward comes once, as the deal ends."""
    e = env(TAKE_OR_GIVE, seat=0, opponents=Always(opponent))
    obs, _ = e.reset(seed=3)
    action = e.space.action_id(Move("option", learner))
    assert obs["action_mask"][action] == 1 and e.action_masks().sum() == 2
    obs, got, terminated, truncated, info = e.step(action)
    assert (got, terminated, truncated) == (reward, True, False)
    assert not e.action_masks().any()


def test_an_action_outside_the_mask_is_not_played():
    e = env("docs/examples/tiny.yaml", seat=1, opponents="random", illegal_reward=-1.0)
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    again, reward, terminated, _, info = e.step(illegal)
    assert (reward, terminated, info) == (-1.0, False, {"illegal_action": True})
    assert (again["observation"] == obs["observation"]).all()


def test_the_same_seed_deals_the_same_deal_and_the_same_play():
    runs = []
    for _ in range(2):
        e = env("games/hearts.yaml", seat=2, opponents="heuristic,random")
        obs, _ = e.reset(seed=11)
        trace = [obs["observation"].tobytes()]
        terminated = False
        while not terminated:
            obs, reward, terminated, _, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
            trace.append(obs["observation"].tobytes())
        runs.append((trace, reward))
    assert runs[0] == runs[1]


def test_the_docs_example_runs(capsys):
    """The random-policy loop of docs/adapters.md ("Gymnasium")."""
    with open(os.path.join(ROOT, "docs", "adapters.md"), encoding="utf-8") as f:
        text = f.read()
    block = re.search(r"## Gymnasium.*?```python\n(.*?)```", text, re.S).group(1)
    exec(compile(block, "docs/adapters.md", "exec"), {})
    assert capsys.readouterr().out.startswith("mean deal value of the random player: ")
