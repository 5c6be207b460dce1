"""One seat of a spec as a Gymnasium environment (the `pettingzoo` extra brings gymnasium: pip install
'interp[pettingzoo]'); the other seats are played by an agent of your choice.

`env(game, seat=0, opponents="heuristic", players=None, options=None)` is the single-agent environment of one
spec (a compiled Game, a shipped game's name or a spec path): the learner plays `seat`, and every other seat is
played by `opponents` — an agent's name as `--bots` writes it (`heuristic`, `random`, `search`, or your own
`module:Class`; several, separated by commas, for the other seats in turn) or an agent object (anything with
`choose(view, moves)`, docs/bots.md). One episode is one deal of a fresh match:

- **actions** are `interp.engine.actions.ActionSpace` ids (`Discrete(num_actions)`); a move carrying a list is
  chosen in several steps, as in the PettingZoo environment. `action_masks()` (the name sb3-contrib's
  MaskablePPO asks for) and the observation's `action_mask` are 1 at the legal ids. An id outside them is not
  played: the deal stays as it was, the step's reward is `illegal_reward` (default 0.0; make it negative to teach
  an agent that ignores the mask) and its info says `{"illegal_action": True}`.
- **observations** are dicts: `observation`, the seat's information-state tensor from its view
  (`interp.adapters.encoding`, 0/1 as int8), and `action_mask` (int8).
- **reward** is the seat's `engine.deal_values` when the deal ends (then `terminated`), 0 before; never truncated.
- `reset(seed=S)` deals the deal drawn from S (the same S, the same deal and the same opponents' play); the
  dealer is drawn too, uniformly, so the learner meets every position (and, where the dealer sits out, is not
  always out). A deal that ends before the learner has a decision (it sits out, a redeal) is passed over for the
  next one.
- `render()` (render_mode "ansi") is the text the learner's seat may see, never the full table.

>>> e = env("docs/examples/tiny.yaml", seat=0, opponents="random")
>>> obs, info = e.reset(seed=1)
>>> int(e.action_space.n), int(obs["action_mask"].sum()) > 0
(24, True)
"""
from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from interp.adapters.encoding import Encoding
from interp.bots.registry import check_names, make_agent
from interp.engine import match as engine
from interp.engine.actions import ActionSpace
from interp.engine.state import State
from interp.spec.compiler import load_game

MAX_SKIPPED_DEALS = 100
"""How many deals in a row may end before the learner decides before `reset` gives up (ValueError)."""


class InterpGymEnv(gymnasium.Env):
    """One seat of a spec at one player count; the other seats played by `opponents`; an episode is one deal."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(self, game, seat: int = 0, opponents: Any = "heuristic", players: int | None = None,
                 options: dict | None = None, render_mode: str | None = None, illegal_reward: float = 0.0):
        self.game = load_game(game) if isinstance(game, str) else game
        self.n = players or self.game.default_players
        if self.n not in self.game.players:
            raise ValueError(f"{self.game.name} is for {', '.join(map(str, self.game.players))} players, "
                             f"not {self.n}")
        if not 0 <= seat < self.n:
            raise ValueError(f"seat is a seat number from 0 to {self.n - 1}, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.seat, self.options, self.render_mode = seat, options, render_mode
        self.opponents, self.illegal_reward = opponents, float(illegal_reward)
        self._names = check_names(opponents) if isinstance(opponents, str) else None
        self.space = ActionSpace(self.game, self.n)
        self.encoding = Encoding(self.game, self.n, self.space)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (self.encoding.information_size,), np.int8),
            "action_mask": spaces.Box(0, 1, (self.space.num_actions,), np.int8)})
        self.action_space = spaces.Discrete(self.space.num_actions)
        self._st: State | None = None
        self._agents: dict = {}
        self.pending: tuple[int, ...] = ()  # the ids chosen so far of a move made in steps

    @property
    def st(self) -> State:
        """The match of the current deal (after `reset`)."""
        if self._st is None:
            raise RuntimeError("reset() the environment first")
        return self._st

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        for _ in range(MAX_SKIPPED_DEALS):
            deal_seed, dealer = int(self.np_random.integers(1 << 31)), int(self.np_random.integers(self.n))
            self._st = engine.new_match(self.game, self.n, seed=deal_seed, options=self.options, dealer=dealer)
            self._agents = self._opponents(deal_seed)
            self.pending = ()
            self._play_others()
            if not self.st.deal_over:
                return self._observation(), {}
        raise ValueError(f"{MAX_SKIPPED_DEALS} deals in a row ended before seat {self.seat} had a decision")

    def step(self, action) -> tuple[dict, float, bool, bool, dict]:
        if self.st.deal_over:
            raise RuntimeError("the deal is over: reset() the environment")
        if not self._mask()[int(action)]:
            return self._observation(), self.illegal_reward, False, False, {"illegal_action": True}
        self._choose(int(action))
        self._play_others()
        reward = float(engine.deal_values(self.st)[self.seat]) if self.st.deal_over else 0.0
        return self._observation(), reward, self.st.deal_over, False, {}

    def action_masks(self) -> np.ndarray:
        """Booleans, True at the ids the learner may choose now (all False once the deal is over)."""
        return self._mask().astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.encoding.information_text(self.st.view(self.seat), self.seat, self.pending)

    # -- the deal -------------------------------------------------------------------------------------------------
    def _opponents(self, deal_seed: int) -> dict:
        """An agent for each other seat, seeded from the deal's seed (the same deal, the same play)."""
        others = [s for s in range(self.n) if s != self.seat]
        if self._names is None:
            return {s: self.opponents for s in others}
        seeds = random.Random(deal_seed)
        return {s: make_agent(self._names[k % len(self._names)], seed=seeds.randrange(1 << 31))
                for k, s in enumerate(others)}

    def _play_others(self) -> None:
        """Let the other seats move until the learner is to move or the deal is over."""
        while not self.st.deal_over and engine.to_move(self.st) != self.seat:
            seat = engine.to_move(self.st)
            assert seat is not None  # the deal is not over
            engine.apply(self.st, self._agents[seat].choose(self.st.view(seat), engine.legal_moves(self.st)))

    def _choose(self, action: int) -> None:
        """Play legal id `action` (the whole move, or one more step of a move chosen in steps)."""
        if not self.space.steps:
            engine.apply(self.st, self.space.move_of(action), check=False)
            return
        step = self.space.choose(self.st, self.pending, action)
        self.pending = step.pending
        if step.move is not None:
            engine.apply(self.st, step.move)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.space.num_actions, dtype=np.int8)
        if not self.st.deal_over:
            mask[self.space.legal_ids(self.st, self.pending)] = 1
        return mask

    def _observation(self) -> dict:
        information = self.encoding.information(self.st.view(self.seat), self.seat, self.pending)
        return {"observation": np.asarray(information, dtype=np.int8), "action_mask": self._mask()}


def env(game, seat: int = 0, opponents: Any = "heuristic", players: int | None = None, options: dict | None = None,
        render_mode: str | None = None, illegal_reward: float = 0.0) -> InterpGymEnv:
    """The single-agent environment of `game` (a compiled Game, a shipped game's name or a spec path) for `seat`."""
    return InterpGymEnv(game, seat, opponents, players, options, render_mode, illegal_reward)
