"""The search agent against another searcher at equal time: this release's search, or OpenSpiel's ISMCTS.

    python tools/equal_time.py release GAME [-n DEALS] [--ref 217b571]
    python tools/equal_time.py ismcts GAME [-n DEALS] [--world-samples 8]

`release`: the search agent as it was at commit REF (its interp/bots/search.py, checked out into a temporary
module, playing with today's sampler), its `budget` scaled. `ismcts`: OpenSpiel's ISMCTS bot through interp's
adapter (interp.adapters.openspiel; random rollouts, UCT c = 2), `max_simulations` scaled, reusing
`--world-samples` sampled worlds per decision. Equal time: two short calibration runs (each agent against the
heuristic, on other seeds) measure the mean CPU seconds per decision of the search agent and of the opponent at
a first setting; the opponent's setting is then scaled by their ratio, and measured and scaled once more. The final run is a duplicate arena
(`interp.runs.arena`) of the two, and prints both agents' mean CPU seconds per decision with the paired margin.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from interp.bots.worlds import sample_world  # noqa: E402
from interp.runs.arena import arena  # noqa: E402
from interp.spec.compiler import load_game  # noqa: E402

RELEASE = "217b571"  # the release before this search: main when issue 28 was taken up
CALIBRATION_SEED = 90_000  # calibration deals: far from the measured ones
CALIBRATIONS = 2  # runs of the opponent to scale its setting (the time is not quite proportional to it)


class IsmctsAgent:
    """OpenSpiel's ISMCTS bot as an interp agent: its root is a world sampled from the view (any world will do:
    ISMCTS reads only the information state, and resamples worlds from it)."""

    name = "ismcts"

    def __init__(self, seed: int | None = None, simulations: int = 100, world_samples: int = 8):
        import numpy as np
        self.rng = random.Random(seed)
        self.random_state = np.random.RandomState((seed or 0) % (1 << 32))
        self.simulations, self.world_samples = simulations, world_samples

    def choose(self, view, moves):
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts

        from interp.adapters import openspiel as adapter
        if len(moves) == 1:
            return moves[0]
        game = pyspiel.load_game(adapter.register(view.game), {"players": view.n})
        state = game.new_initial_state()
        state.match = adapter._Match(sample_world(view, self.rng))
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.random_state)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=self.simulations,
                               max_world_samples=self.world_samples, random_state=self.random_state)
        move = game.space.move_of(bot.step(state))
        assert move in moves, "a move made in several steps: not handled here"
        return move


def release_module(ref: str) -> str:
    """The search module of commit `ref`, written as `release_search` in a temporary folder on the path."""
    text = subprocess.run(["git", "show", f"{ref}:interp/bots/search.py"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    folder = tempfile.mkdtemp(prefix="release-search-")
    with open(os.path.join(folder, "release_search.py"), "w", encoding="utf-8") as f:
        f.write(text)
    sys.path.insert(0, folder)
    return "release_search:SearchAgent"


def mean_cpu(game, name: str, args: dict, deals: int, jobs: int) -> float:
    """`name`'s mean CPU seconds per decision with a choice, against the heuristic on calibration deals."""
    run = arena(game, [name, "heuristic"], deals, seed=CALIBRATION_SEED, agent_args={name: args}, jobs=jobs)
    return run["agents"][name]["cpu_mean"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opponent", choices=("release", "ismcts"))
    parser.add_argument("game")
    parser.add_argument("-n", "--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--calibrate", type=int, default=2, help="deals of each calibration run")
    parser.add_argument("--ref", default=RELEASE)
    parser.add_argument("--world-samples", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    game = load_game(args.game)
    if args.opponent == "release":
        name, knob, first = release_module(args.ref), "budget", 6000
        fixed: dict = {}
    else:
        name, knob, first = "tools.equal_time:IsmctsAgent", "simulations", 100
        fixed = {"world_samples": args.world_samples}
    target = mean_cpu(game, "search", {}, args.calibrate, args.jobs)
    setting = first
    for _ in range(CALIBRATIONS):
        spent = mean_cpu(game, name, {knob: setting, **fixed}, args.calibrate, args.jobs)
        scaled = max(1, round(setting * target / spent))
        print(f"calibration: search {target:.4f} s/decision; {name} {spent:.4f} s at {knob}={setting} "
              f"-> {knob}={scaled}", flush=True)
        setting = scaled
    run = arena(game, ["search", name], args.deals, seed=args.seed, agent_args={name: {knob: setting, **fixed}},
                jobs=args.jobs)
    cpu = {agent: row["cpu_mean"] for agent, row in run["agents"].items()}
    print(json.dumps({"game": game.name, "deals": args.deals, "seed": args.seed, knob: setting, "cpu_mean": cpu,
                      "margins": run["margins"]}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
