"""`--executor ray`: the deals of simulate and arena as Ray tasks give the very records of a local run with the
same seed, in the same order. Ray is an optional extra (`interp[ray]`), not in the test extra (about 240 MB
installed): these tests skip without it, except the one-line error a run without Ray gets."""
from __future__ import annotations

import os
import sys

import pytest

from interp.cli import main
from interp.runs.arena import arena
from interp.runs.simulate import simulate
from interp.spec.compiler import load_game

from ..conftest import ROOT

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


@pytest.fixture(scope="module")
def local_ray():
    """Ray started on this machine for these tests (two CPUs), stopped after them."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'interp[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield ray
    ray.shutdown()


def test_simulate_on_ray_gives_the_records_and_summary_of_one_local_process(local_ray):
    game = load_game(TINY)
    here: list = []
    there: list = []
    local = simulate(game, 30, seed=4, bots="random,heuristic", jobs=1, on_record=here.append)
    remote = simulate(game, 30, seed=4, bots="random,heuristic", on_record=there.append, executor="ray")
    assert there == here and [r["deal"] for r in there] == list(range(30))
    for timing in ("seconds", "deals_per_second"):
        local.pop(timing), remote.pop(timing)
    assert remote == local


def test_arena_on_ray_gives_the_records_and_results_of_one_local_process(local_ray):
    game = load_game(TINY)
    here: list = []
    there: list = []
    local = arena(game, ["random", "heuristic"], 5, seed=2, jobs=1, on_record=here.append)
    remote = arena(game, ["random", "heuristic"], 5, seed=2, on_record=there.append, executor="ray")
    assert there == here and len(there) == 5 * len(local["seatings"])
    assert remote["agents"].keys() == local["agents"].keys()
    timing = ("sec_per_move", "cpu_mean", "cpu_median", "cpu_p99")  # times differ from run to run
    for name in local["agents"]:
        assert {k: v for k, v in remote["agents"][name].items() if k not in timing} == \
            {k: v for k, v in local["agents"][name].items() if k not in timing}
    assert remote["margins"] == local["margins"]


def test_executor_ray_without_ray_installed_is_one_line_and_exit_2(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as where it is not installed
    assert main(["simulate", TINY, "-n", "3", "--executor", "ray"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("--executor ray needs Ray: pip install 'interp[ray]'") and "\n" not in err
