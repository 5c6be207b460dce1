"""Bridge at the terminal (games/bridge.yaml): the person bids from a menu of calls, and as declarer sees the
dummy's hand only once the opening lead is made, then plays its cards, asked "for South"."""
from __future__ import annotations

import io

from rich.console import Console

from interp.engine import match as engine
from interp.table.play import TerminalMatch
from tests.conftest import game_of


def test_the_declarer_plays_the_dummy_shown_after_the_opening_lead(tmp_path):
    game = game_of("games/bridge.yaml")
    answers = iter(["7S"] + ["1"] * 8)

    def read(_prompt):
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None
    console = Console(file=io.StringIO(), width=160)
    TerminalMatch(game, engine.new_match(game, 4, 7), 0, "heuristic", str(tmp_path / "s.json"), console,
                  read=read).run()
    text = console.file.getvalue()
    assert "your call (no bid yet)" in text and "[1] pass" in text and "[36] 7NT" in text
    assert "North wins the auction with 7♠" in text
    lead = text.index("East plays")
    assert "South's hand" not in text[:lead]  # the dummy is face down until the opening lead
    assert "contract 7♠ · declarer North · vulnerable neither side" in text
    assert "South's hand (you play it): ♠" in text[lead:] and "your card (for South)" in text[lead:]
