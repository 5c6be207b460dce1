"""A phase's progress (interp/engine/phases/progress.py): the tricks phase (`TrickProgress`) and the bidding
phases (`AuctionProgress`, `DiscardProgress`, `ChoiceProgress`) keep their progress in slotted records that read
as the dicts of their fields, in the order the phase writes them: to saves, the position digest, copies, views
and bots (the same keys in the same order, the same values); a state read back from JSON (a save written with the
dict) plays on as the live one; a record refuses fields it does not have. The digests of positions in those
phases are pinned: a save written by an earlier release still matches the position it records."""
from __future__ import annotations

import json
import random
from itertools import islice

import pytest

from interp.engine import match as engine
from interp.engine.phases.auction import AuctionProgress
from interp.engine.phases.choose import ChoiceProgress
from interp.engine.phases.discard import DiscardProgress
from interp.engine.phases.progress import Progress
from interp.engine.phases.trick_rules import TrickProgress
from interp.engine.state import Move, state_from_json
from interp.runs import replay
from interp.spec.compiler import load_game
from tests.conftest import game_of

# the fields of a tricks phase's progress, in the order the phase writes them (as a dict in saves)
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
    its dict, or a record of its own: see the bidding phases below)."""
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
def test_a_trick_phase_progress_reads_as_a_dict_in_saves_and_copies(path, players):
    """At every card of seeded deals: the record's keys and values as a dict, the JSON of the state holding that
    dict, a copy (equal, sharing no list), and the state read back from JSON (a record again, playing on to the
    same JSON)."""
    game = game_of(path)
    seen = 0
    for st in trick_decisions(game, players, 3):
        seen += 1
        reads_as_dict(game, st, DICT_KEYS, TrickProgress, engine.legal_moves(st)[0])
    assert seen >= 10


def test_a_trick_record_refuses_fields_it_does_not_have():
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
def test_the_position_digest_of_a_trick_in_play_matches_the_saves_already_written(path, players, seed, moves, digest):
    game = load_game(path)
    st = engine.new_match(game, players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert isinstance(st.ph, TrickProgress)
    assert replay.position(st) == digest


# by phase type: the record and its fields, in the order the phase writes them (as a dict in saves)
RECORDS = {"auction": (AuctionProgress, ["order", "turn", "passed", "spoken", "high", "high_by", "locked", "last",
                                         "over", "jumps"]),
           "discard": (DiscardProgress, ["seats", "seat", "n", "low", "high", "closed"]),
           "choose": (ChoiceProgress, ["seat", "chosen"])}


# (path, players, seeds, the phase types met in the deals seeded 0 .. seeds - 1)
BIDDING = {"auction", "discard", "choose"}


BIDDING_GAMES = [("games/preferans.yaml", 3, 4, BIDDING), ("games/preferans-4.yaml", 4, 4, BIDDING),
                 ("games/tarot-3.yaml", 3, 16, BIDDING), ("games/tarot.yaml", 4, 4, BIDDING),
                 ("games/tarot-5.yaml", 5, 4, BIDDING), ("games/belote.yaml", 4, 4, {"choose"}),
                 ("games/hearts.yaml", 4, 4, {"discard"})]


@pytest.mark.parametrize("path,players,seeds,kinds", BIDDING_GAMES)
def test_a_bidding_phase_progress_reads_as_a_dict_in_saves_copies_and_views(path, players, seeds, kinds):
    """At every decision of seeded deals in an auction, discard or choice, the record reads as the dict it
    replaces (see `reads_as_dict`: the JSON of a state holding it, a copy, the state read back from JSON playing
    on), and a view holds that dict."""
    game = game_of(path)
    seen: dict = {}
    for seed in range(seeds):
        for st in decisions(game, players, seed):
            kind = game.phases[st.phase].type_name
            if kind in RECORDS:
                record, keys = RECORDS[kind]
                seen[kind] = seen.get(kind, 0) + 1
                plain = reads_as_dict(game, st, keys, record, engine.legal_moves(st)[-1])
                assert st.view(engine.to_move(st)).ph == plain
    assert set(seen) == kinds and sum(seen.values()) >= 6


def test_a_bidding_record_refuses_fields_it_does_not_have():
    ph = AuctionProgress.start([1, 2, 0], False)
    ph["turn"] = 2
    assert ph.turn == 2 and "turn" in ph and "copy" not in ph and len(ph) == 10
    refused = [(KeyError, lambda: ph["copy"]), (KeyError, lambda: ph.update(extra=1)),
               (TypeError, lambda: ph.pop("turn")), (ValueError, lambda: AuctionProgress.of({"order": []}))]
    for error, attempt in refused:
        with pytest.raises(error):
            attempt()
    assert dict(ph) == {**dict(AuctionProgress.start([1, 2, 0], False)), "turn": 2}


# Positions of seeded random deals (path, players, seed, moves made) in an auction (before and after the first
# bid), a discard and a choice, and their save digests (`replay.position`), worked out by main 1effae1.
BIDDING_DIGESTS = [("games/preferans.yaml", 3, 0, 0, "9420504f64117a16fbc81e819aff14fa"),
                   ("games/preferans.yaml", 3, 0, 1, "0cb193b844b00f9c96894e78d091f715"),
                   ("games/preferans.yaml", 3, 0, 11, "e387c4e7ef72c795c7166a67463b4aa8"),
                   ("games/preferans.yaml", 3, 0, 13, "dd9ed108eeb5ce5d24a7f78f76b58bd5"),
                   ("games/preferans-4.yaml", 4, 0, 1, "3ecd573dffb82e0ac8f4f6da5e013690"),
                   ("games/preferans-4.yaml", 4, 0, 11, "a219172a06b34d28c9c1a456878bcc6b"),
                   ("games/tarot-3.yaml", 3, 0, 1, "b7b8b4eac0fc992e678e4e7fef2f1718"),
                   ("games/tarot.yaml", 4, 0, 0, "aa6eb789c83b1933e64749283d9bb910"),
                   ("games/tarot.yaml", 4, 0, 1, "d0d4ba61e164c93f77b1615359367a54"),
                   ("games/tarot.yaml", 4, 2, 4, "a877290e69789734bebe7194ec5f6c3e"),
                   ("games/tarot-5.yaml", 5, 0, 1, "b4620c80ab92a0ca66f8434be2e67a8c"),
                   ("games/belote.yaml", 4, 0, 0, "583e6ca57087e317ab6712acba8f12a3"),
                   ("games/hearts.yaml", 4, 0, 0, "df9a0d7b5601d5dbf46e0c2138206004")]


@pytest.mark.parametrize("path,players,seed,moves,digest", BIDDING_DIGESTS)
def test_the_position_digest_while_bidding_matches_the_saves_already_written(path, players, seed, moves, digest):
    st = list(islice(decisions(load_game(path), players, seed), moves + 1))[-1]
    assert st.game.phases[st.phase].type_name in ("auction", "discard", "choose")
    assert replay.position(st) == digest
    assert json.loads(st.to_json())["ph"] == json.loads(json.dumps(dict(st.ph)))
