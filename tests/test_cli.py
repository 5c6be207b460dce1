"""The `interp` command as a user meets it: play with typed input, saves that survive Ctrl-C, the end of
input and crashes, resume, simulate, bench, validate. Interactive tests feed their own input."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from interp.engine import match as engine
from interp.runs import replay
from interp.spec.compiler import load_game
from interp.table.play import TerminalMatch
from interp.table.render import LiteralConsole

INTERP = [sys.executable, "-m", "interp.cli"]


def interp(*args, stdin: str = "", timeout: int = 120):
    return subprocess.run(INTERP + list(args), input=stdin, capture_output=True, text=True, timeout=timeout)


def test_play_a_whole_match_by_typing_moves(tmp_path):
    save = tmp_path / "m.json"
    out = interp("play", "games/preferans.yaml", "--seed", "5", "-o", "pool_target=1", "--save", str(save),
                 stdin="1\n" * 4000)
    assert out.returncode == 0, out.stderr
    assert "score sheet after deal 1" in out.stdout
    assert "The match is over." in out.stdout
    assert "settlement" in out.stdout
    data = json.loads(save.read_text())
    game = load_game("games/preferans.yaml")
    st = replay.replay(game, data["history"], data["players"], data["seed"], data["options"], data["dealer"])
    assert st.match_over


def test_illegal_entry_is_explained_and_asked_again(tmp_path):
    out = interp("play", "games/preferans.yaml", "--seed", "5", "--save", str(tmp_path / "s.json"),
                 stdin="7NT\nhelp\n1\n")
    assert "Not legal" in out.stdout
    assert "Type a move as listed" in out.stdout
    assert "Input ended. The game is saved" in out.stdout
    assert out.returncode == 0


def test_end_of_input_saves_and_resume_continues_exactly(tmp_path):
    save = tmp_path / "r.json"
    first = interp("play", "games/preferans.yaml", "--seed", "8", "--save", str(save), stdin="1\n" * 30)
    assert "The game is saved" in first.stdout
    before = json.loads(save.read_text())["history"]
    assert len(before) >= 30
    second = interp("play", "--resume", str(save), stdin="1\n" * 10)
    assert "Resumed" in second.stdout
    after = json.loads(save.read_text())["history"]
    assert after[:len(before)] == before and len(after) > len(before)


def _match(tmp_path, read):
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 12)
    console = LiteralConsole(file=io.StringIO(), width=120)
    save = str(tmp_path / "x.json")
    return TerminalMatch(game, st, 0, "heuristic", save, console, read=read), save, console


def test_ctrl_c_saves_and_the_saved_game_resumes(tmp_path):
    calls = []

    def read(prompt):
        calls.append(prompt)
        if len(calls) > 12:
            raise KeyboardInterrupt
        return "1"
    match, save, console = _match(tmp_path, read)
    assert match.run() == 130
    assert "Interrupted" in console.file.getvalue()
    data = replay.load(save)
    st = replay.replay(match.game, data["history"], data["players"], data["seed"], data["options"],
                       data["dealer"], data["deal_no"])
    assert st.to_json() == match.st.to_json()


def test_a_crash_saves_the_game(tmp_path):
    def read(prompt):
        raise RuntimeError("boom")
    match, save, console = _match(tmp_path, read)
    assert match.run() == 1
    assert "internal error" in console.file.getvalue()
    assert os.path.exists(save)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_to_a_running_game_leaves_a_save(tmp_path):
    save = tmp_path / "sig.json"
    proc = subprocess.Popen(INTERP + ["play", "games/preferans.yaml", "--seed", "3", "--save", str(save)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not save.exists() and time.time() < deadline:  # the first autosave comes after the bots' moves
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Interrupted" in out
    assert json.loads(save.read_text())["version"] == replay.SAVE_VERSION


def test_simulate_prints_a_summary():
    out = interp("simulate", "games/preferans.yaml", "-n", "30", "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["deals"] == 30
    assert sum(v["count"] for v in summary["stats"]["contract"].values()) == 30
    assert set(summary["mean_per_deal"]) == {"pool", "mountain", "whists"}


def test_bench_reports_every_player_count():
    out = interp("bench", "games/preferans.yaml", "--seconds", "0.2", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    assert [r["players"] for r in rows] == [3, 4]
    assert all(r["playouts_per_second"] > 0 and r["load_validate_compile_ms"] > 0 for r in rows)


def test_validate_a_good_spec():
    out = interp("validate", "games/preferans.yaml")
    assert out.returncode == 0 and out.stdout.startswith("ok")


def test_unknown_option_is_a_clear_error():
    out = interp("simulate", "games/preferans.yaml", "-n", "1", "-o", "pol_target=3")
    assert out.returncode == 2
    assert "unknown option 'pol_target'" in out.stderr and "Traceback" not in out.stderr


def test_ending_by_agreement_settles_with_the_agreed_end_rule(tmp_path):
    """Preferans: stopping early adds each player's missing pool (target − pool) to his mountain first; at the
    first prompt all pools are 0, so every mountain becomes 10 and the settlement is all zeros."""
    save = tmp_path / "end.json"
    out = interp("play", "games/preferans.yaml", "--seed", "5", "--save", str(save), stdin="end\nyes\n")
    assert out.returncode == 0, out.stderr
    assert "ended by agreement" in out.stdout and "The match is over." in out.stdout
    data = json.loads(save.read_text())
    assert data["agreed_end"] is True
    game = load_game("games/preferans.yaml")
    st = replay.replay(game, data["history"], data["players"], data["seed"], data["options"], data["dealer"])
    engine.end_by_agreement(st)
    assert st.sheet["mountain"] == [10, 10, 10] and engine.results(st) == [0, 0, 0]


def test_help_lists_every_command():
    # `interp --help` imports no engine module (it starts fast) and names every command; the arena's "95%" once
    # broke argparse's %-formatting of the help.
    out = interp("--help", timeout=60)
    assert out.returncode == 0, out.stderr
    for command in ("validate", "play", "simulate", "arena", "bench", "score", "rules"):
        assert command in out.stdout
