"""The general forms of the auction phase (docs/spec-language.md, `auction`): open passes ending after k passes
in a row, double and redouble by team, and duels. Each is checked on worked call sequences, and at every step of
seeded random auctions against the rules written out plainly below (what may be called, who speaks next, when it
ends, and what `won` sees)."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.engine.phases.auction import DOUBLE, PASS, REDOUBLE
from interp.engine.state import Move
from interp.engine.wording import parse_move
from interp.errors import SpecError
from interp.spec.compiler import load_game

# Four players (partners 0 & 2, 1 & 3) bid on a ladder of six rungs; `won` copies what it sees into vars.
SPEC = """
name: Forms test
players: {default: 4, allowed: [3, 4]}
deck:
  suits: [{code: S}, {code: H}]
  ranks: ["1", "2", "3", "4", "5", "6"]
zones:
  hand: {per_seat: true, visible: owner}
  stock: {visible: none}
vars:
  taker: {type: seat}
  contract: {type: bid}
  doubling: {type: int}
  made: {type: "list[bid]"}
  makers: {type: "list[seat]"}
  nobody: {type: bool}
bids:
  fields: {level: int}
  ladder:
    - each: {level: [1, 2, 3, 4, 5, 6]}
define:
  side(s): "if s == seats[0] or s == seats[2] then seats[0] else seats[1]"
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 1, repeat: 2}], rest: stock}
  - id: auction
    type: auction
AUCTION
    won: "taker = winner; contract = high; doubling = doubled; made = calls; makers = callers"
    all_pass: "nobody = true"
