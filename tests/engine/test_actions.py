"""Moves as integers (interp/engine/actions.py): for every spec and player count, over random deals, the legal-action
mask is exactly the legal moves (or, for moves chosen in several ids, their next steps), ids round-trip, and the
numbering depends on the game alone; worked examples with ids counted by hand."""
from __future__ import annotations

import os
import random
import re

import pytest

from interp.engine import match as engine
from interp.engine.actions import ActionSpace
from interp.engine.state import Move
from interp.spec.compiler import load_game
from tests.conftest import ROOT, SPECS, game_of

CASES = [(path, n) for path in SPECS for n in game_of(path).players]
_recompiled: dict = {}


def recompiled(path: str):
    """Another compile of the same file (not the shared cached Game)."""
    if path not in _recompiled:
        _recompiled[path] = load_game(path)
    return _recompiled[path]


@pytest.mark.parametrize("path,n", CASES)
def test_mask_is_the_legal_moves_over_random_deals(path, n):
    game = game_of(path)
    space = ActionSpace(game, n)
    decisions = 0
    for seed in range(3):
        st = engine.new_match(game, n, seed)
        rng = random.Random(seed)
        while not st.deal_over:
            moves = engine.legal_moves(st)
            mask = space.legal_mask(st)
            ids = [i for i, legal in enumerate(mask) if legal]
            chosen = [space.action_ids(m) for m in moves]
            assert len(mask) == space.num_actions and len(set(chosen)) == len(moves)  # one id sequence per move
            assert sorted({c[0] for c in chosen}) == ids == space.legal_ids(st)
            assert all(space.move_of_ids(c) == m for c, m in zip(chosen, moves))
            assert all(space.move_of(c[0]) == m for c, m in zip(chosen, moves) if len(c) == 1)
            engine.apply(st, _choose_in_steps(space, st, rng))
            decisions += 1
    assert decisions > 0


def _choose_in_steps(space: ActionSpace, st, rng: random.Random):
    """A random legal move, chosen one id at a time as an adapter does: each id among `legal_ids(st, pending)`."""
    pending: tuple = ()
    while True:
        ids = space.legal_ids(st, pending)
        assert ids and len(pending) < space.max_ids
        step = space.choose(st, pending, rng.choice(ids))
        if step.move is not None:
            assert step.move in engine.legal_moves(st) and step.pending == ()
            return step.move
        pending = step.pending


@pytest.mark.parametrize("path,n", CASES)
def test_every_id_round_trips_and_the_numbering_is_the_games_alone(path, n):
    space = ActionSpace(game_of(path), n)
    again = ActionSpace(recompiled(path), n)
    assert space.num_actions == again.num_actions
    assert [b.offset for b in space.blocks] == [sum(b.size for b in space.blocks[:i]) for i in range(len(space.blocks))]
    for action in range(space.num_actions):
        if not space.is_whole(action):  # a step of a move chosen in several ids
            with pytest.raises(ValueError, match="one step of a move"):
                space.move_of(action)
            continue
        move = space.move_of(action)
        assert space.action_id(move) == action and again.move_of(action) == move


def test_preferans_ids_counted_by_hand(preferans):
    # 32 cards; auction: pass, 27 bids, hold at each of the 27; options in phase order: done (discard), play,
    # concede, whist, pass, half, closed, open; choices: the 27 bids (the contract) and the 3 seats (dealer-whist).
    space = ActionSpace(preferans, 3)
    assert [(b.name, b.offset, b.size) for b in space.blocks] == [
        ("card", 0, 32), ("pass", 32, 1), ("bid", 33, 27), ("hold", 60, 27), ("option", 87, 8), ("choice", 95, 30)]
    assert space.num_actions == 125
    assert space.action_id(Move("bid", preferans.bids_by_name["7S"].index)) == 33 + 5  # 6S 6C 6D 6H 6NT 7S
    assert space.action_id(Move("option", "whist")) == 90
    assert space.move_of(124) == Move("choice", 2)  # the third seat
    # The first bidder may pass, bid 6S, or bid misère, 16th on the ladder (after 6S … 8NT, 15 bids).
    st = engine.new_match(preferans, 3, 1)
    assert space.legal_ids(st) == [32, 33, 33 + 15]
    assert space.move_of(48) == Move("bid", preferans.bids_by_name["misere"].index)


