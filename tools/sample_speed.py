"""How fast worlds are sampled and search moves made, over the decisions of seeded random deals.

    python tools/sample_speed.py games/preferans.yaml games/tarot.yaml [--deals 4] [--players 4]
    python tools/sample_speed.py games/piquet.yaml --search [--deals 3]

Prints, per file and player count: samples drawn, how many found no world, the median and 90th percentile in ms
and the median work per sample (moves replayed, the unit the search agent charges). With `--search`: every
decision with a choice is made by the search agent at its default budget (seeded), and the median and largest
CPU seconds per move are printed instead. Times are CPU time of this process (`time.process_time`).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from interp.bots.search import SearchAgent  # noqa: E402
from interp.bots.worlds import draw_world  # noqa: E402
from interp.engine import match as engine  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402


def measure(path: str, n: int, deals: int) -> str:
    game = load_game(path)
    times, works, failed = [], [], 0
    for seed in range(deals):
        st = engine.new_match(game, n, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            view = st.view(engine.to_move(st))
            start = time.process_time()
            drawn = draw_world(view, rng)
            times.append(time.process_time() - start)
            works.append(drawn.work)
            failed += drawn.world is None
            engine.apply(st, rng.choice(engine.legal_moves(st)))
    times.sort()
    works.sort()
    return (f"{len(times)} samples, {failed} without a world, median {times[len(times) // 2] * 1000:.1f} ms, "
            f"p90 {times[int(len(times) * 0.9)] * 1000:.1f} ms, median work {works[len(works) // 2]}")


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
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--players", type=int, help="only this player count (default: every one the spec allows)")
    parser.add_argument("--search", action="store_true", help="time search moves instead of samples")
    args = parser.parse_args()
    for path in args.files:
        for n in load_game(path).players:
            if args.players is None or n == args.players:
                line = (measure_search if args.search else measure)(path, n, args.deals)
                print(f"{path} {n}p: {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
