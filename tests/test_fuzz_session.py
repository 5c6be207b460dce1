"""A seeded fuzz of what a player gives interp (issue 10): hostile lines typed at `interp play` (markup, control
characters, huge lines, unicode digits, partial moves, commands), then the save each session leaves, mutated,
fed to `interp play --resume`. Every case must end without a traceback or a hang, never print a control character
raw, and leave a save that resumes; a refused save gets one line naming the file and exit 2 and is left untouched.

Cases are generated from SEED and their index, so a failing case is reproduced by its number; the loop stops at
MAX_CASES or after BUDGET seconds, whichever comes first (a busy machine runs fewer cases, never longer)."""
from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from interp.cli import main
from interp.engine import match as engine
from interp.runs import replay
from interp.spec import compiler

from .conftest import ROOT, game_of

SEED = 2026
MAX_CASES = 400
BUDGET = 12.0  # seconds, for the whole loop
CASE_LIMIT = 20  # seconds: a case still running by then is a hang
SPECS = ["games/preferans.yaml", "games/tarot.yaml", "games/piquet.yaml", "games/mitten.yaml"]
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")

HOSTILE = ["[/red]", "[bold]x[/bold]", "[link=file:///etc/passwd]x[/link]", ":smile:", "\x1b[2J\x1b[H",
           "\x1b]0;owned\x07", "\x07\x08\x00", "\u202eevil", "\x9b31m", "²", "¹²", "٣", "１", "Ⅻ", "½", "-1", "0",
           "9" * 5000, "1e9", " 1 ", "help", "moves", "hand", "sheet", "?", "", "   ", "same", "p", "PASS", "\t1"]


