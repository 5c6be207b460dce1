"""The per-move fast paths keep every behaviour of the plain ones.

A tricks phase keeps its progress in a slotted record (`TrickProgress`) instead of a dict: to saves, the position
digest, copies, views and bots it must read exactly as the dict did (the same keys in the same order, the same
values), and a state read back from JSON must play on as the live one. The engine keeps the moves it listed until
the position changes (`apply` and `advance` forget them): a move listed before must not pass the check after."""
from __future__ import annotations

import json
import random

import pytest

from interp.engine import match as engine
from interp.runs import replay
from interp.spec.compiler import load_game
from interp.errors import IllegalMoveError
from interp.engine.phases.progress import Progress
from interp.engine.phases.tricks import TrickProgress
from interp.engine.state import Move, state_from_json
from tests.conftest import game_of

# the dict a tricks phase kept in `state.ph` before the record, its keys in the order it wrote them
DICT_KEYS = ["players", "leader", "trick", "by", "turn", "order", "no", "trump", "first", "over", "total", "escape",
             "said", "strength", "points"]
GAMES = [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4), ("games/tarot.yaml", 4),
         ("games/oh-hell.yaml", 4), ("games/hearts.yaml", 4), ("games/belote.yaml", 4)]


def decisions(game, players: int, seed: int):
    """Each state at which a seat decides, in a seeded random deal (the same state object, moved on)."""
    st = engine.new_match(game, players, seed)
    rng = random.Random(seed)
    while not st.deal_over:
        yield st
        engine.apply(st, rng.choice(engine.legal_moves(st)))


def trick_decisions(game, players: int, seeds: int):
    """The decisions of `decisions` in a tricks phase, over deals seeded 0 .. seeds - 1 (every other phase keeps
    its dict, or a record of its own: see tests/test_bid_speed_progress.py)."""
    for seed in range(seeds):
        for st in decisions(game, players, seed):
            if isinstance(st.ph, TrickProgress):
                yield st
            else:
                assert type(st.ph) is dict or isinstance(st.ph, Progress)


def reads_as_dict(game, st, keys: list, record: type, move: Move) -> dict:
    """Check that `st.ph`, a phase's progress `record`, reads as the dict of `keys` it replaces (returned): as a
    dict, in the JSON of the state holding that dict, in a copy (equal, sharing no list), and in the state read
    back from JSON (a record again, offering the same moves and playing on with `move` to the same JSON)."""
    ph = st.ph
    plain = {key: ph[key] for key in keys}
    assert list(ph) == list(ph.keys()) == keys and dict(ph) == plain and ph == plain and plain == ph
    assert [ph.get(key) for key in keys] == [getattr(ph, key) for key in keys]
    assert json.loads(st.to_json())["ph"] == json.loads(json.dumps(plain))
    holder = st.copy()
    holder.ph = plain  # the same state with the dict: its JSON to the letter
    assert holder.to_json() == st.to_json()
    other = st.copy()
    assert type(other.ph) is record and other.ph == ph
    assert all(other.ph[k] is not v for k, v in ph.items() if isinstance(v, list))
    again = state_from_json(game, st.to_json())
    assert type(again.ph) is record and again.ph == ph
    assert engine.legal_moves(again) == engine.legal_moves(st)
    engine.apply(again, move)
    probe = st.copy()
    engine.apply(probe, move)
    assert again.to_json() == probe.to_json()
    assert other.ph == plain  # the copy did not move with the probe
    return plain


@pytest.mark.parametrize("path,players", GAMES)
def test_a_trick_phase_progress_reads_as_the_dict_it_replaces(path, players):
    """At every card of seeded deals: the record's keys and values as a dict, the JSON of the state holding that
    dict, a copy (equal, sharing no list), and the state read back from JSON (a record again, playing on to the
    same JSON)."""
    game = game_of(path)
    seen = 0
    for st in trick_decisions(game, players, 3):
        seen += 1
        reads_as_dict(game, st, DICT_KEYS, TrickProgress, engine.legal_moves(st)[0])
    assert seen >= 10


def test_the_record_refuses_fields_it_does_not_have():
    ph = TrickProgress([0, 1, 2], 0, None, 10, [], None, None, None)
    ph["turn"] = 2
    assert ph.turn == 2 and "turn" in ph and "copy" not in ph and "orders" not in ph and len(ph) == 15
    with pytest.raises(KeyError):
        ph["copy"]
    with pytest.raises(KeyError):
        ph["extra"] = 1
    with pytest.raises(TypeError):
        del ph["turn"]
    with pytest.raises(ValueError, match="has the fields"):
        TrickProgress.of({"players": []})


# Positions of seeded random deals (path, players, seed, moves made) and their save digests (`replay.position`),
# worked out by main 18022bb, before the record: a save written then must still match the position it records.
DIGESTS = [("games/preferans.yaml", 3, 11, 20, "5a206890c958d774b596300b620d7528"),
           ("games/preferans-4.yaml", 4, 2, 25, "d997bff21990c04daef9ba78d0262085"),
           ("games/tarot.yaml", 4, 3, 40, "4b89e0168ff2164363fe2f3070c18584")]


@pytest.mark.parametrize("path,players,seed,moves,digest", DIGESTS)
def test_the_position_digest_of_a_trick_in_play_is_what_it_was(path, players, seed, moves, digest):
    game = load_game(path)
    st = engine.new_match(game, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert isinstance(st.ph, TrickProgress)
    assert replay.position(st) == digest


def test_a_card_listed_and_played_is_refused_when_offered_again():
    game = load_game("games/preferans.yaml")
    for st in decisions(game, 3, 4):
        if isinstance(st.ph, TrickProgress) and not st.ph.trick:
            break
    listed = engine.legal_moves(st)
    card = listed[0]
    engine.apply(st, card)
    with pytest.raises(IllegalMoveError):
        engine.apply(st, card)  # listed at the position before: the engine must not take that list now


def test_moves_listed_before_a_new_deal_are_not_legal_after_it():
    """The moves listed mid-deal are forgotten when the deal starts again (start_deal runs `advance`)."""
    game = load_game("games/preferans.yaml")
    for st in decisions(game, 3, 4):
        if isinstance(st.ph, TrickProgress):
            break
    card = engine.legal_moves(st)[0]
    engine.start_deal(st)  # a new deal: its auction takes no card
    assert st.game.phases[st.phase].type_name == "auction"
    with pytest.raises(IllegalMoveError):
        engine.apply(st, card)
    engine.apply(st, Move("pass", None))
