"""Every spec as a PettingZoo AEC environment (the `pettingzoo` extra: pip install 'interp[pettingzoo]').

`env(game, players=None, options=None)` is the environment of one spec (a compiled Game, a shipped game's
name or a spec path) at one player count; `environments()` maps every shipped game's name to a constructor
(`environments()["my-game"](players=4)`). One episode is one deal of a fresh match:

- **agents** are the seats by name (`North`, `East`, …); the agent to act is `engine.to_move`.
- **actions** are `interp.engine.actions.ActionSpace` ids (`Discrete(num_actions)`), the same in every deal. A
  move carrying a list (a `turns` action with the set of cards it takes) is chosen in several steps by the same
  agent — its head, each element, `end` — each step's mask holding the next ids of the legal moves that begin
  with the ids chosen so far; the move is made (and rewards can change) when its last id is chosen.
- **observations** are dicts: `observation`, the seat's information-state tensor from its view
  (`interp.adapters.encoding`: what it sees now and the moves it saw, 0/1 as int8), and `action_mask`,
  1 at the legal ids for the agent to act and all zero for the others (int8, as PettingZoo's classic games).
- **rewards** are `engine.deal_values`, given to every seat when the deal ends; then every agent terminates.
- `reset(seed=S)` deals the deal `engine.new_match(game, players, seed=...)` drawn from S (the same S, the same
  deal); `reset()` with no seed continues the environment's own sequence of deals.
- `render()` (render_mode "ansi") is the text the agent to act may see, never the full table.

>>> e = env("docs/examples/tiny.yaml")
>>> e.reset(seed=1)
>>> e.possible_agents, int(e.action_space("North").n)
(['North', 'South'], 24)
>>> obs, reward, done, cut, info = e.last()
>>> int(obs["action_mask"].sum()) == 12      # the first lead: any card of a hand of twelve
True
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from interp.adapters.encoding import Encoding
from interp.engine import match as engine
from interp.engine.actions import ActionSpace, has_action_space
from interp.engine.state import State
from interp.errors import IllegalMoveError
from interp.spec.compiler import load_game
from interp.spec.resources import shipped_games


class InterpEnv(AECEnv):
    """One spec at one player count as an AEC environment; an episode is one deal."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "interp", "is_parallelizable": False}

    def __init__(self, game, players: int | None = None, options: dict | None = None,
                 render_mode: str | None = None):
        super().__init__()
        self.game = load_game(game) if isinstance(game, str) else game
        self.n = players or self.game.default_players
        if self.n not in self.game.players:
            raise ValueError(f"{self.game.name} is for {', '.join(map(str, self.game.players))} players, "
                             f"not {self.n}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.options, self.render_mode = options, render_mode
        self.metadata = dict(self.metadata, name=f"interp_{self.game.name}")
        self.space = ActionSpace(self.game, self.n)
        self.encoding = Encoding(self.game, self.n, self.space)
        self.possible_agents = [self.game.seat_name(s, self.n) for s in range(self.n)]
        self.seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (self.encoding.information_size,), np.int8),
            "action_mask": spaces.Box(0, 1, (self.space.num_actions,), np.int8)})
        self._action_space = spaces.Discrete(self.space.num_actions)
        self._deals = random.Random()
        self._st: State | None = None
        self.pending: tuple[int, ...] = ()  # the ids chosen so far of a move made in steps

    @property
    def st(self) -> State:
        """The match of the current deal (after `reset`)."""
        if self._st is None:
            raise RuntimeError("reset() the environment first")
        return self._st

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
        self._st = engine.new_match(self.game, self.n, seed=self._deals.randrange(1 << 31), options=self.options)
        self.pending = ()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = self._mover()

    def observe(self, agent: str) -> dict:
        seat = self.seat_of[agent]
        information = self.encoding.information(self.st.view(seat), seat, self.pending)
        mask = np.zeros(self.space.num_actions, dtype=np.int8)
        if not self.st.deal_over and engine.to_move(self.st) == seat:
            mask[self.space.legal_ids(self.st, self.pending)] = 1
        return {"observation": np.asarray(information, dtype=np.int8), "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self._choose(int(action)) and self.st.deal_over:
            for a, value in zip(self.possible_agents, engine.deal_values(self.st)):
                self.rewards[a] = float(value)
                self.terminations[a] = True
        elif not self.st.deal_over:
            self.agent_selection = self._mover()
        self._accumulate_rewards()

    def _choose(self, action: int) -> bool:
        """Choose id `action` for the agent to act; True when it made a whole move. An id no legal move begins
        with raises IllegalMoveError."""
        if not self.space.steps:
            engine.apply(self.st, self.space.move_of(action))  # an illegal move raises IllegalMoveError
            return True
        try:
            step = self.space.choose(self.st, self.pending, action)
        except ValueError as exc:
            raise IllegalMoveError(str(exc)) from None
        self.pending = step.pending
        if step.move is not None:
            engine.apply(self.st, step.move)
        return step.move is not None

    def _mover(self) -> str:
        seat = engine.to_move(self.st)
        assert seat is not None  # the deal is not over
        return self.possible_agents[seat]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.seat_of[self.agent_selection]
        return self.encoding.information_text(self.st.view(seat), seat, self.pending)

    def close(self) -> None:
        pass


def env(game, players: int | None = None, options: dict | None = None, render_mode: str | None = None) -> InterpEnv:
    """The AEC environment of `game` (a compiled Game, a shipped game's name or a spec path)."""
    return InterpEnv(game, players, options, render_mode)


def environments() -> dict:
    """Every shipped game's name -> a constructor of its environment (taking players, options, render_mode); only
    games whose moves can be numbered (`actions.has_action_space`)."""
    return {name: (lambda name=name, **kw: env(name, **kw)) for name in shipped_games()
            if has_action_space(load_game(name))}
