"""Seeded fuzzing of the files a person writes by hand: scenarios (`interp run`) and score inputs
(`interp score --input`).

Each case mutates one shipped file (tests/scenarios/**, tests/score_inputs/*) — a line dropped, doubled or
swapped, a value replaced by a hostile one (`.inf`, `1e400`, a 400-digit number, a list, a mapping, markup,
a superscript digit), an unknown key, a truncation — and runs the command in process. It must end within a
bounded time with exit 0 or 1 (the input still holds together; 1: an `expect:` no longer holds) or exit 2 with a
message that starts `file:line:column:` — never a traceback, and never an unlocated message.
"""
from __future__ import annotations

import contextlib
import functools
import glob
import io
import os
import random
import re
import signal
import time

import pytest

from interp.cli import common, main
from interp.runs import scenario

from .conftest import ROOT

SEED = 20261122
CASES = 720          # about 8 s on an idle core, 15 s on a busy one
PER_CASE_SECONDS = 10

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "**", "*.yaml"), recursive=True))
SCORE_INPUTS = {  # input -> its spec
    "piquet-rubicon-tie": "piquet-rubicon", "piquet-rubicon": "piquet-rubicon", "piquet": "piquet",
    "preferans-3": "preferans", "preferans-4": "preferans-4", "tarot-3": "tarot-3", "tarot-4": "tarot",
    "tarot-5": "tarot-5"}
HOSTILE = [".inf", "-.inf", ".nan", "1e400", "1" + "0" * 400, "-3", "0", "99", "40.5", "~", "[]", "{}", "[a, b]",
           "{x: 1}", "''", "x", "South", "Nobody", "true", "\"[/red]\"", "\"²\"", "\"\\e[2J\"", "AS", "10H",
           "garde", "pass", "7H", "-1", "1/0", "\"a\\tb\""]
KEYS = ["zone: x", "option: {a: 1}", "extends: x.yaml", "rest: nowhere", "sheet: {pool: {South: 1}}",
        "players: 1000000000", "deals: 3", "dealer: 9", "expect: {legal: [x]}", "moves: [x y z]"]
LOCATED = re.compile(r"^\S+:\d+:\d+: ")


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    kind = rng.randrange(7)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        lines.insert(i, rng.choice(KEYS) if rng.random() < 0.5 else "  " + rng.choice(KEYS))
    elif kind == 4:
        return text[:rng.randrange(len(text) + 1)]
    else:  # a value (after ': ', or an item of a flow list/mapping) replaced by a hostile one
        spots = [m.end() for m in re.finditer(r"(: |\[|, |- )", lines[i])]
        if spots:
            at = rng.choice(spots)
            rest = re.match(r"[^,\]}\n#]*", lines[i][at:]).end()
            lines[i] = lines[i][:at] + rng.choice(HOSTILE) + lines[i][at + rest:]
    return "\n".join(lines)


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang


def _run(argv: list) -> tuple:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


@pytest.fixture
def cached_games(monkeypatch):
    """Compile each spec once: the fuzzing is of the scenario and input files, not of the specs."""
    cached = functools.lru_cache(maxsize=None)(common.load_game)
    monkeypatch.setattr(common, "load_game", cached)
    games, read = {}, scenario._game

    def scenario_game(doc, path):
        spec = doc.data.get("spec")
        key = os.path.realpath(os.path.join(os.path.dirname(path), spec)) if isinstance(spec, str) else None
        if key not in games:
            game = read(doc, path)  # a path that does not load raises here, as it would uncached
            if key is None:
                return game
            games[key] = game
        return games[key]
    monkeypatch.setattr(scenario, "_game", scenario_game)


def test_mutated_scenarios_and_score_inputs_fail_cleanly(tmp_path, cached_games):
    rng = random.Random(SEED)
    sources = [("run", p, None) for p in SCENARIOS] + [
        ("score", os.path.join(ROOT, "tests", "score_inputs", name + ".yaml"),
         os.path.join(ROOT, "games", spec + ".yaml")) for name, spec in SCORE_INPUTS.items()]
    counts = {0: 0, 1: 0, 2: 0}
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(CASES):
            command, source, spec = sources[rng.randrange(len(sources))]
            text = open(source, encoding="utf-8").read()
            if command == "run":
                text = text.replace("../../../games", os.path.join(ROOT, "games"))
            for _ in range(rng.choice((1, 1, 2, 3))):
                text = _mutate(text, rng)
            path = tmp_path / f"case{case}.yaml"
            path.write_text(text, encoding="utf-8")
            argv = ["run", str(path)] if command == "run" else ["score", spec, "--input", str(path), "--json"]
            signal.alarm(PER_CASE_SECONDS)
            try:
                code, err = _run(argv)
            except _Hang:
                pytest.fail(f"case {case} ({os.path.basename(source)}) runs past {PER_CASE_SECONDS} s:\n{text}")
            except Exception as exc:  # a traceback for the user
                raise AssertionError(f"case {case} ({os.path.basename(source)}) crashed:\n{text}") from exc
            finally:
                signal.alarm(0)
            assert code in counts, (case, code)
            if code == 2:
                assert LOCATED.match(err) and str(path) in err.splitlines()[0], \
                    f"case {case}: an unlocated message:\n{err}\n--- input ---\n{text}"
            counts[code] += 1
    finally:
        signal.signal(signal.SIGALRM, old)
    elapsed = time.perf_counter() - start
    print(f"\nfuzz: {CASES} mutated inputs in {elapsed:.1f} s: {counts[0]} ran, {counts[1]} unmet expect, "
          f"{counts[2]} refused with a location")
    assert counts[2] > CASES // 4  # the mutations do reach the checks
