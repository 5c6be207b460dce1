"""General mechanisms on small specs (variants of docs/examples/tiny.yaml): redeal(), match.end_now,
show_to(), private vars in views, the on_trick locals, and goto loops."""
from __future__ import annotations

import os
import random

import pytest

from interp.engine import match as engine
from interp.spec.compiler import load_game

TINY = os.path.abspath("docs/examples/tiny.yaml") if os.path.exists("docs/examples/tiny.yaml") else None


def variant(tmp_path, text: str):
    path = tmp_path / "v.yaml"
    path.write_text(f"extends: {os.path.abspath('docs/examples/tiny.yaml')}\nname: v\n" + text)
    return load_game(str(path))


def play_out(st, seed=0):
    rng = random.Random(seed)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))


def test_redeal_abandons_the_deal_unscored_and_passes_the_deal(tmp_path):
    game = variant(tmp_path, """
phases:
  - id: count
    do: "if deal_no == 1: redeal(); for s in seats: taken[s] = sum(points(c) for c in won[s])"
""")
    st = engine.new_match(game, 2, 1)
    play_out(st)
    assert st.deals[-1]["redeal"] is True and st.deals[-1]["entries"] == {}
    assert st.sheet["score"] == [0, 0]
    engine.next_deal(st)
    assert st.deal_no == 2 and st.dealer == 1
    play_out(st)
    assert "redeal" not in st.deals[-1] and sum(st.sheet["score"]) == 120


def test_end_now_ends_the_match_before_the_next_phase(tmp_path):
    game = variant(tmp_path, """
vars:
  early: {type: bool, scope: match}
phases:
  - id: count
    do: "early = true; for s in seats: taken[s] = sum(points(c) for c in won[s])"
match:
  end_now: "deal_no == 2 and early"
""")
    st = engine.new_match(game, 2, 3)
    play_out(st)
    assert not st.match_over
    engine.next_deal(st)  # deal 2: before its first phase the condition holds
    assert st.match_over and st.deal_no == 2 and st.deal_over
    assert all(len(z) == 0 for z in st.zones)  # nothing was dealt


def test_show_to_lets_one_seat_see_a_zone_and_private_vars_stay_private(tmp_path):
    game = variant(tmp_path, """
vars:
  secret: {type: int, per_seat: true, visible: owner}
  hidden: {type: int, visible: none}
phases:
  - id: peek
    type: effects
    do: ["show_to(hand[seats[0]], seats[1])", "secret[seats[0]] = 7", "hidden = 3"]
  - id: play
""")
    st = engine.new_match(game, 2, 0)
    hand0 = game.zone_id("hand", 0, 2)
    play_out(st)  # `peek` is a new id, so it runs after the base phases; its effects last until the next deal
    assert (hand0, 1) in st.shown
    view1, view0 = st.view(1), st.view(0)
    assert view1.vars["secret"] == [0, 0] and view0.vars["secret"] == [7, 0]
    assert view0.vars["hidden"] == 0 and st.vars["hidden"] == 3


def test_on_trick_sees_the_cards_players_leader_and_last(tmp_path):
    game = variant(tmp_path, """
vars:
  leads: {type: int, per_seat: true}
  lasts: {type: int}
  seen: {type: int}
phases:
  - id: play
    on_trick: ["leads[leader] += 1", "seen += len(cards) + len(players)", "if last: lasts += 1"]
""")
    st = engine.new_match(game, 2, 5)
    play_out(st)
    assert sum(st.vars["leads"]) == 12 and st.vars["seen"] == 12 * 4 and st.vars["lasts"] == 1


def test_goto_loops_back_until_its_condition_fails(tmp_path):
    game = variant(tmp_path, """
vars:
  rounds: {type: int}
phases:
  - id: count
    do: "rounds += 1"
    goto: {phase: count, when: "rounds < 3"}
""")
    st = engine.new_match(game, 2, 0)
    play_out(st)
    assert st.vars["rounds"] == 3


def test_a_goto_loop_without_decisions_is_caught(tmp_path):
    game = variant(tmp_path, """
phases:
  - id: count
    goto: {phase: count, when: "true"}
""")
    from interp.errors import InterpError
    with pytest.raises(InterpError, match="in a row without a decision"):
        st = engine.new_match(game, 2, 0)
        play_out(st)
