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
    assert set(data["agents"]["heuristic"]) == {"mean", "ci95", "deals", "sec_per_move", "cpu_mean", "cpu_median", "cpu_p99"}
    timing = ("sec_per_move", "cpu_mean", "cpu_median", "cpu_p99")
    strip = [{k: v for k, v in row.items() if k not in timing} for row in data["agents"].values()]
    again = [{k: v for k, v in row.items() if k not in timing}
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


TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


def test_a_later_deal_starts_from_the_same_match_for_every_seating():
    # Deal 3 of match 5: the two deals before are played by the heuristic, so however deal 3 is then played,
    # it starts from the same standings, dealer and cards.
    from interp.runs.arena import start_at
    game = load_game(TINY)
    first, again = (start_at(game, 3, seed=5, players=None, options=None, dealer=1) for _ in range(2))
    assert first.deal_no == again.deal_no == 3 and len(first.deals) == 2
    assert first.dealer == again.dealer == 1  # dealt by 1, then 0, then 1 again (two seats)
    assert first.zones == again.zones and first.sheet == again.sheet and first.sheet != load_game(TINY).new_sheets[2]()


def test_deal_numbers_are_played_in_turn(tmp_path):
    from interp.runs.arena import Deals
    records: list = []
    arena(load_game(TINY), ["heuristic", "random"], 3, seed=1, jobs=1, on_record=records.append, which=Deals(2, 3))
    assert [(r["deal"], r["seating"], r["deal_no"]) for r in records] == \
        [(0, 0, 2), (0, 1, 2), (1, 0, 3), (1, 1, 3), (2, 0, 2), (2, 1, 2)]


def test_a_match_past_its_end_is_refused_in_one_line():
    from interp.runs.arena import start_at
    with pytest.raises(ValueError, match="ended after deal"):
        start_at(load_game(TINY), 99, seed=5, players=None, options=None, dealer=0)


def test_whole_matches_score_the_sum_of_their_deals():
    # Tiny's match ends when a seat reaches 300 points (120 a deal): a few deals. An agent's score for a match is
    # the sum of its seat's deal values over the match, averaged over the two seatings.
    from interp.runs.arena import Deals
    records: list = []
    summary = arena(load_game(TINY), ["heuristic", "random"], 1, seed=2, jobs=1, on_record=records.append,
                    which=Deals(matches=True))
    for k in range(2):
        mine = [r for r in records if r["seating"] == k]
        assert [r["deal_no"] for r in mine] == list(range(1, len(mine) + 1)) and len(mine) >= 3
    heuristic = sum(v for r in records for seat, v in r["values"].items() if r["agents"][seat] == "heuristic") / 2
    assert summary["agents"]["heuristic"]["mean"] == pytest.approx(heuristic, abs=5e-4)


def test_cli_deal_numbers_and_matches(capsys):
    from interp.cli import main
    assert main(["arena", TINY, "--agents", "heuristic,random", "-n", "2", "--deal-no", "2-3", "--jobs", "1"]) == 0
    assert "deals 2-3 in turn" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["arena", TINY, "--deal-no", "3-2"])
    assert exc.value.code == 2 and "K <= L" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["arena", TINY, "--deal-no", "2", "--matches"])
    assert exc.value.code == 2
