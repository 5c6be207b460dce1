"""Plug-in agents: `--agents module:Class` and `--bots module:Class` play in `arena`, `simulate` and `play`; the
example agent of docs/bots.md ("Writing an agent") runs as written; a mistake is one line and exit 2; a save file
that names a plug-in never makes interp import it."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest

from interp.bots.registry import make_agent
from interp.cli import main
from interp.engine import match as engine
from interp.runs import replay
from tests.conftest import ROOT, game_of

TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


def docs_agent() -> str:
    """The module of docs/bots.md's "Writing an agent", as the reader would save it."""
    with open(os.path.join(ROOT, "docs", "bots.md"), encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("## Writing an agent"):]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


@pytest.fixture
def mybots(tmp_path, monkeypatch):
    """docs/bots.md's mybots.py in a folder of its own, importable (the folder is the current one)."""
    (tmp_path / "mybots.py").write_text(docs_agent(), encoding="utf-8")
    (tmp_path / "notbots.py").write_text("class Plain:\n    pass\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("mybots", "notbots"):
        sys.modules.pop(name, None)


def test_the_docs_agent_plays_its_lowest_card(mybots):
    """Tiny, seed 3: South leads, holding 9♠ J♠ 10♠ A♠ J♥ Q♥ K♥ 10♥ 9♦ J♦ Q♦ K♦; the docs' agent leads a card of
    the lowest rank, a nine — 9♠, the first of the two in the legal moves."""
    game = game_of(TINY)
    st = engine.new_match(game, 2, seed=3)
    seat = engine.to_move(st)
    agent = make_agent("mybots:LowestCard", seed=1)
    move = agent.choose(st.view(seat), engine.legal_moves(st))
    assert seat == 1 and game.deck.pretty(move.value) == "9♠"


def test_arena_with_a_plugin_from_the_current_folder(mybots):
    """The `interp` command (whose own folder is not the current one) finds mybots.py in the current folder."""
    command = os.path.join(os.path.dirname(sys.executable), "interp")
    out = subprocess.run([command, "arena", TINY, "--agents", "mybots:LowestCard,heuristic", "-n", "3", "--json",
                          "--jobs", "1"], capture_output=True, text=True, cwd=mybots, timeout=120)
    assert out.returncode == 0, out.stderr
    agents = json.loads(out.stdout)["agents"]
    assert sorted(agents) == ["heuristic", "mybots:LowestCard"] and agents["mybots:LowestCard"]["deals"] == 3


def test_simulate_with_a_plugin_records_it_and_is_the_same_on_two_processes(mybots, capsys):
    runs = []
    for jobs in ("1", "2"):
        path = mybots / f"out{jobs}.jsonl"
        assert main(["simulate", TINY, "--bots", "mybots:LowestCard,random", "-n", "4", "--jobs", jobs,
                     "--out", str(path), "--json"]) == 0
        runs.append([json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()])
    capsys.readouterr()
    assert runs[0] == runs[1] and len(runs[0]) == 4
    assert runs[0][0]["agents"] == {"North": "mybots:LowestCard", "South": "random"}


@pytest.mark.parametrize("command", [["arena", TINY, "--agents", "{agent},random", "-n", "2"],
                                     ["simulate", TINY, "--bots", "{agent}", "-n", "2"],
                                     ["play", TINY, "--bots", "{agent}"]])
@pytest.mark.parametrize("agent,message", [
    ("nosuchmodule:Bot", "error: nosuchmodule:Bot: no module named 'nosuchmodule' (is it on the Python path?)"),
    ("mybots:Lowest", "error: mybots:Lowest: module mybots has no 'Lowest'"),
    ("notbots:Plain", "error: notbots:Plain is not an agent: it has no choose(view, moves) method")])
def test_a_bad_plugin_is_one_line_and_exit_2(mybots, capsys, monkeypatch, command, agent, message):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main([word.format(agent=agent) for word in command]) == 2
    out = capsys.readouterr()
    assert out.err.strip() == message and out.out == ""
    assert not (mybots / "saves").exists()


def test_a_save_naming_a_plugin_is_not_imported_on_its_word(mybots, capsys, monkeypatch):
    """A save whose `bots` names a plug-in: resuming without --bots is refused in one line and the module is never
    imported (it would leave a file if it were); with --bots on the command line the match goes on."""
    (mybots / "tripwire.py").write_text("open('imported', 'w').close()\nclass Bot:\n    def choose(self, v, m):\n"
                                        "        return m[0]\n", encoding="utf-8")
    game = game_of(TINY)
    st = engine.new_match(game, 2, seed=4)
    save = mybots / "save.json"
    save.write_text(json.dumps(replay.record(st, human=0, bots="tripwire:Bot", agreed_end=False)), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--resume", str(save)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the save names the plug-in agent tripwire:Bot") and "--bots" in err
    assert err.count("\n") == 1
    assert not (mybots / "imported").exists() and "tripwire" not in sys.modules
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--resume", str(save), "--bots", "mybots:LowestCard"]) == 0
    capsys.readouterr()
    assert not (mybots / "imported").exists()
