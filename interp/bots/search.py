"""A search agent for every spec: determinized Monte-Carlo search over worlds sampled from its view.

Perfect-information Monte Carlo (PIMC): worlds are drawn by `sample_world` (which sees only the view, so the agent
cannot cheat); on each world every move still in the running is tried and the deal played out to its end by a
rollout policy; the move whose mean deal value for the deciding seat is highest is chosen. Every move is judged on
the same worlds with the same rollout seeds (common random numbers), so the comparison between moves is paired and
its noise small.

Where the playouts go (`SearchAgent.evaluate`):
- **stakes**: a decision's budget is the base budget times its stakes (`stakes`): a decision that shapes the deal
  before the cards are played (an auction, a choice of contract, a discard, a declaration) gets `SHAPING` times
  as much, and a decision among many moves more again (the square root of the number of moves over
  `MOVES_AT_BASE`, capped at `MAX_MOVES_FACTOR`), so a contract chosen among two dozen gets many worlds;
- **pruning** (successive halving): worlds come in rounds that double (4, 8, 16, … worlds in all); after each
  round a move clearly worse than the leader — its paired difference to the leader below zero by about
  `PRUNE_Z` standard errors (more on few worlds) — is dropped, and when the budget left cannot give the moves still running as many worlds
  again, only the better half goes on. The search stops when one move is left, when the budget is spent, or when
  every move has had the same value in every world so far (nothing is at stake: no more worlds will tell them
  apart);
- **rollouts**: `agents.WorldPolicy`, the heuristic made to use what a world shows — it wins a trick only with a
  card no later opponent can beat, gives points to a partner's trick that no one can take any more and, when it
  cannot win, gives up its cheapest card — so that the defenders of a bad contract beat it in the playouts;
- **the move played**: the heuristic's move on the view (the anchor) unless the leader beats it by `ANCHOR_Z`
  standard errors on the paired worlds (`_Rounds.choice`), so moves the worlds cannot tell apart are played as
  the heuristic plays them, not in legal-move order.

PIMC rather than information-set MCTS: the engine is an interpreter, so a decision gets hundreds, not hundreds of
thousands, of playouts; a tree below the root would see few visits per node, while PIMC spends every playout on
the decision at hand. Its known weakness (strategy fusion: it assumes it will know the hidden cards later) costs
little in trick games, where it is the classic strong baseline.

The budget is counted in playout moves (`budget`), not seconds, so a seed reproduces the agent's play exactly
on any machine. A sampled world is charged the work its sampling took (`worlds.draw_world`), and sampling stops
when the budget is spent: a position whose worlds are slow to find gets fewer worlds rather than more time (none:
the heuristic decides). `worlds` caps the number of sampled worlds of a decision.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

from interp.bots.agents import Agent, HeuristicAgent, RandomAgent, WorldPolicy
from interp.bots.worlds import draw_world
from interp.engine import match as engine
from interp.engine.state import Move, State

DEFAULT_BUDGET = 2000  # playout moves for a decision of ordinary stakes (docs/bots.md: the seconds it takes)
DEFAULT_WORLDS = 400  # worlds per decision at most
SHAPING = 3  # the budget of a decision made before the cards are played, in ordinary budgets
PLAY_PHASES = ("tricks", "turns")  # the phase types in which the cards are played
MOVES_AT_BASE = 4  # a decision among this many moves or fewer gets no more for its number of moves
MAX_MOVES_FACTOR = 2.0  # … and one among many gets at most this many times more
FIRST_ROUND = 4  # worlds before the first pruning
PRUNE_Z = 2.0  # standard errors below the leader that make a move clearly worse (times 1 + 2 / worlds: few worlds
# need more, as Student's t does)
ANCHOR_Z = 1.0  # standard errors by which the leader must beat the view policy's move to be played instead of it
MAX_FAILURES = 3  # worlds the sampler may fail to find for one decision before the agent plays the anchor


@dataclass(frozen=True)
class Effort:
    """What one decision's search did: `worlds` played out, `failures` (worlds not found), `work` charged (sampling
    work plus playout moves, the budget's unit), the `budget` its stakes gave it, and the moves still in the
    running at the end (`finalists`)."""

    worlds: int
    failures: int
    work: int
    budget: int = 0
    finalists: int = 0


def stakes(view: State, moves: list) -> float:
    """How many ordinary budgets a decision gets: `SHAPING` for one made outside the play of the cards (an
    auction, a choice, a discard, a declaration), times sqrt(moves / MOVES_AT_BASE) between 1 and
    MAX_MOVES_FACTOR.

    >>> from interp.spec.compiler import load_game
    >>> st = engine.new_match(load_game("docs/examples/tiny.yaml"), seed=5)
    >>> moves = engine.legal_moves(st)
    >>> engine.current_phase(st).type_name, len(moves)
    ('tricks', 12)
    >>> stakes(st, moves[:4]), round(stakes(st, moves), 2), stakes(st, moves * 2)  # 4, 12 and 24 moves
    (1.0, 1.73, 2.0)
    """
    phase = engine.current_phase(view)
    shaping = phase is not None and phase.type_name not in PLAY_PHASES
    many = min(MAX_MOVES_FACTOR, max(1.0, math.sqrt(len(moves) / MOVES_AT_BASE)))
    return (SHAPING if shaping else 1) * many


class SearchAgent(Agent):
    """Chooses by determinized playouts from worlds sampled from its view; `last` is the Effort of its last search.

    >>> from interp.spec.compiler import load_game
    >>> game = load_game("docs/examples/tiny.yaml")
    >>> st = engine.new_match(game, seed=5)
    >>> seat = engine.to_move(st)
    >>> agent = SearchAgent(seed=1, budget=400)
    >>> agent.choose(st.view(seat), engine.legal_moves(st)) in engine.legal_moves(st)
    True
    >>> agent.last.worlds > 0 and agent.last.budget == round(400 * stakes(st, engine.legal_moves(st)))
    True
    """

    name = "search"

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET, worlds: int = DEFAULT_WORLDS,
                 rollout: str = "heuristic"):
        self.rng = random.Random(seed)
        self.budget = budget
        self.worlds = worlds
        self.policy = WorldPolicy if rollout == "heuristic" else RandomAgent
        self.anchor = HeuristicAgent if rollout == "heuristic" else RandomAgent
        self.last: Effort | None = None

    def choose(self, view: State, moves: list) -> Move:
        if len(moves) == 1:
            return moves[0]
        anchor = moves.index(self.anchor(seed=self.rng.randrange(1 << 30)).choose(view, moves))
        rounds = self.search(view, moves)
        if rounds is None:  # no world could be sampled: play as the view's policy would
            return moves[anchor]
        return moves[rounds.choice(anchor)]

    def evaluate(self, view: State, moves: list) -> list | None:
        """The mean deal value for the deciding seat of each move over the worlds it was played on (a move pruned
        early is -inf: it was clearly worse); None when no world was found within the budget."""
        rounds = self.search(view, moves)
        return rounds.means() if rounds is not None else None

    def search(self, view: State, moves: list) -> _Rounds | None:
        """The deal values for the deciding seat of each move still in the running, world by world; None when no
        world was found within the budget."""
        me = engine.to_move(view)
        if me is None:
            raise ValueError("no seat is to move in this view")
        budget = round(self.budget * stakes(view, moves))
        rounds = _Rounds(len(moves))
        spent, failures = 0, 0
        while rounds.worlds < self.worlds and spent < budget and failures < MAX_FAILURES:
            drawn = draw_world(view, self.rng, limit=budget - spent)
            spent += drawn.work
            world = drawn.world
            if world is None:
                failures += 1
                continue
            rollout_seed = self.rng.randrange(1 << 30)
            per_world = spent
            for i in rounds.alive:
                value, steps = self.playout(world.copy(), moves[i], me, rollout_seed)
                rounds.add(i, value)
                spent += steps
            rounds.worlds += 1
            if rounds.worlds >= rounds.next_check and not rounds.prune(budget - spent, spent - per_world):
                break
        self.last = Effort(rounds.worlds, failures, spent, budget, len(rounds.alive))
        return rounds if rounds.worlds else None

    def playout(self, st: State, move: Move, me: int, seed: int) -> tuple:
        """Apply `move`, play the deal out with the rollout policy; (the value for `me`, moves played)."""
        policy = self.policy(seed=seed)
        engine.apply(st, move, check=False)
        steps = 1
        while not st.deal_over:
            engine.apply(st, policy.choose(st, engine.legal_moves(st)), check=False)
            steps += 1
        return float(engine.deal_values(st)[me]), steps


class _Rounds:
    """The values of the moves still in the running, world by world, and the successive-halving rounds.

    >>> r = _Rounds(3)
    >>> for values in ([5, 0, 4], [5, 1, 4], [5, 0, 5], [5, 0, 4]):
    ...     r.worlds += 1
    ...     for i, v in enumerate(values):
    ...         r.add(i, v)
    >>> r.prune(budget_left=100, world_cost=3), r.alive   # move 1 is clearly worse than move 0; 2 is not
    (True, [0, 2])
    >>> r.means()[1]
    -inf
    """

    def __init__(self, n: int):
        self.alive = list(range(n))
        self.values: list[list[float]] = [[] for _ in range(n)]
        self.worlds = 0
        self.next_check = FIRST_ROUND

    def add(self, i: int, value: float) -> None:
        self.values[i].append(value)

    def means(self) -> list:
        return [sum(self.values[i]) / len(self.values[i]) if i in self.alive else -math.inf
                for i in range(len(self.values))]

    def choice(self, anchor: int) -> int:
        """The move to play: the leader by mean if it is clearly better than move `anchor` (the view policy's
        choice: its paired differences to it above zero by ANCHOR_Z standard errors), else `anchor` while it is in
        the running — so moves the worlds cannot tell apart are played as the policy would play them.

        >>> r = _Rounds(2)
        >>> for values in ([5, 4], [3, 4], [6, 4], [4, 4]):
        ...     r.worlds += 1
        ...     for i, v in enumerate(values):
        ...         r.add(i, v)
        >>> r.choice(anchor=1), r.choice(anchor=0)   # 4.5 against 4 on differences 1, -1, 2, 0: not clear
        (1, 0)
        """
        means = self.means()
        leader = max(range(len(means)), key=means.__getitem__)
        if anchor not in self.alive or _clearly_worse(self.values[anchor], self.values[leader], ANCHOR_Z):
            return leader
        return anchor

    def prune(self, budget_left: int, world_cost: int) -> bool:
        """At the end of a round: drop the moves clearly worse than the leader, then (when the budget left cannot
        give the rest as many worlds again) all but the better half; False when the search should stop (one move
        left, or every move the same in every world so far)."""
        self.next_check *= 2
        values = self.values
        if all(values[i] == values[self.alive[0]] for i in self.alive):
            return False  # no world tells the moves apart: nothing is at stake
        means = {i: sum(values[i]) / len(values[i]) for i in self.alive}
        leader = max(self.alive, key=means.__getitem__)
        per_move = world_cost / len(self.alive)
        self.alive = [i for i in self.alive if i == leader or not _clearly_worse(values[i], values[leader])]
        if len(self.alive) > 2 and budget_left < self.worlds * per_move * len(self.alive):
            self.alive = sorted(self.alive, key=means.__getitem__, reverse=True)[:max(2, (len(self.alive) + 1) // 2)]
        return len(self.alive) > 1


def _clearly_worse(values: list, leader: list, z: float = PRUNE_Z) -> bool:
    """Whether the paired differences to the leader are below zero by z * (1 + 2 / worlds) standard errors (any
    below-zero mean when they never vary).

    >>> _clearly_worse([1, 1, 1, 1], [2, 2, 2, 2]), _clearly_worse([0, 3, 1, 2], [2, 2, 2, 2])
    (True, False)
    >>> # differences -2, 1, -1, 0: mean -0.5, standard error 0.65; at 4 worlds z counts 1.5 times
    >>> _clearly_worse([0, 3, 1, 2], [2, 2, 2, 2], z=0.6), _clearly_worse([0, 3, 1, 2], [2, 2, 2, 2], z=0.4)
    (False, True)
    """
    diffs = [a - b for a, b in zip(values, leader)]
    k = len(diffs)
    mean = sum(diffs) / k
    var = sum((d - mean) ** 2 for d in diffs) / (k - 1) if k > 1 else 0.0
    return mean + z * (1 + 2 / k) * math.sqrt(var / k) < 0
