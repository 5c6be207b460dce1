"""interp against OpenSpiel's C++ games driven from Python, per decision: `python tools/bench_openspiel.py
[--rounds 7] [--seconds 1]` (needs `pip install open_spiel`).

Random full deals of Hearts (4 players) and Oh Hell (4 players, the 10-card deal) are played through interp's
public API (`new_match`, `legal_moves`, `apply(check=False)`) and through pyspiel (`legal_actions`,
`apply_action`, the chance nodes sampled in Python: by default (`--chance legal`, the lightest driver) a
uniform pick among `legal_actions`, right here as every chance node of these deals is uniform; `--chance
outcomes` is OpenSpiel's own idiom, `chance_outcomes()` and a pick weighted by their probabilities). Both run
in this process, timed in CPU time, alternating which goes first in each round; each round gives µs per decision
(a seat's move: a card passed, a bid, a card played; OpenSpiel's chance nodes are not decisions but their time
counts, as interp's shuffle does) and the ratio interp / OpenSpiel. Printed: the median over rounds and the
spread (min–max).

OpenSpiel's parameters are set to the spec's rules:
- Hearts (games/hearts.yaml, deal 1): the pass direction, a chance node in OpenSpiel, is set to "left" as the
  spec's first deal passes; `qs_breaks_hearts` false (only a heart breaks hearts); the rest at OpenSpiel's
  defaults, which are the spec's: `pass_cards`, `no_pts_on_first_trick`, `must_break_hearts` true,
  `can_lead_any_club`, `jd_bonus`, `avoid_all_tricks_bonus`, `can_lead_hearts_instead_of_qs` false.
- Oh Hell (games/oh-hell.yaml, deal 10 of the match: 10 cards each and a card turned up for trumps): `players`
  4, `num_tricks_fixed` 10; `off_bid_penalty` false and `points_per_trick` 1 (OpenSpiel's defaults, the
  spec's scoring). OpenSpiel's dealer hook is the spec's: the last bidder may not make the bids add up.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interp.engine import match as engine  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402
from tools.bench_compare import summarise, table  # noqa: E402

# name, spec, players, the deal number timed, OpenSpiel's game and parameters, its first chance action (None:
# sampled like the others)
GAMES = [
    ("hearts", "games/hearts.yaml", 4, 1, "hearts", {"qs_breaks_hearts": False}, 1),  # 1: pass to the left
    ("oh-hell", "games/oh-hell.yaml", 4, 10, "oh_hell", {"players": 4, "num_tricks_fixed": 10}, None),
]


def interp_deal(game, players: int, deal_no: int, seed: int):
    """A new match of `game` at the start of deal `deal_no` (its first decision), seeded with `seed`."""
    if deal_no == 1:
        return engine.new_match(game, players, seed)
    st = engine.new_match(game, players, seed, deal=False)
    st.deal_no = deal_no - 1
    engine.start_deal(st)
    return st


def run_interp(game, players: int, deal_no: int, seconds: float, seed: int) -> tuple:
    """Random deals through interp's public API for `seconds` of CPU time: (deals, decisions, cpu seconds)."""
    rng = random.Random(seed)
    legal_moves, apply = engine.legal_moves, engine.apply
    deals = decisions = 0
    started = time.process_time()
    while True:
        st = interp_deal(game, players, deal_no, seed + deals)
        while not st.deal_over:
            moves = legal_moves(st)
            apply(st, moves[rng.randrange(len(moves))], check=False)
            decisions += 1
        deals += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return deals, decisions, elapsed


def run_openspiel(game, first_chance: int | None, seconds: float, seed: int, chance: str = "legal") -> tuple:
    """Random deals of an OpenSpiel game for `seconds` of CPU time, chance sampled in Python (`chance`: "legal"
    or "outcomes", see the module): (deals, decisions, cpu seconds)."""
    rng = random.Random(seed)
    randrange, choices = rng.randrange, rng.choices
    deals = decisions = 0
    started = time.process_time()
    while True:
        state = game.new_initial_state()
        if first_chance is not None:
            state.apply_action(first_chance)
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions += 1
            elif chance == "outcomes":
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(choices(actions, weights)[0])
                continue
            actions = state.legal_actions()
            state.apply_action(actions[randrange(len(actions))])
        deals += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return deals, decisions, elapsed


def measure(rounds: int, seconds: float, report=print, chance: str = "legal") -> dict:
    """Interleaved rounds per game; returns {game: {"rounds": [...], "summary": {...}}}."""
    import pyspiel
    out = {}
    for name, path, players, deal_no, os_name, params, first_chance in GAMES:
        game = load_game(str(ROOT / path))
        os_game = pyspiel.load_game(os_name, params)
        run_interp(game, players, deal_no, min(0.2, seconds), 10**6)  # warm up both
        run_openspiel(os_game, first_chance, min(0.2, seconds), 10**6, chance)
        rows = []
        for r in range(rounds):
            sides = {}
            order = ("interp", "openspiel") if r % 2 == 0 else ("openspiel", "interp")
            for side in order:
                if side == "interp":
                    deals, decisions, cpu = run_interp(game, players, deal_no, seconds, r * 10**5)
                else:
                    deals, decisions, cpu = run_openspiel(os_game, first_chance, seconds, r * 10**5, chance)
                sides[side] = {"deals_per_s": deals / cpu, "us_per_decision": cpu / decisions * 1e6,
                               "decisions_per_deal": decisions / deals}
            row = {**{f"{side}_{k}": v for side, d in sides.items() for k, v in d.items()},
                   "ratio": sides["interp"]["us_per_decision"] / sides["openspiel"]["us_per_decision"]}
            rows.append(row)
            report(f"  {name} round {r + 1}/{rounds}: interp {row['interp_us_per_decision']:.1f} µs/decision, "
                   f"openspiel {row['openspiel_us_per_decision']:.1f} µs/decision, ratio {row['ratio']:.2f}")
        out[name] = {"players": players, "deal": deal_no,
                     "openspiel": {"game": os_name, "parameters": params, "chance": chance},
                     "rounds": rows, "summary": summarise(rows)}
    return out


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per side per round")
    parser.add_argument("--chance", choices=["legal", "outcomes"], default="legal",
                        help="how the Python driver samples OpenSpiel's chance nodes (see the module)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("bench_openspiel: pyspiel is not installed (pip install open_spiel)", file=sys.stderr)
        return 2
    results = measure(args.rounds, args.seconds, report=lambda line: print(line, file=sys.stderr, flush=True),
                      chance=args.chance)
    print(json.dumps(results, indent=1) if args.json else table(results, "openspiel", "decision"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
