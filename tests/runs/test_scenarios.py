"""Every scenario file in tests/scenarios/ is a test by itself: `interp run` replays it and its `expect:` holds.

The numbers in each `expect:` are those the file's header works out by hand from the rules (and seed passage) it
names; a scenario without `expect:` is an error here, so no file can drift into merely running.
"""
from __future__ import annotations

import glob
import os

import pytest

from interp.errors import ScenarioError
from interp.runs.scenario import run_scenario
from tests.conftest import ROOT
from tests.scenario_helpers import run_cli

SCENARIO_DIR = os.path.join(ROOT, "tests", "scenarios")
SCENARIOS = sorted(glob.glob(os.path.join(SCENARIO_DIR, "**", "*.yaml"), recursive=True))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: os.path.relpath(p, SCENARIO_DIR))
def test_scenario_meets_its_expectations(path):
    result = run_scenario(path)
    assert "mismatches" in result, "the scenario has no expect: block"
    assert result["mismatches"] == [], "\n".join(result["mismatches"])


def test_every_game_family_has_scenarios():
    folders = {os.path.basename(os.path.dirname(p)) for p in SCENARIOS}
    assert {"tarot", "preferans", "piquet", "mitten", "hearts", "oh-hell", "scopa", "belote"} <= folders


# -- what a scenario file may get wrong: a located error (file:line:column), a hint, exit 2 ----------------------------
BASE = os.path.join(ROOT, "tests", "scenarios", "preferans", "both-pass.yaml")


def _variant(tmp_path, edit) -> str:
    """both-pass.yaml with its spec path made absolute and `edit` (text -> text) applied."""
    text = open(BASE, encoding="utf-8").read().replace("../../../games", os.path.join(ROOT, "games"))
    path = tmp_path / "s.yaml"
    path.write_text(edit(text), encoding="utf-8")
    return str(path)


def _line_of(path: str, needle: str) -> int:
    return next(i for i, line in enumerate(open(path, encoding="utf-8"), 1) if needle in line)


def _append(extra: str):
    return lambda t: t + extra


def _sub(old: str, new: str):
    def edit(text):
        assert old in text
        return text.replace(old, new, 1)
    return edit


BROKEN = [  # (what, edit, the line's text, words of the message)
    ("typo key", _sub("zones:", "zone:"), "zone:", "unknown key 'zone'"),
    ("sheet names a missing column", _append("sheet: {pools: {South: 1}}\n"), "sheet:", "no column 'pools'"),
    ("sheet column as a number", _append("sheet: {pool: 5}\n"), "sheet:", "not the number 5"),
    ("sheet column as text", _append("sheet: {pool: lots}\n"), "sheet:", "not text"),
    ("sheet value as text", _append("sheet: {pool: {South: ten}}\n"), "sheet:", "a number, not text"),
    ("per-pair column per seat", _append("sheet: {whists: {South: 3}}\n"), "sheet:", "per pair of seats"),
    ("per-seat column per pair", _append("sheet: {pool: {South>West: 3}}\n"), "sheet:", "no seat"),
    ("sheet .inf", _append("sheet: {pool: {South: .inf}}\n"), "sheet:", "finite"),
    ("sheet 10^400", _append("sheet: {pool: {South: 1" + "0" * 400 + "}}\n"), "sheet:", "South: this number has more than 15 digits"),
    ("zones as a list", _sub("zones:\n", "zones: [AS]\nx:\n"), "zones:", "zones: should be a mapping"),
    ("per-seat zone as a list", _sub("  hand:\n", "  hand: [AS]\n  handx:\n"), "hand: [AS]", "per seat"),
    ("options as a list", _sub("players: 3", "players: 3\noptions: [a]"), "options:", "options: should be"),
    ("unknown option", _sub("players: 3", "players: 3\noptions: {nosuch: 1}"), "options:", "unknown option 'nosuch'"),
    ("option .inf", _sub("players: 3", "players: 3\noptions: {pool_target: .inf}"), "options:", "inf"),
    ("players as text", _sub("players: 3", "players: three"), "players:", "players: should be a whole number"),
    ("huge player count", _sub("players: 3", "players: 1" + "0" * 13), "players:", "is for 3, 4 players, not 10000000000000"),
    ("endless player count", _sub("players: 3", "players: 1" + "0" * 30), "players:",
     "players: this number has more than 15 digits"),
    ("spec as a number", lambda t: "spec: 5\n" + t.split("\n", 3)[3], "spec: 5", "spec: should be a file name"),
    ("missing spec file", lambda t: "spec: nowhere.yaml\n" + t.split("\n", 3)[3], "spec:", "spec: no such file nowhere.yaml"),
    ("moves as a mapping", _sub("moves: pass", "moves: {a: 1}\nx: pass"), "moves:", "moves: should be"),
    ("a move as a mapping", _sub("moves: pass 6S pass 8H 7H 7H pass pass", "moves: [{a: 1}]"), "moves:", "move 1 should be text"),
    ("a card short", _sub("talon: [10H, 9H]", "talon: [10H]"), "zones:", "not placed: 9H"),
    ("a card twice", _sub("talon: [10H, 9H]", "talon: [10H, 9H, 9H]"), "talon:", "placed twice"),
    ("rest names no zone", _append("rest: nowhere\n"), "rest:", "no zone 'nowhere'"),
    ("expect typo", _sub("expect:\n", "expect:\n  entrie: {}\n"), "entrie:", "unknown key 'entrie' under expect"),
    ("expect legal as text", _sub("expect:\n", "expect:\n  legal: pass\n"), "legal: pass", "legal should be a list"),
    ("empty file", lambda t: "", None, "a scenario names its game"),
    ("a list, not a mapping", lambda t: "- spec\n", None, "mapping"),
]


