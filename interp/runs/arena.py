"""`interp arena`: agents against each other on duplicate deals, with confidence intervals.

Every deal (one seed) is played once for each distinct rotation of the agents over the seats, so each agent
holds each seat equally often and the luck of the cards cancels. An agent's score for a deal is the mean value
of the seats it held over those rotations; its result is the mean of those scores over the deals, with a 95%
confidence interval (Student's t, the deals being independent samples).

A duplicate deal need not be a match's first: `Deals(first, last)` plays deal numbers `first` to `last` in turn
(a game whose deals differ by their number — hand sizes that change from deal to deal, a dealer who is elder or
younger, the last deal of a partie — is measured on each), the deals before played by the heuristic at every
seat, the same for every seating; `Deals(matches=True)` plays whole matches, an agent's score then being the sum
of its seats' deal values over the match.

>>> seatings(["a", "b"], 3)
[('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
>>> seatings(["a", "b"], 4)
[('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from interp.bots.registry import make_agent
from interp.engine import match as engine
from interp.runs.simulate import finished_deal_record, play_deal, pool_map
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
    """One agent's running totals: its per-deal scores and the time it spent deciding (wall seconds in all, and
    the CPU seconds of each move)."""

    scores: list
    seconds: float = 0.0
    moves: int = 0
    cpu: list = field(default_factory=list)


@dataclass(frozen=True)
class Deals:
    """Which deals of a match the arena plays: deal number `first` to `last` (from 1), cycled over the duplicate
    deals (duplicate deal i is deal `first + i mod (last - first + 1)` of its match), or whole `matches`.

    >>> [Deals(1, 4).number(i) for i in range(6)]
    [1, 2, 3, 4, 1, 2]
    """

    first: int = 1
    last: int = 1
    matches: bool = False

    def number(self, i: int) -> int:
        return self.first + i % (self.last - self.first + 1)


MATCH_DEALS = 200  # deals at most in one match of `Deals(matches=True)` (a spec whose match never ends stops there)
WARM_UP = "heuristic"  # the agent that plays the deals before the deal measured, at every seat of every seating


def start_at(game, no: int, seed: int, players: int | None, options: dict | None, dealer: int):
    """Match `seed` (first dealt by `dealer`) at the start of its deal number `no`: the deals before it played by
    the heuristic agent at every seat, the same way whatever agents play deal `no` (so every seating of a
    duplicate deal starts from the same standings, dealer and cards). ValueError when the match ends before.

    >>> from interp.spec.compiler import load_game
    >>> st = start_at(load_game("docs/examples/tiny.yaml"), 3, seed=1, players=None, options=None, dealer=0)
    >>> st.deal_no, st.dealer, len(st.deals)
    (3, 0, 2)
    """
    st = engine.new_match(game, players, seed, options, dealer=dealer)
    agents = {s: make_agent(WARM_UP, seed=seed * 1000 + s) for s in range(st.n)}
    while st.deal_no < no:
        play_deal(st, agents)
        if st.match_over:
            raise ValueError(f"match {seed} ended after deal {st.deal_no}: it has no deal {no} (ask for an "
                             "earlier --deal-no)")
        engine.next_deal(st)
    return st


def play_seating(game, seating: tuple, seed: int, players: int | None, options: dict | None,
                 agent_args: dict, dealer: int, no: int = 1, whole: bool = False) -> tuple:
    """Match `seed` with seat s played by agent `seating[s]`: its deal number `no` (`whole`: the whole match,
    from deal `no` on): (each seat's value, the sum of its deal values; {agent: (wall seconds, moves, CPU seconds of
    each decision with a choice)}; the records of the deals played, as `interp simulate --out` writes them, with `deal_no`)."""
    st = start_at(game, no, seed, players, options, dealer)
    agents = [make_agent(name, seed=seed * 1000 + s, **agent_args.get(name, {})) for s, name in enumerate(seating)]
    spent: dict = {name: [0.0, 0, []] for name in seating}
    totals = [0] * st.n
    records = []
    while True:
        while not st.deal_over:
            seat = engine.to_move(st)
            assert seat is not None  # the deal is not over
            moves = engine.legal_moves(st)
            wall, cpu = time.perf_counter(), time.process_time()
            move = agents[seat].choose(st.view(seat), moves)
            mine = spent[seating[seat]]
            mine[0] += time.perf_counter() - wall
            mine[1] += 1
            if len(moves) > 1:  # a move with no choice costs nothing: it would make the median meaningless
                mine[2].append(time.process_time() - cpu)
            engine.apply(st, move)
        totals = [t + v for t, v in zip(totals, engine.deal_values(st))]
        records.append({**finished_deal_record(st, seed, seed, list(seating)), "deal_no": st.deal_no})
        if not whole or st.match_over or st.deal_no - no + 1 >= MATCH_DEALS:
            return totals, spent, records
        engine.next_deal(st)


def duplicate_deal(game, task: tuple) -> tuple:
    """Deal number i played once per seating: ({agent: mean value of its seats}, {agent: (wall seconds, moves, CPU
    seconds of each decision with a choice)}, the records of the deals played)."""
    i, table, seed, n, options, agent_args, deals = task
    sums = {name: [0, 0] for seating in table for name in seating}
    time_spent: dict = {name: [0.0, 0, []] for name in sums}
    records = []
    for k, seating in enumerate(table):
        no = 1 if deals.matches else deals.number(i)
        values, spent, played = play_seating(game, seating, seed + i, n, options, agent_args, i % n, no,
                                             deals.matches)
        records += [{**record, "deal": i, "seating": k} for record in played]
        for s, name in enumerate(seating):
            sums[name][0] += values[s]
            sums[name][1] += 1
        for name, (secs, moves, cpu) in spent.items():
            time_spent[name][0] += secs
            time_spent[name][1] += moves
            time_spent[name][2] += cpu
    return {name: float(total) / count for name, (total, count) in sums.items()}, time_spent, records


def arena(game, agents: list, deals: int, seed: int = 0, players: int | None = None, options: dict | None = None,
          agent_args: dict | None = None, tick: Callable[[], None] | None = None, jobs: int | None = None,
          on_record: Callable[[dict], None] | None = None, executor: str = "processes",
          which: Deals = Deals()) -> dict:
    """Play `deals` duplicate deals on `jobs` processes (None: all cores; `executor="ray"`: as Ray tasks): duplicate
    deal i is deal `which.number(i)` of match `seed + i` (or that whole match, `which.matches`). Per agent: mean
    value (of a deal, or of a match), its 95% interval, deals, wall seconds a move, and the mean, median and 99th
    percentile of its CPU seconds a decision with a choice (`cpu_mean`, `cpu_median`, `cpu_p99`); per pair of
    agents the paired margin (`margins`). The deals are independent, so the results are the same whatever `jobs`. `on_record(record)` gets
    each deal played (per duplicate deal and seating, in order), with its `seating` number added."""
    n = players or game.default_players
    table = seatings(agents, n)
    tallies = {name: Tally([]) for name in agents}
    tasks = [(i, table, seed, n, options, agent_args or {}, which) for i in range(deals)]
    for scores, spent, records in pool_map(game, duplicate_deal, tasks, jobs, executor):
        for name, score in scores.items():
            tallies[name].scores.append(score)
        for name, (secs, moves, cpu) in spent.items():
            tallies[name].seconds += secs
            tallies[name].moves += moves
            tallies[name].cpu += cpu
        if on_record is not None:
            for record in records:
                on_record(record)
        if tick is not None:
            tick()
    out = {}
    for name, tally in tallies.items():
        stat = mean_ci(tally.scores)
        out[name] = {"mean": stat["mean"], "ci95": stat["ci95"], "deals": deals,
                     "sec_per_move": round(tally.seconds / tally.moves, 5) if tally.moves else None,
                     "cpu_mean": round(sum(tally.cpu) / len(tally.cpu), 4) if tally.cpu else None,
                     "cpu_median": percentile(tally.cpu, 50), "cpu_p99": percentile(tally.cpu, 99)}
    return {"game": game.name, "players": n, "seatings": [list(s) for s in table], "agents": out,
            "margins": margins(tallies)}


def percentile(values: list, q: float) -> float | None:
    """The `q`-th percentile of `values` (nearest rank), rounded to 0.1 ms; None for no values.

    >>> percentile([0.3, 0.1, 0.2, 0.9], 50), percentile([0.3, 0.1, 0.2, 0.9], 99), percentile([], 50)
    (0.2, 0.9, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)], 4)


def margins(tallies: dict) -> dict:
    """Each pair of agents' paired difference per deal, "a-b": mean and 95% interval of a's score minus b's on the
    same deals (the comparison that matters where a game is not zero-sum).

    >>> margins({"a": Tally([3, 1, 2]), "b": Tally([1, 1, 0])})
    {'a-b': {'mean': 1.333, 'ci95': [-1.535, 4.202], 'sd': 1.155}}
    """
    names = list(tallies)
    return {f"{a}-{b}": mean_ci([x - y for x, y in zip(tallies[a].scores, tallies[b].scores)])
            for i, a in enumerate(names) for b in names[i + 1:]}
