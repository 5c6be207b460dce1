"""The arena: duplicate deals over rotated seatings, per-agent means with 95% intervals."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from interp.runs.arena import arena, seatings
from interp.spec.compiler import load_game
from tests.conftest import ROOT

TAKE_OR_GIVE = os.path.join(ROOT, "tests", "specs", "take-or-give.yaml")


def test_every_seat_sees_the_agents_as_often_as_the_table_holds_them():
    # Over the seatings every seat is held by each agent as often as that agent sits at the table in one seating:
    # 2 agents on 3 seats: a twice and b once at every seat; on 4 seats (partners alike): two seatings.
    for agents, n, count in ((["a", "b"], 2, 2), (["a", "b"], 3, 3), (["a", "b"], 4, 2), (["a", "b", "c"], 3, 3),
                             (["a", "b"], 5, 5), (["a", "b", "c"], 6, 3)):
        table = seatings(agents, n)
        assert len(table) == count
        for seat in range(n):
            assert Counter(seating[seat] for seating in table) == Counter(table[0][:count])


def test_a_known_answer():
    # Take or give: the heuristic always takes (+1), random takes half the time (-1 to the other). Per deal the
    # heuristic scores 1 - (random took) averaged over its two seats: 0.5 in expectation; the game is zero-sum.
    game = load_game(TAKE_OR_GIVE)
    summary = arena(game, ["heuristic", "random"], 60, seed=1, jobs=1)
    h, r = summary["agents"]["heuristic"], summary["agents"]["random"]
    assert h["mean"] == -r["mean"]
    assert h["ci95"][0] <= 0.5 <= h["ci95"][1]
    assert h["ci95"][0] > 0
    assert h["deals"] == r["deals"] == 60
    margin = summary["margins"]["heuristic-random"]  # paired per deal: heuristic minus random, twice the mean here
    assert margin["mean"] == pytest.approx(2 * h["mean"], abs=0.002) and margin["ci95"][0] > 0


def test_results_do_not_depend_on_the_number_of_processes():
    game = load_game(TAKE_OR_GIVE)
    runs = [arena(game, ["heuristic", "random"], 12, seed=3, jobs=jobs)["agents"] for jobs in (1, 2, 3)]
    means = [{name: (row["mean"], row["ci95"], row["deals"]) for name, row in run.items()} for run in runs]
    assert means[0] == means[1] == means[2]


def test_cli_json_is_reproducible():
    cmd = [sys.executable, "-m", "interp.cli", "arena", TAKE_OR_GIVE, "--agents", "heuristic,random",
           "-n", "20", "--seed", "4", "--json"]
    first = subprocess.run(cmd + ["--jobs", "1"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    second = subprocess.run(cmd + ["--jobs", "2"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert set(data["agents"]) == {"heuristic", "random"} and set(data["margins"]) == {"heuristic-random"}
    assert set(data["agents"]["heuristic"]) == {"mean", "ci95", "deals", "sec_per_move"}
    strip = [{k: v for k, v in row.items() if k != "sec_per_move"} for row in data["agents"].values()]
    again = [{k: v for k, v in row.items() if k != "sec_per_move"}
             for row in json.loads(second.stdout)["agents"].values()]
    assert strip == again


@pytest.mark.parametrize("agents", ["heuristic", "heuristic,nobody"])
def test_cli_refuses_bad_agent_lists(agents):
    out = subprocess.run([sys.executable, "-m", "interp.cli", "arena", TAKE_OR_GIVE, "--agents", agents],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_out_writes_one_record_per_deal_and_seating(tmp_path, capsys):
    # take-or-give has 2 seats, so 2 seatings per deal: 3 deals give 6 records; each record's values are the
    # deal values of that seating, and its agents the seating's agents by seat name.
    from interp.cli import main
    out = tmp_path / "arena.jsonl"
    assert main(["arena", TAKE_OR_GIVE, "--agents", "heuristic,random", "-n", "3", "--seed", "2",
                 "--out", str(out), "--json"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["deal"], r["seating"]) for r in records] == [(d, k) for d in range(3) for k in range(2)]
    assert [r["seed"] for r in records] == [2, 2, 3, 3, 4, 4]
    assert [sorted(r["agents"].values()) for r in records] == [["heuristic", "random"]] * 6
    assert all(r["agents"] != records[i ^ 1]["agents"] for i, r in enumerate(records))
    assert all(set(r) >= {"dealer", "facts", "entries", "values"} for r in records)
    summary = json.loads(capsys.readouterr().out)["agents"]
    heuristic = [sum(v for seat, v in r["values"].items() if r["agents"][seat] == "heuristic") for r in records]
    per_deal = [(heuristic[2 * d] + heuristic[2 * d + 1]) / 2 for d in range(3)]
    assert summary["heuristic"]["mean"] == pytest.approx(sum(per_deal) / 3, abs=5e-4)  # the summary rounds
