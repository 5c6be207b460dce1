"""The engine's fast paths do what the plain ones did: `apply(check=True)` looks a move up among those listed
(the very object, else an equal one) and is not fooled by a caller changing the list it was given; the move log
writes a card by its code without asking the phase when the phase's notation is the base one; phases whose
`when` fails are skipped back to back, counted one step each."""
from __future__ import annotations

import os
import random

import pytest

from interp.engine import match as engine
from interp.spec.compiler import load_game
from interp.errors import IllegalMoveError, InterpError
from interp.engine.state import Move, State

TINY = os.path.abspath("docs/examples/tiny.yaml")


def tiny_with(tmp_path, phases: str, before: str = "  - id: count\n"):
    """docs/examples/tiny.yaml with `phases` (YAML list items) put in before the line `before`."""
    text = open(TINY, encoding="utf-8").read().replace(before, phases + before)
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


def test_check_looks_up_equal_moves_and_ignores_a_changed_list():
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 4)
    listed = engine.legal_moves(st)
    assert [m.kind for m in listed] == ["pass", "bid", "bid"]
    illegal = Move("bid", listed[-1].value + 5)
    listed.append(illegal)  # the caller's list, changed: the engine kept its own
    listed[0] = illegal
    with pytest.raises(IllegalMoveError):
        engine.apply(st, illegal)
    engine.apply(st, Move("pass", None))  # equal to the listed pass, not the same object
    assert st.history[-1][2] == "pass" and len(st.history) == 1


@pytest.mark.parametrize("path", ["games/preferans.yaml", "games/tarot.yaml", "games/piquet.yaml",
                                  "games/mitten.yaml", "games/hearts.yaml", "games/belote.yaml"])
def test_the_move_log_writes_each_move_as_its_phase_names_it(path):
    game = load_game(path)
    rng = random.Random(5)
    for seed in range(2):
        st = engine.new_match(game, seed=seed)
        while not st.deal_over:
            move = rng.choice(engine.legal_moves(st))
            seat, text = engine.actor(st), engine.notation(st, move)
            engine.apply(st, move)
            assert st.history[-1] == [st.deal_no, seat, text]


def test_phases_whose_when_fails_are_skipped_and_the_rest_run_in_order(tmp_path):
    """After the deal's `count`: `a` and `b` fail (skipped back to back), `c` has no `when` and runs, `d` fails,
    `e` holds (it reads what `c` did); `f` and `g`, the last phases, fail: the deal ends after them."""
    game = tiny_with(tmp_path, """
  - {id: a, type: effects, when: "false", do: "taken[seats[0]] += 1"}
  - {id: b, type: effects, when: "n_players == 3", do: "taken[seats[0]] += 10"}
  - {id: c, type: effects, do: "taken[seats[0]] = 100"}
  - {id: d, type: effects, when: "taken[seats[0]] != 100", do: "taken[seats[0]] += 1"}
  - {id: e, type: effects, when: "taken[seats[0]] == 100", do: "taken[seats[1]] = 7"}
  - {id: f, type: effects, when: "false", do: "taken[seats[0]] += 1"}
  - {id: g, type: effects, when: "taken[seats[1]] == 0", do: "taken[seats[0]] += 1"}
""", before="\nfacts:")
    assert [p.id for p in game.phases][-8:] == ["count", "a", "b", "c", "d", "e", "f", "g"]
    st = engine.new_match(game, 2, 1)
    rng = random.Random(2)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert st.vars["taken"] == [100, 7] and st.phase == len(game.phases)
    assert st.deals[-1]["entries"] == {"score": {0: 100, 1: 7}}


def test_skipped_phases_count_toward_the_limit_of_steps_without_a_decision(tmp_path):
    """A `goto` loop through a skipped phase is caught as before, at the same phase (10,000 steps: the skipped
    phase and the looping one count one each)."""
    game = tiny_with(tmp_path, """
  - {id: skipped, type: effects, when: "false", do: "taken[seats[0]] = 1"}
  - id: spin
    type: effects
    do: "taken[seats[1]] = 1"
    goto: {phase: skipped, when: "true"}
""")
    runs_away_at(game, "skipped")


def runs_away_at(game, phase_id: str):
    """Play `game` (2 players, seed 0) until its phases run on without a decision; the error must name `phase_id`.
    The state, stopped there."""
    st = engine.new_match(game, 2, 0)
    rng = random.Random(0)
    with pytest.raises(InterpError, match=f"10,000 times in a row without a decision \\(at phase '{phase_id}'\\)"):
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
    return st


def test_a_copy_sets_every_field_and_shares_nothing_play_changes():
    """State.copy names its fields one by one (faster than a loop over them): a field added to State and
    forgotten there is caught here, as is a list, dict or set shared with the original."""
    game = load_game("games/tarot.yaml")
    st = engine.new_match(game, 4, 2)
    rng = random.Random(3)
    for _ in range(9):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    other = st.copy()
    for name in State.__slots__:
        mine, theirs = getattr(st, name), getattr(other, name)
        if name in ("loc", "legal", "unsettled"):
            continue  # started afresh in a copy
        assert mine == theirs, name
        if isinstance(mine, (list, dict, set)) and name not in ("options", "zone_ids"):  # never changed
            assert mine is not theirs or not mine, name
    assert all(a is not b for a, b in zip(st.zones, other.zones))
    assert all(st.vars[k] is not v for k, v in other.vars.items() if isinstance(v, list))
    assert all(st.ph[k] is not v for k, v in other.ph.items() if isinstance(v, list))
