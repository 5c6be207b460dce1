"""How fast worlds are sampled and search moves made, over every decision of seeded random deals.

    python tools/sample_speed.py games/*.yaml [--deals 5] [--players 4] [--worlds 8] [--before]
    python tools/sample_speed.py games/piquet.yaml --search [--deals 3]

Prints, per file and player count, over every decision of `--deals` seeded deals (seeds 0, 1, …; random play):
the decisions, the failures (no world found), the median and 99th percentile in ms of

- `first`: the first world drawn from a view (`draw_world`: it finds the view's probe, then draws);
- `next`: each of the next `--worlds` - 1 worlds drawn from the same view (the probe kept), as a search does;

the worlds the check rejected and how many came from the fallback (the repairing search). With `--before`, the
same figures for the repairing search alone (`bots.probe.find`, the sampler of earlier releases), measured in the
same run on the same views. The load average is printed at the start and the end (the machine may be shared).
With `--search`: every decision with a choice is made by the search agent at its default budget (seeded), and
the median and largest CPU seconds per move are printed instead. Times are CPU time of this process
(`time.process_time`).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from interp.bots.probe import find  # noqa: E402
from interp.bots.search import SearchAgent  # noqa: E402
from interp.bots.worlds import WorldSampler  # noqa: E402
from interp.engine import match as engine  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402


def _views(game, n: int, deals: int):
    for seed in range(deals):
        st = engine.new_match(game, n, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            yield st.view(engine.to_move(st)), seed
            engine.apply(st, rng.choice(engine.legal_moves(st)))


def _cut(times: list) -> str:
    if not times:
        return "-"
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return f"median {times[len(times) // 2] * 1000:.2f} ms, p99 {p99 * 1000:.1f} ms"


def measure(path: str, n: int, deals: int, worlds: int, before: bool) -> str:
    game = load_game(path)
    first, later, old = [], [], []
    failed = old_failed = rejected = fallbacks = decisions = 0
    for view, seed in _views(game, n, deals):
        decisions += 1
        rng = random.Random(seed * 1000 + decisions)
        start = time.process_time()
        sampler = WorldSampler(view)
        drawn = sampler.draw(rng)
        first.append(time.process_time() - start)
        for k in range(worlds - 1):
            start = time.process_time()
            more = sampler.draw(rng)
            later.append(time.process_time() - start)
            failed += more.world is None
            rejected += more.rejected
            fallbacks += more.fallback
        failed += drawn.world is None
        rejected += drawn.rejected
        fallbacks += drawn.fallback
        if before:
            start = time.process_time()
            probe = find(view, random.Random(seed * 1000 + decisions))
            old.append(time.process_time() - start)
            old_failed += probe is None
    line = (f"{decisions} decisions, {decisions * worlds} worlds: {failed} failures, first {_cut(first)}; "
            f"next {_cut(later)}; {rejected} rejected by the check, {fallbacks} from the fallback")
    if before:
        line += f"\n    before (repair and replay): {old_failed} failures, {_cut(old)}"
    return line


def measure_search(path: str, n: int, deals: int) -> str:
    game = load_game(path)
    times = []
    for seed in range(deals):
        st = engine.new_match(game, n, seed)
        agents = [SearchAgent(seed=seed * 10 + s) for s in range(n)]
        while not st.deal_over:
            seat = engine.to_move(st)
            moves = engine.legal_moves(st)
            start = time.process_time()
            move = agents[seat].choose(st.view(seat), moves)
            if len(moves) > 1:
                times.append(time.process_time() - start)
            engine.apply(st, move)
    times.sort()
    return (f"{len(times)} search moves, median {times[len(times) // 2]:.2f} s, p90 "
            f"{times[int(len(times) * 0.9)]:.2f} s, max {times[-1]:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+")
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--players", type=int, help="only this player count (default: every one the spec allows)")
    parser.add_argument("--worlds", type=int, default=8, help="worlds drawn from each view (default 8)")
    parser.add_argument("--before", action="store_true", help="also time the repairing search of earlier releases")
    parser.add_argument("--search", action="store_true", help="time search moves instead of samples")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores", flush=True)
    for path in args.files:
        for n in load_game(path).players:
            if args.players is None or n == args.players:
                if args.search:
                    line = measure_search(path, n, args.deals)
                else:
                    line = measure(path, n, args.deals, args.worlds, args.before)
                print(f"{path} {n}p: {line}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f} (1 min)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
