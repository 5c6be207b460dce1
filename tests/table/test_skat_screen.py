"""Skat at the terminal (games/skat.yaml): the player bid to in a duel is asked to hold or pass, and once the game
is named the status line tells the declarer, the game and the bid; a null game worth less than the bid is not
offered."""
from __future__ import annotations

from tests.conftest import screen


def test_the_player_bid_to_holds_or_passes_and_the_status_names_the_game(tmp_path):
    # seed 1, deal 1: Anna deals, Bernd (the person) is forehand; Clara, middlehand, bids 36 to him
    _, text, _ = screen("games/skat.yaml", ["hold", "skat", "10C", "8C", "spades"], tmp_path, n=3, seed=1, seat=1)
    assert "Clara: 36" in text and "36? (hold or pass)" in text and "moves: [1] pass  [2] hold (36)" in text
    assert "Bernd wins the auction with 36" in text and "lay 2 card(s) in the skat" in text
    assert "[5] grand  [6] null ouvert\n" in text  # null (23) is worth less than the bid: not offered
    assert "declarer Bernd · game ♠ · bid 36" in text and "trick 1 (trumps: ♠): your lead" in text
