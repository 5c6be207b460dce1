"""`interp summarize GAME RECORDS...`: the summary `simulate` prints, from the `--out` files of runs made anywhere
(JSON Lines or CSV), several files merged as one run."""
from __future__ import annotations

import json
import os

from interp.cli import main
from interp.runs.simulate import simulate
from interp.runs.summary import summarize_files
from interp.spec.compiler import load_game

from ..conftest import ROOT

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


def _untimed(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("seconds", "deals_per_second")}


def _run(tmp_path, name: str, deals: int, seed: int, capsys) -> dict:
    """`interp simulate tiny --out NAME --json`: its printed summary."""
    assert main(["simulate", TINY, "-n", str(deals), "--seed", str(seed), "--bots", "random,heuristic", "-j", "1",
                 "--out", str(tmp_path / name), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_summarize_gives_simulates_own_summary_from_its_json_lines_and_from_its_csv(tmp_path, capsys):
    printed = _run(tmp_path, "run.jsonl", 25, 3, capsys)
    _run(tmp_path, "run.csv", 25, 3, capsys)
    assert main(["summarize", TINY, str(tmp_path / "run.jsonl"), "--json"]) == 0
    from_lines = json.loads(capsys.readouterr().out)
    assert _untimed(from_lines) == _untimed(printed) and from_lines["bots"] == "random,heuristic"
    assert _untimed(summarize_files(load_game(TINY), [str(tmp_path / "run.csv")])) == _untimed(printed)


def test_two_shards_merged_summarise_as_the_one_run_they_split(tmp_path, capsys):
    """Deal i of a run with seed s is dealt from seed s + i by seat i mod 2: deals 10–19 of a 20-deal run from
    seed 0 are deals 0–9 of a run from seed 10, so two 10-deal shards (made on two machines) are that run."""
    _run(tmp_path, "first.jsonl", 10, 0, capsys)
    _run(tmp_path, "second.csv", 10, 10, capsys)
    whole = simulate(load_game(TINY), 20, seed=0, bots="random,heuristic", jobs=1)
    merged = summarize_files(load_game(TINY), [str(tmp_path / "first.jsonl"), str(tmp_path / "second.csv")])
    assert merged["deals"] == 20 and _untimed(merged) == _untimed(whole)


def test_a_file_that_is_not_deal_records_is_one_line_and_exit_2(tmp_path, capsys):
    bad = tmp_path / "notes.jsonl"
    bad.write_text('{"deal": 0, "seed": 0, "agents": {}, "values": {"North": 1, "South": -1}}\n[1, 2]\n',
                   encoding="utf-8")
    assert main(["summarize", TINY, str(bad)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"{bad}:2: not a deal record (no values by seat)")
    assert main(["summarize", TINY, str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
    bad.write_text('{"deal": 0, "seed": 0, "values": {"North": "many", "South": -1}}\n', encoding="utf-8")
    assert main(["summarize", TINY, str(bad)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"{bad}:1: not a deal record (no values by seat)")
