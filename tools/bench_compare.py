"""interp against hand-written Python on the same deals: `python tools/bench_compare.py [--rounds 7] [--seconds 1]`.

For Preferans (3 players, auction to the end of the deal), Tarot (4 players) and Hearts (4 players, the first deal
of a match: passes to the left, then the tricks), random full deals are played through interp's public API
(`new_match`, `legal_moves`, `apply(check=False)`) and by the reference programs in tools/reference (the same
rules, checked move for move by tests/games/test_reference.py). Both run in this process, timed in CPU time,
alternating which goes first in each round; each round gives deals/s, µs per action (a decision: a bid, a
discard, a card …) and the ratio interp / reference of µs per action. Printed: the median over rounds and the
spread (min–max).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interp.engine import match as engine  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402
from tools.reference import hearts, preferans, tarot  # noqa: E402

GAMES = [("preferans", "games/preferans.yaml", 3, preferans), ("tarot", "games/tarot.yaml", 4, tarot),
         ("hearts", "games/hearts.yaml", 4, hearts)]


def run_interp(game, players: int, seconds: float, seed: int) -> tuple:
    """Random deals through the public API for `seconds` of CPU time: (deals, actions, cpu seconds)."""
    rng = random.Random(seed)
    new_match, legal_moves, apply = engine.new_match, engine.legal_moves, engine.apply
    deals = actions = 0
    started = time.process_time()
    while True:
        st = new_match(game, players, seed + deals)
        while not st.deal_over:
            moves = legal_moves(st)
            apply(st, moves[rng.randrange(len(moves))], check=False)
            actions += 1
        deals += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return deals, actions, elapsed


def run_reference(module, seconds: float, seed: int) -> tuple:
    """Random deals of the hand-written program for `seconds` of CPU time: (deals, actions, cpu seconds)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    actions = 0

    def choose(kind, moves):
        nonlocal actions
        actions += 1
        return moves[randrange(len(moves))]

    deals = 0
    started = time.process_time()
    while True:
        module.play_deal(rng, choose)
        deals += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return deals, actions, elapsed


def measure(rounds: int, seconds: float, report=print) -> dict:
    """Interleaved rounds per game; returns {game: {"rounds": [...], "summary": {...}}}."""
    out = {}
    for name, path, players, module in GAMES:
        game = load_game(str(ROOT / path))
        run_interp(game, players, min(0.2, seconds), 10**6)  # warm up both
        run_reference(module, min(0.2, seconds), 10**6)
        rows = []
        for r in range(rounds):
            sides = {}
            order = ("interp", "reference") if r % 2 == 0 else ("reference", "interp")
            for side in order:
                if side == "interp":
                    deals, actions, cpu = run_interp(game, players, seconds, r * 10**5)
                else:
                    deals, actions, cpu = run_reference(module, seconds, r * 10**5)
                sides[side] = {"deals_per_s": deals / cpu, "us_per_action": cpu / actions * 1e6,
                               "actions_per_deal": actions / deals}
            row = {**{f"{side}_{k}": v for side, d in sides.items() for k, v in d.items()},
                   "ratio": sides["interp"]["us_per_action"] / sides["reference"]["us_per_action"]}
            rows.append(row)
            report(f"  {name} round {r + 1}/{rounds}: interp {row['interp_us_per_action']:.1f} µs/action, "
                   f"reference {row['reference_us_per_action']:.1f} µs/action, ratio {row['ratio']:.2f}")
        out[name] = {"players": players, "rounds": rows, "summary": summarise(rows)}
    return out


def summarise(rows: list) -> dict:
    """Median and min–max of every figure over the rounds."""
    keys = rows[0].keys()
    return {k: {"median": statistics.median(r[k] for r in rows), "min": min(r[k] for r in rows),
                "max": max(r[k] for r in rows)} for k in keys}


def table(results: dict, other: str = "reference", unit: str = "action") -> str:
    """The medians of `measure`'s results, interp beside `other`, per `unit` (an action, a decision)."""
    lines = [f"{'game':<10} {'side':<10} {'deals/s':>9} {'µs/' + unit:>12} {unit + 's/deal':>15}   (median of rounds)"]
    for name, res in results.items():
        s = res["summary"]
        for side in ("interp", other):
            lines.append(f"{name:<10} {side:<10} {s[side + '_deals_per_s']['median']:>9.0f} "
                         f"{s[f'{side}_us_per_{unit}']['median']:>12.1f} {s[f'{side}_{unit}s_per_deal']['median']:>15.1f}")
        ratio = s["ratio"]
        lines.append(f"{name:<10} ratio interp/{other} per {unit}: {ratio['median']:.2f}× "
                     f"(min {ratio['min']:.2f}, max {ratio['max']:.2f}, {len(res['rounds'])} rounds)")
    return "\n".join(lines)


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per side per round")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = measure(args.rounds, args.seconds, report=lambda line: print(line, file=sys.stderr, flush=True))
    print(json.dumps(results, indent=1) if args.json else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
