"""Moves as integers (interpreter/actions.py): for every spec and player count, over random deals, the legal-action
mask is exactly the legal moves, ids round-trip, and the numbering depends on the game alone; a worked example
with ids counted by hand."""
from __future__ import annotations

import random
import re

import pytest

from interpreter import dsltypes as T
from interpreter import engine
from interpreter.actions import ActionSpace
from interpreter.compiler import load_game
from interpreter.state import Move

from .conftest import SPECS, game_of



def numbered(path: str) -> bool:
    """Whether the game's moves can be numbered: no `turns` action takes a list (a set of cards) as parameter."""
    return not any(T.is_list(type_) for p in game_of(path).phases if p.type_name == "turns"
                   for a in p.actions for _, _, type_ in a.params)


CASES = [(path, n) for path in SPECS if numbered(path) for n in game_of(path).players]
UNNUMBERED = [path for path in SPECS if not numbered(path)]
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
            assert len(mask) == space.num_actions and len(ids) == len(moves)
            assert sorted(map(space.action_id, moves)) == ids == space.legal_ids(st)
            assert all(space.move_of(space.action_id(m)) == m for m in moves)
            engine.apply(st, space.move_of(rng.choice(ids)))
            decisions += 1
    assert decisions > 0


@pytest.mark.parametrize("path,n", CASES)
def test_every_id_round_trips_and_the_numbering_is_the_games_alone(path, n):
    space = ActionSpace(game_of(path), n)
    again = ActionSpace(recompiled(path), n)
    assert space.num_actions == again.num_actions
    assert [b.offset for b in space.blocks] == [sum(b.size for b in space.blocks[:i]) for i in range(len(space.blocks))]
    for action in range(space.num_actions):
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


@pytest.mark.parametrize("path", UNNUMBERED)
def test_a_game_with_card_set_parameters_says_it_has_no_dense_action_space(path):
    with pytest.raises(ValueError, match=r"cannot be numbered densely"):
        ActionSpace(game_of(path), game_of(path).players[0])