def hostile_line(rng: random.Random, legal: list) -> str:
    """One line a careless or hostile player might type."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.choice(HOSTILE)
    if kind == 1:
        return "".join(chr(rng.choice([rng.randrange(0, 32), rng.randrange(127, 160), rng.randrange(32, 0x3000)]))
                       for _ in range(rng.randrange(1, 30)))
    if kind == 2:
        return rng.choice("x9[ ♠") * rng.randrange(200, 50000)
    if kind == 3 and legal:
        move = rng.choice(legal)
        return move[:rng.randrange(1, len(move) + 1)]  # a partial move (or the whole)
    if kind == 4 and legal:
        return rng.choice(legal).swapcase()
    if kind == 5:
        return str(rng.randrange(1, 12))
    return rng.choice(HOSTILE) + rng.choice(legal or ["x"])


def mutated(rng: random.Random, raw: str) -> str:
    """The text of a save, changed the way an editor, a disk or a person might change it."""
    kind = rng.randrange(6)
    if kind == 0:  # bytes: cut short, a character changed, junk inserted
        at = rng.randrange(len(raw))
        return rng.choice([raw[:at], raw[:at] + rng.choice("{}[]\",:0x\x00é") + raw[at + 1:],
                           raw[:at] + "[" * rng.randrange(1, 3000) + raw[at:]])
    data = json.loads(raw)
    key = rng.choice(sorted(data))
    value = rng.choice([None, -1, 0, 10 ** 9, 2 ** 70, 1.5, True, "x", "[/red]", "\x1b[2J", [], {}, [[[[1]]]],
                        "West", "random", "heuristic", "skynet"])
    if kind == 1:
        del data[key]
    elif kind == 2 or kind in (3, 4) and len(data["history"]) < 2:
        data[key] = value
    elif kind == 3:
        entry = rng.randrange(len(data["history"]))
        if rng.random() < 0.5:
            data["history"][entry][rng.randrange(3)] = value
        else:
            data["history"][entry] = value
    elif kind == 4:
        history = data["history"]
        i, j = rng.randrange(len(history)), rng.randrange(len(history))
        history[i], history[j] = history[j], history[i]
        if rng.random() < 0.5:
            del history[rng.randrange(len(history)):]
    else:
        data = {"version": 1, "wrapped": data, "deep": json.loads("[" * 50 + "]" * 50)}
    return json.dumps(data)


class _Hang(BaseException):  # not an Exception: the crash handler must not catch it
    pass


def _alarm(signum, frame):
    raise _Hang()


@pytest.fixture
def cached_loads(monkeypatch):
    """Each spec is compiled once for all cases (the fuzz is about sessions and saves, not spec loading)."""
    def load(path):
        return game_of(os.path.relpath(os.path.abspath(path), ROOT))
    monkeypatch.setattr("interp.cli.common.load_game", load)
    monkeypatch.setattr(replay, "load_game", load)
    assert compiler.load_game is not load


def run_cli(args: list, lines: list, capsys, monkeypatch) -> tuple:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    signal.alarm(CASE_LIMIT)
    try:
        code = main(args)
    except _Hang:
        pytest.fail(f"{args} did not finish within {CASE_LIMIT} s")
    finally:
        signal.alarm(0)
    out = capsys.readouterr()
    return code, out.out, out.err


def check_output(case: int, code: int, out: str, err: str) -> None:
    assert "Traceback" not in out + err and "internal error" not in out, f"case {case}: {(out + err)[-3000:]}"
    assert not UNSAFE.search(out + err), f"case {case}: a control character reached the terminal"


def one_case(case: int, tmp_path, capsys, monkeypatch) -> None:
    rng = random.Random(f"{SEED}/{case}")
    spec = rng.choice(SPECS)
    game = game_of(spec)
    n = rng.choice(game.players)
    st = engine.new_match(game, n, case)
    legal = [engine.notation(st, m) for m in engine.legal_moves(st)] + ["pass", "play", "discard", "declare"]
    lines = [hostile_line(rng, legal) for _ in range(rng.randrange(3, 40))]
    save = tmp_path / f"case{case}.json"
    args = ["play", spec, "--seed", str(case), "--players", str(n), "--bots", "random", "--save", str(save),
            "--seat", str(rng.randrange(1, n + 1))]
    code, out, err = run_cli(args, lines, capsys, monkeypatch)
    check_output(case, code, out, err)
    assert code == 0, f"case {case}: {err}"
    replay.resume(str(save))  # the session's save resumes

    raw = mutated(rng, save.read_text(encoding="utf-8"))
    save.write_text(raw, encoding="utf-8")
    before = save.read_bytes()
    lines = [hostile_line(rng, legal) for _ in range(rng.randrange(0, 5))]
    code, out, err = run_cli(["play", "--resume", str(save)], lines, capsys, monkeypatch)
    check_output(case, code, out, err)
    assert code in (0, 2), f"case {case}: exit {code}: {err}"
    if code == 2:
        assert err.startswith(str(save)), f"case {case}: {err}"
        assert save.read_bytes() == before, f"case {case}: a refused save was changed"
    else:
        replay.resume(str(save))  # a harmless edit: the game goes on, and its save still resumes


@pytest.mark.skipif(not hasattr(signal, "alarm"), reason="uses SIGALRM to catch hangs")
def test_hostile_sessions_and_mutated_saves(tmp_path, capsys, monkeypatch, cached_loads):
    for spec in SPECS:
        game_of(spec)  # compiled before the clock starts
    previous = signal.signal(signal.SIGALRM, _alarm)
    started = time.perf_counter()
    try:
        case = 0
        while case < MAX_CASES and time.perf_counter() - started < BUDGET:
            one_case(case, tmp_path, capsys, monkeypatch)
            case += 1
    finally:
        signal.signal(signal.SIGALRM, previous)
    elapsed = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nsession fuzz: {case} cases (each a typed session and a mutated save) in {elapsed:.1f} s")
    assert case >= 20


def test_a_hostile_session_through_the_real_command(tmp_path):
    """The same, end to end once: a process fed hostile lines, then its save resumed by another."""
    rng = random.Random(SEED)
    lines = [hostile_line(rng, ["7S", "pass", "6S"]) for _ in range(60)]
    save = tmp_path / "s.json"
    cmd = [sys.executable, "-m", "interp.cli", "play"]
    first = subprocess.run(cmd + ["games/preferans.yaml", "--seed", "3", "--save", str(save)], cwd=ROOT,
                           input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    second = subprocess.run(cmd + ["--resume", str(save)], cwd=ROOT, input="1\n" * 5, capture_output=True,
                            text=True, timeout=120)
    for proc in (first, second):
        assert proc.returncode == 0, proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
        assert not UNSAFE.search(proc.stdout + proc.stderr)
    assert "Resumed" in second.stdout
