"""The terminal match screen for every spec and player count: a person typing the first listed move (and
sometimes a mistake) plays on without a crash, every screen renders, and the end of input saves the game."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from interp.engine import match as engine
from interp.runs import replay
from interp.table.play import TerminalMatch
from tests.conftest import SPECS, feed, game_of

CASES = [(path, n) for path in SPECS for n in game_of(path).players]


@pytest.mark.parametrize("path,n", CASES)
def test_a_person_can_play_every_game(path, n, tmp_path):
    """Typing moves and every command of the table (`hint` with a small search budget), with an `undo` after a few
    moves: the screen answers each (the undo done, or refused after new cards were seen), and the save replays to
    the position on the screen, its undo recorded."""
    game = game_of(path)
    commands = ["nonsense", "help", "sheet", "last", "played", "rules", "hint", "[red]x[/red]", "end", "no"]
    read = feed(*commands, *["1"] * 6, "undo", "last", "played", *["1"] * 100)
    console = Console(file=io.StringIO(), width=140)
    st = engine.new_match(game, n, 7)
    save = str(tmp_path / "s.json")
    match = TerminalMatch(game, st, 0, "heuristic", save, console, read=read, hint_budget=150)
    code = match.run()
    text = console.file.getvalue()
    assert code == 0, text[-2000:]
    assert "Not legal" in text and "Type a move as listed" in text
    assert "A deal, in order:" in text and "hint: " in text and "The match goes on." in text
    assert "Input ended" in text or "The match is over." in text
    data = replay.load(save)
    again = replay.replay(game, data["history"], data["players"], data["seed"], data["options"], data["dealer"],
                          data["deal_no"])
    assert again.to_json() == match.st.to_json()
    if "Taken back: your" in text:
        assert data["undone"] and data["undone"][0][1] == 0  # the first entry taken back is the person's own
    elif "cannot be taken back: since it you have seen" in text:  # new cards seen since (a deal from the stock)
        assert "undone" not in data
    else:
        assert "Nothing to take back" in text and "undone" not in data