scoring: []
"""

FORMS = {
    "open": "    jumps: true\n    passes: open",
    "open-two": "    jumps: true\n    passes: open\n    closing_passes: 2",
    "doubles": "    jumps: true\n    passes: open\n    doubles: true\n    team: \"side(me)\"",
    "duels": "    jumps: true\n    order: duels",
    "duels-steps": "    order: duels",
}


def forms_game(tmp_path, form: str):
    path = tmp_path / f"{form}.yaml"
    path.write_text(SPEC.replace("AUCTION", FORMS[form]), encoding="utf-8")
    return load_game(str(path))


def auction_of(game, players: int = 4, seed: int = 1):
    st = engine.new_match(game, players, seed)
    assert engine.current_phase(st).id == "auction"
    return st


def say(st, *calls: str) -> None:
    for call in calls:
        engine.apply(st, parse_move(st, call))


def var(st, name: str):
    return st.vars[name]


# -- worked sequences ---------------------------------------------------------------------------------------------
def test_a_pass_is_not_final_and_three_passes_after_a_bid_end_the_auction(tmp_path):
    st = auction_of(forms_game(tmp_path, "open"))
    first = engine.to_move(st)
    say(st, "pass", "2", "pass", "pass")  # the first to pass may still bid: he speaks again after two passes
    assert engine.to_move(st) == first and Move("bid", 2) in engine.legal_moves(st)
    say(st, "3", "pass", "pass")
    assert engine.current_phase(st).id == "auction"  # two passes in a row: not yet
    say(st, "pass")
    assert var(st, "taker") == first and var(st, "contract").name == "3"
    assert [b.name for b in var(st, "made")] == ["2", "3"] and var(st, "makers")[1] == first


def test_four_passes_with_no_bid_pass_the_deal_out_and_closing_passes_change_the_count(tmp_path):
    st = auction_of(forms_game(tmp_path, "open"))
    say(st, "pass", "pass", "pass")
    assert not st.deal_over and engine.legal_moves(st)[0] == PASS  # the fourth may still open
    say(st, "pass")
    assert var(st, "nobody") is True
    st = auction_of(forms_game(tmp_path, "open-two"))
    say(st, "1", "pass", "pass")  # two passes in a row close it
    assert var(st, "contract").name == "1"


def test_double_an_opponents_bid_redouble_your_sides_and_a_new_bid_clears_both(tmp_path):
    st = auction_of(forms_game(tmp_path, "doubles"))
    opener = engine.to_move(st)
    assert DOUBLE not in engine.legal_moves(st)  # nothing to double yet
    say(st, "2")
    assert engine.legal_moves(st)[:2] == [PASS, DOUBLE]  # the next is an opponent
    say(st, "double")
    assert engine.legal_moves(st)[:2] == [PASS, REDOUBLE]  # the opener's partner
    say(st, "pass")
    assert DOUBLE not in engine.legal_moves(st) and REDOUBLE not in engine.legal_moves(st)  # the doubler's partner
    say(st, "pass", "xx", "pass", "pass")
    assert engine.current_phase(st).id == "auction" and REDOUBLE not in engine.legal_moves(st)
    say(st, "3")  # a new bid (by the doubler's partner) clears the double and the redouble
    assert engine.legal_moves(st)[:2] == [PASS, DOUBLE]
    say(st, "pass", "pass", "pass")
    assert var(st, "doubling") == 0 and var(st, "contract").name == "3" and var(st, "taker") != opener
    st = auction_of(forms_game(tmp_path, "doubles"))
    say(st, "2", "x", "xx", "pass", "pass", "pass")
    assert var(st, "doubling") == 2 and var(st, "taker") == opener
    assert any(e.kind == "auction" and e.value == [1, 2] for e in st.events)


def test_in_duels_the_challenger_bids_the_answerer_holds_or_passes_and_the_next_challenges_the_survivor(tmp_path):
    game = forms_game(tmp_path, "duels")
    st = auction_of(game, players=3)
    order = list(st.ph.order)  # forehand, middlehand, rearhand
    assert engine.to_move(st) == order[1]  # middlehand bids to forehand
    say(st, "2")
    assert engine.to_move(st) == order[0] and engine.legal_moves(st) == [PASS, Move("hold", 1)]
    say(st, "hold")
    assert engine.to_move(st) == order[1] and Move("hold", 1) not in engine.legal_moves(st)
    say(st, "3", "pass")  # forehand passes: middlehand survives, rearhand bids to him
    assert engine.to_move(st) == order[2] and engine.legal_moves(st)[1] == Move("bid", 3)  # above the 3 standing
    say(st, "5", "hold", "pass")
    assert var(st, "taker") == order[1] and var(st, "contract").name == "5"
    assert [b.name for b in var(st, "made")] == ["2", "3", "5"] and var(st, "makers") == [order[1]] * 2 + [order[2]]


def test_in_duels_when_nobody_bids_the_last_survivor_may_still_open(tmp_path):
    game = forms_game(tmp_path, "duels-steps")
    st = auction_of(game, players=3)
    order = list(st.ph.order)
    say(st, "pass", "pass")  # middlehand, then rearhand, pass to forehand
    assert engine.to_move(st) == order[0] and engine.legal_moves(st) == [PASS, Move("bid", 0)]  # no jumps
    say(st, "1")
    assert var(st, "taker") == order[0] and var(st, "contract").name == "1"
    st = auction_of(game, players=3)
    say(st, "pass", "pass", "pass")
    assert var(st, "nobody") is True


def test_duels_over_four_bidders_go_on_to_the_fourth(tmp_path):
    st = auction_of(forms_game(tmp_path, "duels"), players=4)
    order = list(st.ph.order)
    say(st, "1", "pass", "2", "pass")  # the second beats the first, the third beats the second
    assert engine.to_move(st) == order[3]
    say(st, "3", "hold", "pass")  # the fourth bids to the third, who holds; the fourth passes
    assert var(st, "taker") == order[2] and var(st, "contract").name == "3"


# -- random auctions against the rules ------------------------------------------------------------------------------
def plain_legal(ph: dict, form: str, n_bids: int) -> list:
    """The calls the docs allow the bidder to speak, from the progress as a dict."""
    i, high, order = ph["turn"], ph["high"], ph["order"]
    if form.startswith("duels") and i == ph["survivor"] and ph["challenger"] < len(order):
        return [PASS, Move("hold", high)]
    moves = [PASS]
    if "doubles" in form and high >= 0:
        own = ph["sides"][i] == ph["sides"][order.index(ph["high_by"])]
        if ph["doubled"] == 0 and not own:
            moves.append(DOUBLE)
        elif ph["doubled"] == 1 and own:
            moves.append(REDOUBLE)
    jumps = form != "duels-steps"
    return moves + [Move("bid", b) for b in range(high + 1, n_bids) if jumps or b == high + 1]


def plain_after(ph: dict, form: str, move: Move, players: int) -> int | None:
    """Who speaks after `move` by the bidder at ph["turn"] (ph as before the move), or None when it is over."""
    i, n = ph["turn"], players
    if form.startswith("duels"):
        if ph["challenger"] >= n:
            return None
        if move != PASS:
            return ph["survivor"] if i == ph["challenger"] else ph["challenger"]
        survivor = ph["challenger"] if i == ph["survivor"] else ph["survivor"]
        challenger = ph["challenger"] + 1
        if challenger < n:
            return challenger
        return None if ph["high"] >= 0 else survivor
    run = ph["run"] + 1 if move == PASS else 0
    closing = 2 if form == "open-two" else n - 1
    high = ph["high"] if move.kind != "bid" else move.value
    if run >= (n if high < 0 else closing):
        return None
    return (i + 1) % n


@pytest.mark.parametrize("form", ["open", "open-two", "doubles", "duels", "duels-steps"])
@pytest.mark.parametrize("players", [3, 4])
def test_random_auctions_offer_and_end_as_the_rules_say(tmp_path, form, players):
    game = forms_game(tmp_path, form)
    kinds = set()
    for seed in range(40):
        rng = random.Random(seed)
        st = auction_of(game, players, seed)
        while True:
            ph = {k: (list(v) if isinstance(v, list) else v) for k, v in st.ph.items()}
            moves = engine.legal_moves(st)
            assert moves == plain_legal(ph, form, len(game.bids)), (form, seed, ph)
            move = moves[0] if rng.random() < 0.45 else rng.choice(moves)
            kinds.add(move.kind)
            engine.apply(st, move)
            expected = plain_after(ph, form, move, players)
            if expected is None:
                assert engine.current_phase(st) is None or engine.current_phase(st).id != "auction"
                break
            assert st.ph.turn == expected, (form, seed, ph, move)
    assert {"pass", "bid"} <= kinds and ("double" in kinds) == (form == "doubles")


# -- what goes together -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("keys,message", [
    ("    order: duels\n    passes: open", "order: duels has its own turns"),
    ("    closing_passes: 2", "closing_passes needs passes: open"),
    ("    doubles: true", "doubles need a team"),
])
def test_keys_that_do_not_go_together_are_refused_in_one_located_line(tmp_path, keys, message):
    path = tmp_path / "bad.yaml"
    path.write_text(SPEC.replace("AUCTION", keys), encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_game(str(path))
    assert message in str(info.value) and "bad.yaml:" in str(info.value)


def test_the_prompt_tells_the_standing_bid_its_double_and_an_answer_in_duels(tmp_path):
    st = auction_of(forms_game(tmp_path, "doubles"))
    say(st, "2", "double")
    assert engine.current_phase(st).prompt(st) == "your call (standing bid 2 doubled)"
    st = auction_of(forms_game(tmp_path, "duels"), players=3)
    say(st, "2")
    assert engine.current_phase(st).prompt(st) == "2? (hold or pass)"
    st = auction_of(forms_game(tmp_path, "open"))
    say(st, "2")
    assert engine.current_phase(st).prompt(st) == "your call (standing bid 2)"