def test_a_constant_parameter_list_gives_its_own_values():
    mitten = game_of("games/mitten.yaml")
    # `declare` is `for: ["c in hand[me]", "k in [2, 3, 4]"]`: 52 cards × 3 values, k fastest.
    space = ActionSpace(mitten, 2)
    block = next(b for b in space.blocks if b.name == "action:declare")
    assert block.size == 156
    assert space.move_of(block.offset + 1) == Move("action", ("declare", 0, 3))
    assert space.action_id(Move("action", ("declare", 1, 2))) == block.offset + 3


def test_moves_outside_the_space_are_refused(preferans):
    mitten = game_of("games/mitten.yaml")
    space = ActionSpace(preferans, 3)
    for move in (Move("card", 32), Move("say", 3), Move("option", "slam")):
        with pytest.raises(ValueError, match="outside the action space"):
            space.action_id(move)
    with pytest.raises(ValueError, match="not one of its values"):
        ActionSpace(mitten, 2).action_id(Move("action", ("declare", 0, 5)))
    with pytest.raises(ValueError, match="not in 0 … 124"):
        space.move_of(125)


def test_the_docs_example_runs():
    with open("docs/actions.md", encoding="utf-8") as f:
        block = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "docs/actions.md", "exec"), namespace)
    assert namespace["space"].num_actions == 125 and namespace["ids"] == [32, 33, 48]


def test_scopa_takes_are_chosen_card_by_card():
    """Scopa's `take` carries a set of table cards: its ids are the played card (block action:take, by card
    number), then each card taken (block part:card), then `end`. The deck is numbered suit by suit (D C S B),
    A 2 … 7 J Q K: KC is 19, 7S 26, 3S 22, 3B 32."""
    scopa = game_of("games/scopa.yaml")
    space = ActionSpace(scopa, 2)
    assert [(b.name, b.offset, b.size, b.whole) for b in space.blocks] == [
        ("action:take", 0, 40, False), ("action:lay", 40, 40, True), ("part:card", 80, 40, False),
        ("end", 120, 1, False)]
    assert space.max_ids == 42  # the card played, at most every card of the deck, end
    # Seed 3: the seat to move holds JS AS KC; the table is 3B 3S 7S 6S. KC (10) takes 3B+7S or 3S+7S; JS (8)
    # and AS (1) take nothing and are laid (lay JS: 40 + 27, lay AS: 40 + 20).
    st = engine.new_match(scopa, 2, 3)
    card = scopa.deck.parse
    assert [card(c) for c in ("KC", "7S", "3S", "3B", "JS", "AS")] == [19, 26, 22, 32, 27, 20]
    assert space.legal_ids(st) == [19, 60, 67]
    assert space.legal_ids(st, (19,)) == [80 + 22, 80 + 32]
    assert space.legal_ids(st, (19, 112)) == [80 + 26]
    assert space.legal_ids(st, (19, 112, 106)) == [120]
    take = Move("action", ("take", 19, (32, 26)))
    assert take in engine.legal_moves(st)
    assert space.action_ids(take) == (19, 112, 106, 120) and space.move_of_ids((19, 112, 106, 120)) == take
    assert space.choose(st, (19, 112), 106).pending == (19, 112, 106)
    assert space.choose(st, (19, 112, 106), 120).move == take
    assert space.action_ids(Move("action", ("lay", 27))) == (67,) and space.action_id(Move("action", ("lay", 27))) == 67
    # In words, as the spec shows cards (its suit symbols: coppe ♥, bastoni ♣).
    assert [space.step_text(a) for a in (19, 112, 120)] == ["take K♥ …", "+ 3♣", "end"]
    for ids, problem in (((19, 112), "not closed by `end`"), ((19, 112, 106, 120, 120), "1 ids after the whole"),
                         ((67, 120), "not the ids of one move"), ((112,), "not the ids of one move")):
        with pytest.raises(ValueError, match=problem):
            space.move_of_ids(ids)
    with pytest.raises(ValueError, match="begins no legal move"):
        space.choose(st, (19,), 80 + 27)  # JS is not on the table
    with pytest.raises(ValueError, match="chosen in several ids"):
        space.action_id(take)
    with pytest.raises(ValueError, match="one step of a move"):
        space.move_of(19)


