"""A search agent for every spec: determinized Monte-Carlo search over worlds sampled from its view.

Perfect-information Monte Carlo (PIMC): for each of a number of worlds drawn by `sample_world` (which
sees only the view, so the agent cannot cheat), every legal move is tried once and the deal is played out to
its end by a rollout policy (the spec-driven heuristic, or random play); the move whose mean deal value for the
deciding seat is highest is chosen. Every move is judged on the same worlds with the same rollout seeds
(common random numbers), so the comparison between moves is paired and its noise small.

PIMC rather than information-set MCTS: the engine is an interpreter, so a decision gets hundreds, not hundreds of
thousands, of playouts; a tree below the root would see few visits per node, while PIMC spends every playout on
the decision at hand. Its known weakness (strategy fusion: it assumes it will know the hidden cards later) costs
little in trick games, where it is the classic strong baseline.

The budget is counted in playout moves (`budget`), not seconds, so a seed reproduces the agent's play exactly
on any machine. A sampled world is charged the work its sampling really took (the moves its replays of the deal
made and tried, retries included: `worlds.draw_world`), and sampling stops when the budget is spent: a position
whose worlds are slow to find gets fewer worlds rather than more time (none: the rollout policy decides).
`worlds` caps the number of sampled worlds.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from interp.bots.agents import Agent, HeuristicAgent, RandomAgent
from interp.bots.worlds import draw_world
from interp.engine import match as engine
from interp.engine.state import Move, State

DEFAULT_BUDGET = 6000  # playout moves per decision: about a second or less on a 2-core machine for every game
DEFAULT_WORLDS = 40
MAX_FAILURES = 3  # worlds the sampler may fail to find for one decision before the agent plays by its policy


@dataclass(frozen=True)
class Effort:
    """What one decision's search did: `worlds` played out, `failures` (worlds not found), `work` charged (sampling
    work plus playout moves, the budget's unit)."""

    worlds: int
    failures: int
    work: int


class SearchAgent(Agent):
    """Chooses by determinized playouts from worlds sampled from its view; `last` is the Effort of its last search.

    >>> from interp.spec.compiler import load_game
    >>> game = load_game("docs/examples/tiny.yaml")
    >>> st = engine.new_match(game, seed=5)
    >>> seat = engine.to_move(st)
    >>> agent = SearchAgent(seed=1, budget=400)
    >>> agent.choose(st.view(seat), engine.legal_moves(st)) in engine.legal_moves(st)
    True
    >>> agent.last.worlds > 0 and agent.last.work >= 400
    True
    """

    name = "search"

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET, worlds: int = DEFAULT_WORLDS,
                 rollout: str = "heuristic"):
        self.rng = random.Random(seed)
        self.budget = budget
        self.worlds = worlds
        self.policy = HeuristicAgent if rollout == "heuristic" else RandomAgent
        self.last: Effort | None = None

    def choose(self, view: State, moves: list) -> Move:
        if len(moves) == 1:
            return moves[0]
        values = self.evaluate(view, moves)
        if values is None:  # no world could be sampled: play as the rollout policy would
            return self.policy(seed=self.rng.randrange(1 << 30)).choose(view, moves)
        return max(zip(values, moves), key=lambda pair: pair[0])[1]

    def evaluate(self, view: State, moves: list) -> list | None:
        """The mean deal value for the deciding seat of each move over sampled worlds (None: no world found within
        the budget)."""
        me = engine.to_move(view)
        if me is None:
            raise ValueError("no seat is to move in this view")
        totals = [0.0] * len(moves)
        spent, worlds, failures = 0, 0, 0
        while worlds < self.worlds and spent < self.budget and failures < MAX_FAILURES:
            drawn = draw_world(view, self.rng, limit=self.budget - spent)
            spent += drawn.work
            world = drawn.world
            if world is None:
                failures += 1
                continue
            rollout_seed = self.rng.randrange(1 << 30)
            for i, move in enumerate(moves):
                value, steps = self.playout(world.copy(events=False), move, me, rollout_seed)
                totals[i] += value
                spent += steps
            worlds += 1
        self.last = Effort(worlds, failures, spent)
        return [t / worlds for t in totals] if worlds else None

    def playout(self, st: State, move: Move, me: int, seed: int) -> tuple:
        """Apply `move`, play the deal out with the rollout policy; (the value for `me`, moves played)."""
        policy = self.policy(seed=seed)
        engine.apply(st, move, check=False)
        steps = 1
        while not st.deal_over:
            engine.apply(st, policy.choose(st, engine.legal_moves(st)), check=False)
            steps += 1
        return float(engine.deal_values(st)[me]), steps
