"""Preferans score keeping (`interp score`): deals played with real cards, entered as facts.

The facts of each recorded deal are those of a stacked deal in tests/scenarios/preferans/, so the score keeper
must write the same entries as the engine did when the deal was played; the 4-player deals and the overflow are
checked against hand-computed numbers.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from interp.engine import match as engine
from interp.errors import ScenarioError
from interp.runs.scenario import run_scenario
from interp.spec.compiler import load_game
from interp.spec.loader import load_spec
from interp.table.scorekeeper import score_deals
from tests.conftest import ROOT

SPEC = os.path.join(ROOT, "games", "preferans.yaml")
INPUTS = os.path.join(ROOT, "tests", "score_inputs")
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "preferans")

# The deals of score_inputs/preferans-3.yaml, in order, as the scenarios that played them.
PLAYED_AS = ["raspasy-3", "auction-1-made-two-whists", "auction-2-failed-one-whist", "misere-made",
             "misere-failed", "seven-whister-penalty", "half-whist-pass", "open-whist"]
SEATS_3 = ["South", "West", "North"]
SEATS_4 = ["South", "West", "North", "East"]


def scenario(name: str) -> dict:
    return run_scenario(os.path.join(SCENARIOS, name + ".yaml"))


def named_entries(entries: dict, names: list) -> dict:
    """{column: {seat index or (writer, against): n}} -> the scenario runner's {column: {"West>South": n}}."""
    return {col: {(f"{names[k[0]]}>{names[k[1]]}" if isinstance(k, tuple) else names[k]): v
                  for k, v in diff.items()} for col, diff in entries.items()}


def named_facts(facts: dict, names: list) -> dict:
    """Raw recorded facts (per-seat lists, seat indexes) -> names, as run_scenario reports them."""
    out = dict(facts)
    for key in ("call", "tricks"):
        out[key] = dict(zip(names, facts[key]))
    if facts["declarer"] is not None:
        out["declarer"] = names[facts["declarer"]]
    return out


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interp.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


def score_file(name: str):
    game = load_game(SPEC)
    doc = load_spec(os.path.join(INPUTS, name))
    return score_deals(game, doc.data, doc)


def test_score_deals_match_the_played_deals():
    """Each recorded deal writes exactly the entries its played scenario wrote, from the same facts
    (raspasy, made, failed with one whister, misère made and failed, 7-level penalty, half-whist, open whist)."""
    st = score_file("preferans-3.yaml")
    assert len(st.deals) == len(PLAYED_AS)
    for record, name in zip(st.deals, PLAYED_AS):
        played = scenario(name)
        assert named_facts(record["facts"], SEATS_3) == played["facts"], name
        assert named_entries(record["entries"], SEATS_3) == played["entries"], name


def test_cli_score_input_json_matches_the_played_deals():
    """`interp score games/preferans.yaml --input F --json` gives the same facts and entries."""
    proc = run_cli("score", "games/preferans.yaml", "--input", "tests/score_inputs/preferans-3.yaml", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [d["dealer"] for d in out["deals"][:4]] == ["South", "West", "North", "South"]
    for deal, name in zip(out["deals"], PLAYED_AS, strict=True):
        played = scenario(name)
        assert deal["facts"] == played["facts"], name
        assert deal["entries"] == played["entries"], name


def test_score_four_players():
    """4 players, dealer rotating South, West, North: (1) 6♣ down 2 = four-failed-consolation.yaml;
    (2) raspasy, the talon (dealer West) won nothing: West pool +1, mountains South 1, North 3, East 6;
    (3) 8♥ both defenders pass, the dealer North whists: East makes it (pool +6), North writes 2 x 6 = 12.
    Settlement: mountains 1/0/7/6 (mean 3.5); whists net South +4, West +4, North 12 - 24, East 16 - 12:
    South 4 + 25 = 29, West 4 + 35 = 39, North -12 - 35 = -47, East 4 - 25 = -21."""
    st = score_file("preferans-4.yaml")
    entries = [named_entries(r["entries"], SEATS_4) for r in st.deals]
    assert entries[0] == scenario("four-failed-consolation")["entries"]
    assert entries[1] == {"pool": {"West": 1}, "mountain": {"South": 1, "North": 3, "East": 6}}
    assert entries[2] == {"pool": {"East": 6}, "whists": {"North>East": 12}}
    assert engine.results(st) == [29, 39, -47, -21]


def test_score_keeper_pool_overflow():
    """The score keeper writes the same sheet as play, overflow included: target 10, West makes misère
    (pool 10), then takes no trick in raspasy (+1): the excess point goes to the tied pools' first player
    from West's left (North), and West writes 10 whists on North."""
    game = load_game(SPEC)
    data = {"players": 3, "dealer": "South", "deals": [
        {"declarer": "West", "contract": "misere", "tricks": {"West": 0, "North": 10, "South": 0}},
        {"raspasy": True, "tricks": {"West": 0, "North": 3, "South": 7}}]}
    st = score_deals(game, data)
    assert named_entries(st.deals[1]["entries"], SEATS_3) == {
        "pool": {"North": 1}, "mountain": {"North": 3, "South": 7}, "whists": {"West>North": 10}}


def test_missing_fact_names_the_deal():
    """A recorded deal that lacks a fact is refused, naming the deal."""
    game = load_game(SPEC)
    data = {"players": 3, "deals": [{"declarer": "West", "contract": "6S", "call": {"North": "whist"},
                                      "tricks": {"West": 6, "North": 4, "South": 0}}]}
    with pytest.raises(ScenarioError, match="deal 1: call of South is missing"):
        score_deals(game, data)


def test_interactive_score_keeping():
    """Interactive mode: the facts are asked one by one on stdin (raspasy?, declarer, contract, each defender's
    call, each player's tricks); deal 1 (dealer South) is auction-1's 6♦, deal 2 (dealer West, so North is 1st
    hand) a raspasy; then end of input. Both write what the played deals wrote."""
    answers = "\n".join(["n", "South", "6D", "whist", "whist", "2", "1", "7",     # West, North calls; W N S tricks
                         "y", "3", "7", "0"]) + "\n"                              # N S W tricks
    proc = run_cli("score", "games/preferans.yaml", "--json", "-o", "pool_target=30", stdin=answers)
    assert proc.returncode == 0, proc.stderr
    assert "Declarer [South/West/North]" in proc.stderr and "Call — West [none/half/pass/whist]" in proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["deals"]) == 2
    assert out["deals"][0]["entries"] == scenario("auction-1-made-two-whists")["entries"]
    assert out["deals"][1]["entries"] == scenario("raspasy-3")["entries"]
    assert out["sheet"]["pool"] == {"South": 2, "West": 1, "North": 0}
