"""Bridge at the terminal (games/bridge.yaml): the person bids from a menu of calls, and as declarer sees the
dummy's hand only once the opening lead is made, then plays its cards, asked "for South"."""
from __future__ import annotations

from tests.conftest import screen


def test_the_declarer_plays_the_dummy_shown_after_the_opening_lead(tmp_path):
    _, text, _ = screen("games/bridge.yaml", ["7S"] + ["1"] * 8, tmp_path, n=4, seed=7)
    assert "your call (no bid yet)" in text and "[1] pass" in text and "[36] 7NT" in text
    assert "North wins the auction with 7♠" in text
    lead = text.index("East plays")
    assert "South's hand" not in text[:lead]  # the dummy is face down until the opening lead
    assert "contract 7♠ · declarer North · vulnerable neither side" in text
    assert "South's hand (you play it): ♠" in text[lead:] and "your card (for South)" in text[lead:]
