"""A seeded fuzz test over every spec in games/: structural mutations (of the YAML data) and textual ones (of the
file), each run through `interp validate` and, when it validates, `interp simulate` for a few deals.

Every mutation must end in exit 0, or exit 2 with a `file:line:column` message: no traceback, no hang (each run has
an alarm), no message without a location. FUZZ_MUTATIONS (default 3 per spec and kind) and FUZZ_SEED scale it up
for a longer run: `FUZZ_MUTATIONS=100 python -m pytest tests/test_fuzz_specs.py -q -s`.
"""
from __future__ import annotations

import copy
import os
import random
import re
import shutil
import signal
import time
from pathlib import Path

import pytest
import yaml

from interp.cli import main

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted(p.name for p in (ROOT / "games").glob("*.yaml"))
PER_SPEC = int(os.environ.get("FUZZ_MUTATIONS", "3"))
SEED = int(os.environ.get("FUZZ_SEED", "10"))
SECONDS_PER_RUN = 20  # an alarm: a run past this is a hang
LOCATED = re.compile(r"^\S+\.yaml:\d+:\d+: \S")

# textual mutations ------------------------------------------------------------------------------------------------
ODD_TEXT = ["\x07", "\x00", "\x1b[2J", "\ufffe", "\u202e", "\t", "²", "'", '"', "[", "]", "{", "}", ":", ": ", "#",
            "&a ", "*a", "!!float ", "!!python/object:os.system ", "!!timestamp ", "%", "@", "`", "|", ">", "-",
            "\\", "  ", "\n", "\n  - ", "9" * 40, ".inf", "1e400", "[/]", "[bold]", "{", "}", "((((((", "none"]


def insert_odd(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + rng.choice(ODD_TEXT) + text[at:]


def delete_span(text: str, rng: random.Random) -> str:
    at = rng.randrange(len(text))
    return text[:at] + text[at + rng.randint(1, 12):]


def line_edit(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2 and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    else:
        lines[i] = ("  " + lines[i]) if rng.random() < 0.5 else lines[i][2:]
    return "\n".join(lines)


def swap_word(text: str, rng: random.Random) -> str:
    words = list(re.finditer(r"[A-Za-z_][A-Za-z_0-9]*|\d+", text))
    target, other = rng.choice(words), rng.choice(words)
    return text[:target.start()] + other.group() + text[target.end():]


def truncate(text: str, rng: random.Random) -> str:
    return text[:rng.randrange(len(text))]


TEXTUAL = [insert_odd, insert_odd, delete_span, line_edit, line_edit, swap_word, swap_word, truncate]

# structural mutations ---------------------------------------------------------------------------------------------
ODD_VALUES = [None, 0, -1, 1, 10 ** 9, 2.5, True, "", "x", "none", [], {}, [1, 2], {"a": 1}, "seats", "hand",
              "1 +", "((1)", "dealer[0]", "max(c for c in seats) + 1", "hand[none]", "sum(1 for s in seats)",
              " + ".join(["1"] * 1200), "(" * 300 + "1" + ")" * 300, "x" * 3000]


def paths(data, at=()):
    yield at
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths(v, at + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths(v, at + (i,))


def get(data, path):
    for key in path:
        data = data[key]
    return data


def mutate_data(data, rng: random.Random):
    data = copy.deepcopy(data)
    all_paths = [p for p in paths(data) if p]
    path = rng.choice(all_paths)
    parent, key = get(data, path[:-1]), path[-1]
    value = parent[key]
    kind = rng.randrange(6)
    if kind == 0:  # drop it
        del parent[key]
    elif kind == 1:  # an odd value in its place
        parent[key] = rng.choice(ODD_VALUES)
    elif kind == 2:  # another subtree of the spec in its place
        parent[key] = copy.deepcopy(get(data, rng.choice(all_paths)))
    elif kind == 3 and isinstance(value, str):  # a DSL-ish edit of a string
        words = re.findall(r"[A-Za-z_]\w*", value) or ["x"]
        parent[key] = rng.choice([value.replace(rng.choice(words), rng.choice(["none", "seats", "dealer", "1",
                                                                                  "hand", "[]", "talon"]), 1),
                                  f"({value})" * 2, value + rng.choice([" + 1", " and", "[0]", ".level", " > none"]),
                                  value[:len(value) // 2]])
    elif kind == 4 and isinstance(value, list) and value:  # repeat, drop or reverse list items
        parent[key] = rng.choice([value + value, value[1:], value[::-1]])
    elif isinstance(value, int) and not isinstance(value, bool):
        parent[key] = rng.choice([0, -value, value * 1000, 10 ** 9])
    else:
        parent[key] = rng.choice(ODD_VALUES)
    return data


# running ------------------------------------------------------------------------------------------------------------
class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang()


def run_cli(capsys, argv: list) -> tuple:
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(SECONDS_PER_RUN)
    try:
        code = main(argv)
    finally:
        signal.alarm(0)
    captured = capsys.readouterr()
    return code, captured.err


def check(capsys, path: Path, what: str) -> str:
    """Validate (and when it validates, simulate) one mutated spec; the outcome, or an AssertionError."""
    code, err = run_cli(capsys, ["validate", str(path)])
    assert code in (0, 2), f"{what}: exit {code}\n{err}"
    if code == 2:
        assert LOCATED.match(err), f"{what}: not located:\n{err}"
        return "rejected"
    code, err = run_cli(capsys, ["simulate", str(path), "-n", "2", "--bots", "random", "--json"])
    assert code in (0, 2), f"{what}: simulate exit {code}\n{err}"
    if code == 2:
        assert LOCATED.match(err), f"{what}: simulate error not located:\n{err}"
        return "stopped"
    return "ran"


@pytest.fixture(scope="module")
def games_copy(tmp_path_factory):
    """A scratch copy of games/, so a mutated variant still finds its base by `extends:`."""
    folder = tmp_path_factory.mktemp("fuzz") / "games"
    shutil.copytree(ROOT / "games", folder)
    return folder


def test_mutated_specs_are_refused_with_a_location_or_run(games_copy, capsys):
    rng = random.Random(SEED)
    outcomes: dict = {}
    started = time.perf_counter()
    for name in SPECS:
        original = (games_copy / name).read_text(encoding="utf-8")
        data = yaml.safe_load(original)
        target = games_copy / f"mutant-{name}"
        try:
            for i in range(PER_SPEC):
                mutation = rng.choice(TEXTUAL)
                target.write_text(mutation(original, rng), encoding="utf-8", errors="surrogatepass")
                what = f"{name} textual #{i} ({mutation.__name__}, seed {SEED}): {target}"
                outcome = check(capsys, target, what)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
                mutant = mutate_data(data, rng)
                target.write_text(yaml.safe_dump(mutant, sort_keys=False, allow_unicode=True), encoding="utf-8")
                what = f"{name} structural #{i} (seed {SEED}): {target}"
                outcome = check(capsys, target, what)
                outcomes[outcome] = outcomes.get(outcome, 0) + 1
        except Hang:
            pytest.fail(f"{what}: no answer within {SECONDS_PER_RUN} s; the mutant is kept at {target}")
        target.unlink()
    elapsed = time.perf_counter() - started
    total = sum(outcomes.values())
    print(f"\nfuzz: {total} mutations in {elapsed:.1f} s: {outcomes}")
    assert total == 2 * PER_SPEC * len(SPECS)
    assert outcomes.get("rejected", 0) > 0 and outcomes.get("ran", 0) > 0  # both paths were exercised
