"""`interp simulate` (independent seeded deals, worker processes, per-deal records, confidence intervals) and
`interp bench` (a line per file and player count as it is measured, within about the time asked)."""
from __future__ import annotations

import csv
import json
import statistics
import subprocess
import sys
import time

import pytest

from interp.bots.registry import AGENTS
from interp.cli import main
from interp.engine import match as engine
from interp.runs.bench import bench
from interp.runs.simulate import play_deal, simulate
from interp.runs.summary import mean_ci, t95
from interp.spec.compiler import load_game
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def preferans():
    return load_game("games/preferans.yaml")


def run(game, deals, jobs, **kw):
    records = []
    summary = simulate(game, deals, seed=11, jobs=jobs, on_record=records.append, **kw)
    return summary, records


def test_results_do_not_depend_on_the_number_of_jobs(preferans):
    one, records_one = run(preferans, 24, jobs=1, bots="random")
    three, records_three = run(preferans, 24, jobs=3, bots="random")
    assert records_one == records_three
    for key in ("seconds", "deals_per_second"):
        one.pop(key), three.pop(key)
    assert one == three
    assert [r["deal"] for r in records_one] == list(range(24))


def test_a_record_replays_on_its_own(preferans):
    _, records = run(preferans, 10, jobs=1)
    record = records[7]
    seats = list(record["values"])
    dealer = seats.index(record["dealer"])
    st = engine.new_match(preferans, 3, record["seed"], dealer=dealer)
    play_deal(st, {s: AGENTS[record["agents"][name]](seed=record["seed"] * 100 + s) for s, name in enumerate(seats)})
    assert st.deals[-1]["facts"]["tricks"] == [record["facts"]["tricks"][name] for name in seats]
    assert [r["dealer"] for r in records[:3]] == seats  # the deal goes round the table


def test_deal_values_and_their_confidence_intervals():
    game = load_game("games/tarot.yaml")
    summary, records = run(game, 12, jobs=1, bots="random")
    for record in records:  # Tarot's result is its running total: a deal's value is what the deal wrote
        assert record["values"] == {seat: record["entries"].get("total", {}).get(seat, 0) for seat in record["values"]}
        assert sum(record["values"].values()) == 0
    for seat, stat in summary["values"].items():
        values = [r["values"][seat] for r in records]
        assert stat["mean"] == round(statistics.fmean(values), 3)
        low, high = stat["ci95"]
        assert low <= stat["mean"] <= high
        assert high - low == pytest.approx(2 * t95(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5,
                                           abs=0.01)


def test_confidence_interval_worked_example():
    # values 0, 10, 20, 30: mean 15, sd = sqrt(((15² + 5²) · 2) / 3) = 12.910; 3 degrees of freedom, t = 3.182:
    # half-width 3.182 · 12.910 / 2 = 20.540
    assert mean_ci([0, 10, 20, 30]) == {"mean": 15, "ci95": [-5.54, 35.54], "sd": 12.91}
    # 40 values alternating 0 and 10: mean 5, sd = sqrt(40 · 25 / 39) = 5.064, normal 1.96: half 1.96 · 5.064 / √40
    assert mean_ci([0, 10] * 20) == {"mean": 5, "ci95": [3.431, 6.569], "sd": 5.064}


def test_simulate_writes_records_as_json_lines_and_csv(tmp_path, capsys):
    jsonl, table = tmp_path / "deals.jsonl", tmp_path / "deals.csv"
    assert main(["simulate", "games/preferans.yaml", "-n", "12", "--seed", "4", "--bots", "random",
                 "--jobs", "2", "--out", str(jsonl), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert [r["seed"] for r in records] == list(range(4, 16))
    assert set(records[0]) >= {"deal", "seed", "dealer", "agents", "facts", "entries", "values"}
    assert set(summary["values"]) == {"South", "West", "North"}
    assert main(["simulate", "games/preferans.yaml", "-n", "12", "--seed", "4", "--bots", "random",
                 "--jobs", "1", "--out", str(table)]) == 0
    assert "95% confidence interval" in capsys.readouterr().out
    rows = list(csv.DictReader(table.open()))
    assert [int(r["seed"]) for r in rows] == list(range(4, 16))
    assert [float(r["values.West"]) for r in rows] == [r["values"]["West"] for r in records]
    assert [r["facts.tricks.North"] for r in rows] == [str(r["facts"]["tricks"]["North"]) for r in records]


def test_bad_jobs_and_unwritable_out_are_clear_errors(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", "games/preferans.yaml", "-n", "2", "--jobs", "0"])
    assert stop.value.code == 2 and "from 1" in capsys.readouterr().err
    assert main(["simulate", "games/preferans.yaml", "-n", "2", "--out", str(tmp_path / "no" / "such.csv")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_bench_reports_each_row_as_it_is_measured():
    rows = []
    started = time.perf_counter()
    result = bench(["games/preferans.yaml", "docs/examples/tiny.yaml"], seconds=0.3, report=rows.append)
    elapsed = time.perf_counter() - started
    assert rows == result and [(r["spec"], r["players"]) for r in rows][:2] == [("games/preferans.yaml", 3),
                                                                                ("games/preferans.yaml", 4)]
    assert elapsed < 0.6 + 10  # about the time asked per file: a load and a last playout past it at most


def test_bench_command_prints_lines_before_it_ends():
    proc = subprocess.Popen([sys.executable, "-m", "interp.cli", "bench", "docs/examples/tiny.yaml",
                             "games/preferans.yaml", "games/tarot.yaml", "--seconds", "0.5"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        header = proc.stdout.readline()
        first = proc.stdout.readline()
        running = proc.poll() is None
        rest, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert "playouts/s" in header and first.startswith("docs/examples/tiny.yaml")
    assert running, "the first row came only at the end"
    assert proc.returncode == 0 and rest.count("games/tarot.yaml") == 3
