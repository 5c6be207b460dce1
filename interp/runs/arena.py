"""`interp arena`: agents against each other on duplicate deals, with confidence intervals.

Every deal (one seed) is played once for each distinct rotation of the agents over the seats, so each agent
holds each seat equally often and the luck of the cards cancels. An agent's score for a deal is the mean value
of the seats it held over those rotations; its result is the mean of those scores over the deals, with a 95%
confidence interval (Student's t, the deals being independent samples).

>>> seatings(["a", "b"], 3)
[('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
>>> seatings(["a", "b"], 4)
[('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from interp.bots.registry import make_agent
from interp.engine import match as engine
from interp.runs.simulate import finished_deal_record, pool_map
from interp.runs.summary import mean_ci


def seatings(agents: list, n: int) -> list:
    """The distinct rotations of `agents` (cycled over `n` seats) around the table, in order."""
    base = [agents[s % len(agents)] for s in range(n)]
    out = []
    for r in range(n):
        seating = tuple(base[(s + r) % n] for s in range(n))
        if seating not in out:
            out.append(seating)
    return out


@dataclass
class Tally:
    """One agent's running totals: its per-deal scores and the time it spent deciding."""

    scores: list
    seconds: float = 0.0
    moves: int = 0


def play_seating(game, seating: tuple, seed: int, players: int | None, options: dict | None,
                 agent_args: dict, dealer: int) -> tuple:
    """One deal of seed `seed` with seat s played by agent `seating[s]`: (deal values, {agent: (seconds, moves)},
    the deal's record as `interp simulate --out` writes it)."""
    st = engine.new_match(game, players, seed, options, dealer=dealer)
    agents = [make_agent(name, seed=seed * 1000 + s, **agent_args.get(name, {})) for s, name in enumerate(seating)]
    spent = {name: [0.0, 0] for name in seating}
    while not st.deal_over:
        seat = engine.to_move(st)
        assert seat is not None  # the deal is not over
        moves = engine.legal_moves(st)
        started = time.perf_counter()
        move = agents[seat].choose(st.view(seat), moves)
        spent[seating[seat]][0] += time.perf_counter() - started
        spent[seating[seat]][1] += 1
        engine.apply(st, move)
    return engine.deal_values(st), spent, finished_deal_record(st, seed, seed, list(seating))


def duplicate_deal(game, task: tuple) -> tuple:
    """Deal number i played once per seating: ({agent: mean value of its seats}, {agent: (seconds, moves)},
    the records of the deals played)."""
    i, table, seed, n, options, agent_args = task
    sums = {name: [0, 0] for seating in table for name in seating}
    time_spent = {name: [0.0, 0] for name in sums}
    records = []
    for k, seating in enumerate(table):
        values, spent, record = play_seating(game, seating, seed + i, n, options, agent_args, dealer=i % n)
        records.append({**record, "deal": i, "seating": k})
        for s, name in enumerate(seating):
            sums[name][0] += values[s]
            sums[name][1] += 1
        for name, (secs, moves) in spent.items():
            time_spent[name][0] += secs
            time_spent[name][1] += moves
    return {name: float(total) / count for name, (total, count) in sums.items()}, time_spent, records


def arena(game, agents: list, deals: int, seed: int = 0, players: int | None = None, options: dict | None = None,
          agent_args: dict | None = None, tick: Callable[[], None] | None = None, jobs: int | None = None,
          on_record: Callable[[dict], None] | None = None, executor: str = "processes") -> dict:
    """Play `deals` duplicate deals on `jobs` processes (None: all cores; `executor="ray"`: as Ray tasks); per agent: mean deal value, its 95%
    interval, deals, seconds a move; per pair of agents the paired margin (`margins`). The deals are independent,
    so the results are the same whatever `jobs`. `on_record(record)` gets each deal played (one per deal and
    seating, in order), with its `seating` number added."""
    n = players or game.default_players
    table = seatings(agents, n)
    tallies = {name: Tally([]) for name in agents}
    tasks = [(i, table, seed, n, options, agent_args or {}) for i in range(deals)]
    for scores, spent, records in pool_map(game, duplicate_deal, tasks, jobs, executor):
        for name, score in scores.items():
            tallies[name].scores.append(score)
        for name, (secs, moves) in spent.items():
            tallies[name].seconds += secs
            tallies[name].moves += moves
        if on_record is not None:
            for record in records:
                on_record(record)
        if tick is not None:
            tick()
    out = {}
    for name, tally in tallies.items():
        stat = mean_ci(tally.scores)
        out[name] = {"mean": stat["mean"], "ci95": stat["ci95"], "deals": deals,
                     "sec_per_move": round(tally.seconds / tally.moves, 5) if tally.moves else None}
    return {"game": game.name, "players": n, "seatings": [list(s) for s in table], "agents": out,
            "margins": margins(tallies)}


def margins(tallies: dict) -> dict:
    """Each pair of agents' paired difference per deal, "a-b": mean and 95% interval of a's score minus b's on the
    same deals (the comparison that matters where a game is not zero-sum).

    >>> margins({"a": Tally([3, 1, 2]), "b": Tally([1, 1, 0])})
    {'a-b': {'mean': 1.333, 'ci95': [-1.535, 4.202], 'sd': 1.155}}
    """
    names = list(tallies)
    return {f"{a}-{b}": mean_ci([x - y for x, y in zip(tallies[a].scores, tallies[b].scores)])
            for i, a in enumerate(names) for b in names[i + 1:]}