@pytest.mark.parametrize("what,edit,line,words", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_scenario_is_a_located_error_with_exit_2(tmp_path, what, edit, line, words):
    path = _variant(tmp_path, edit)
    code, _, stderr = run_cli(["run", path])
    assert code == 2, stderr
    head = stderr.splitlines()[0]
    where = f"{path}:{_line_of(path, line) if line else 1}:"
    assert head.startswith(where) and words in head, stderr
    assert "hint:" in stderr or line is None


def test_a_moves_string_that_splits_a_move_says_to_write_a_list(tmp_path):
    text = open(os.path.join(ROOT, "tests", "scenarios", "mitten", "plain-mitten.yaml"), encoding="utf-8").read()
    text = text.replace("../../../games", os.path.join(ROOT, "games"))
    start, end = text.index("moves:"), text.index("expect:")
    path = tmp_path / "m.yaml"
    path.write_text(text[:start] + 'moves: "declare mitten of 4s with 4S"\n' + text[end:], encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        run_scenario(str(path))
    assert "'declare mitten of 4s with 4S' is one move of several words" in err.value.hint
    assert "YAML list" in err.value.hint


def test_an_unmet_expectation_is_a_located_diff_and_exit_1(tmp_path):
    path = _variant(tmp_path, _sub("pool: {North: 4}",
                                   "pool: {North: 5, West: 1}\n  facts: {declarer: South}\n  to_move: West"))
    code, stdout, _ = run_cli(["run", path])
    assert code == 1
    line = _line_of(path, "pool: {North: 5")
    assert f"{path}:{line}:19: entries › pool › North: expected 5, got 4" in stdout
    assert f"{path}:{line}:28: entries › pool › West: expected 1, got nothing" in stdout
    assert "facts › declarer: expected South, got North" in stdout
    assert "to_move: the deal is over, so there is no to_move" in stdout
    assert "expect: 4 mismatches" in stdout


def test_entries_are_exact_and_legal_is_a_set(tmp_path):
    """An entry the deal wrote but the scenario does not expect is a mismatch; legal moves compare as a set."""
    path = _variant(tmp_path, _sub("    pool: {North: 4}\n", "    mountain: {}\n"))
    out = run_scenario(path)
    assert any("got pool: {North: 4} too" in m for m in out["mismatches"])
    assert any("entries › mountain: expected {}, got nothing" in m for m in out["mismatches"])
    trick = os.path.join(ROOT, "tests", "scenarios", "tarot", "five-call-queen.yaml")
    text = open(trick, encoding="utf-8").read().replace("../../../games", os.path.join(ROOT, "games"))
    reordered = tmp_path / "q.yaml"
    reordered.write_text(text.replace("legal: [QS, QH, QD, QC]", "legal: [QC, QD, QH, QS]\n  legal_includes: [QH]\n"
                                      "  legal_excludes: [KH]"), encoding="utf-8")
    assert run_scenario(str(reordered))["mismatches"] == []
    reordered.write_text(text.replace("legal: [QS, QH, QD, QC]", "legal: [QS, QH, QD]\n  legal_excludes: [QC]"),
                         encoding="utf-8")
    mismatches = run_scenario(str(reordered))["mismatches"]
    assert len(mismatches) == 2 and "QC is legal but not in the expected list" in mismatches[0]
