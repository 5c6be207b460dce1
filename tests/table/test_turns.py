"""The person's turn at the terminal: a move that is the only legal one plays itself, several cards on one line
are several moves (all or none), and `undo` never takes back a move past cards seen since (dealt, passed, turned
up, or played by another seat)."""
from __future__ import annotations

from interp.engine import match as engine
from tests.table.test_play import screen

HEARTS = "games/hearts.yaml"  # seed 3, 4 players, the person South (seat 0): deal 1 passes left, East to South


def test_the_only_legal_move_is_played_by_itself(tmp_path):
    """Hearts, seed 3: South holds 2♣ and must lead it to trick 1; after the three passes typed, it is played
    with no answer (the input has ended), the screen saying so."""
    match, text, _ = screen(HEARTS, ["4s", "7s", "9s"], tmp_path, n=4, seed=3)
    assert "the only legal move: 2♣ (played)" in text
    assert match.st.history[12] == [1, 0, "2C"]


def test_confirm_forced_asks_for_the_only_legal_move(tmp_path):
    match, text, _ = screen(HEARTS, ["4s", "7s", "9s"], tmp_path, n=4, seed=3, confirm_forced=True)
    assert "moves: [1] 2♣" in text and "the only legal move" not in text
    assert [h for h in match.st.history if h[1] == 0] == [[1, 0, "4S"], [1, 0, "7S"], [1, 0, "9S"]]


def test_the_only_legal_move_waits_the_pause_first(tmp_path):
    waits: list = []
    screen(HEARTS, ["4s 7s 9s"], tmp_path, n=4, seed=3, delay=0.25, wait=lambda s: waits.append(s) or False)
    assert 0.25 in waits


def test_several_cards_on_one_line_are_several_moves_checked_all_before_any(tmp_path):
    """`4s 7s 5h`: South holds 4♠ and 7♠ but not 5♥, so nothing is passed and the line is asked again, the
    reason naming the third card; `4s 7s 9s` then passes the three, in that order."""
    match, text, _ = screen(HEARTS, ["4s 7s 5h", "4s 7s 9s"], tmp_path, n=4, seed=3)
    assert "Not legal: '5h' (the 3rd card of the line): you do not hold 5♥; nothing was played." in text
    assert text.index("nothing was played") < text.index("South passes 4♠")
    assert [h for h in match.st.history if h[1] == 0][:3] == [[1, 0, "4S"], [1, 0, "7S"], [1, 0, "9S"]]


def test_undo_is_refused_after_cards_seen_since_the_move(tmp_path):
    """After South's passes (4♠ 7♠ 9♠) East passes it K♥ J♥ A♣; 2♣ is then forced. `undo` at trick 2 would take
    back the last choice, the pass of 9♠ (the forced 2♣ with it), and let South pass again knowing what comes
    and what the others hold: refused, naming the cards; nothing is taken back."""
    match, text, _ = screen(HEARTS, ["4s 7s 9s", "undo"], tmp_path, n=4, seed=3)
    assert "Your 9♠ cannot be taken back: since it you have seen K♥ J♥ J♦ 9♦ 3♦ A♣ J♣ 10♣ 9♣, which you did " \
           "not know when you chose it." in text  # the three passed to South, and trick 1's cards of the others
    assert not match.undone and len(match.st.history) == 19 and engine.to_move(match.st) == 0


def test_undo_after_another_seat_played_a_card_since_is_refused(tmp_path):
    """The tiny trick game, seed 0: the person (North) plays 10♦ and South then leads A♥, a card North had not
    seen: taking 10♦ back would let North play again knowing a card of South's hand."""
    match, text, _ = screen("docs/examples/tiny.yaml", ["1", "undo"], tmp_path, seed=0)
    assert "Your 10♦ cannot be taken back: since it you have seen A♥, which you did not know when you chose it." \
        in text
    assert not match.undone


def test_undo_with_nothing_seen_since_takes_back(tmp_path):
    """Seed 1: North wins trick 3 with A♣ and is to lead; no card was seen since, so `undo` takes A♣ back."""
    match, text, _ = screen("docs/examples/tiny.yaml", ["1", "1", "undo"], tmp_path, seed=1)
    assert "Taken back: your A♣." in text and match.undone


def test_undo_after_forced_moves_only_has_nothing_to_take_back(tmp_path):
    """The tiny game, seed 1: the person's first card was the only legal one (played by itself); at the next
    prompt `undo` finds no choice of theirs to take back (taking the forced card back would only replay it)."""
    match, text, _ = screen("docs/examples/tiny.yaml", ["undo"], tmp_path, seed=1)
    assert "the only legal move:" in text
    assert "Nothing to take back: each of your moves in this deal was the only legal one." in text
    assert not match.undone
