"""The terminal match screen for every spec and player count: a person typing the first listed move (and
sometimes a mistake) plays on without a crash, every screen renders, and the end of input saves the game."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from interpreter import engine, replay
from interpreter.play import TerminalMatch

from .conftest import SPECS, game_of

CASES = [(path, n) for path in SPECS for n in game_of(path).players]


@pytest.mark.parametrize("path,n", CASES)
def test_a_person_can_play_every_game(path, n, tmp_path):
    game = game_of(path)
    answers = iter(["nonsense", "help", "sheet"] + ["1"] * 100)

    def read(prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    console = Console(file=io.StringIO(), width=140)
    st = engine.new_match(game, n, 7)
    save = str(tmp_path / "s.json")
    code = TerminalMatch(game, st, 0, "heuristic", save, console, read=read).run()
    text = console.file.getvalue()
    assert code == 0, text[-2000:]
    assert "Not legal" in text and "Type a move as listed" in text
    assert "Input ended" in text or "The match is over." in text
    data = replay.load(save)
    again = replay.replay(game, data["history"], data["players"], data["seed"], data["options"], data["dealer"],
                          data["deal_no"])
    assert again.to_json() == st.to_json()