def test_declared_ranges_size_the_number_blocks():
    """Piquet's point is claimed as (cards, pips), declared `max: 8` and `max: 75` (A K Q J 10 9 8 7 of one suit:
    11 + 4 x 10 + 9 + 8 + 7); its sequences go up to 87 (eight to the ace: 8 x 10 + 7); the carte blanche count is
    picked from at most 8 (`max: 8`), beside the 4 suits of the lead. So claim/2 has 9 x 76 = 684 ids (128 x 128 =
    16 384 without the ranges), say and claim/1 88 each, choice 9 + 4 = 13: 32 cards + 9 options + 13 + 88 + 88 +
    684 = 914 ids in all (16 813 before)."""
    space = ActionSpace(game_of("games/piquet.yaml"), 2)
    sizes = {b.name: b.size for b in space.blocks}
    assert sizes == {"card": 32, "option": 9, "choice": 13, "say": 88, "claim/1": 88, "claim/2": 684}
    assert space.num_actions == 914
    assert space.action_id(Move("claim", (8, 75))) == space.num_actions - 1
    with pytest.raises(ValueError, match="not one of its values"):
        space.action_id(Move("claim", (8, 76)))


def test_a_key_above_its_declared_max_stops_the_game_naming_it(tmp_path):
    """A variant that declares the point's pips at most 20 (a real point is more): the first declaration of a point
    stops the game with an error naming the category, step and value, located at the max (line 9)."""
    from interp.errors import SpecRuntimeError
    variant = tmp_path / "low-max.yaml"
    base = os.path.join(ROOT, "games", "piquet.yaml")
    variant.write_text(f"extends: {base}\nname: low max\nphases:\n  - id: declarations\n    categories:\n"
                       "      - id: point\n        steps:\n          - {key: \"len(combo)\", max: 8, say: \"{len(combo)}\"}\n"
                       "          - {key: \"pip(combo)\", max: 20, say: \"{pip(combo)}\"}\n", encoding="utf-8")
    game = load_game(str(variant))
    st = engine.new_match(game, 2, seed=1)
    with pytest.raises(SpecRuntimeError) as caught:
        while not st.deal_over:
            engine.apply(st, engine.legal_moves(st)[0])
    assert re.match(r"\S+low-max\.yaml:9:\d+: category 'point': step 2's key is \d+, outside the declared 0 … 20 \(max\)",
                    str(caught.value))


def test_a_choice_above_its_declared_max_stops_the_game_naming_it(tmp_path):
    """Oh Hell's bid is picked from `range(hand_size + 1)` with `max: 17`; a variant declaring `max: 0` stops at
    the first bid (a hand of one card: a bid of 0 or 1), naming the phase, located at the max."""
    from interp.errors import SpecRuntimeError
    variant = tmp_path / "low-bid.yaml"
    variant.write_text(f"extends: {os.path.join(ROOT, 'games', 'oh-hell.yaml')}\nname: low bid\n"
                       "phases:\n  - id: bidding\n    max: 0\n", encoding="utf-8")
    game = load_game(str(variant))
    with pytest.raises(SpecRuntimeError) as caught:
        engine.legal_moves(engine.new_match(game, 4, seed=1))
    assert re.match(r"\S+low-bid\.yaml:5:\d+: phase 'bidding': a number of its 'from' list is 1, outside the declared "
                    r"0 … 0 \(max\)", str(caught.value))
