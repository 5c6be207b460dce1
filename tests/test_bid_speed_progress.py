"""The bidding phases keep their progress in slotted records (`AuctionProgress`, `DiscardProgress`,
`ChoiceProgress`) instead of dicts: to saves, the position digest, copies, views and bots they must read exactly
as the dicts did (the same keys in the same order, the same values), and a state read back from JSON (a save
written with the dict) must play on as the live one. The digests of positions in those phases are pinned as main
1effae1 computed them, before the records."""
from __future__ import annotations

import json
from itertools import islice

import pytest

from interp.engine import match as engine
from interp.runs import replay
from interp.spec.compiler import load_game
from interp.engine.phases.auction import AuctionProgress
from interp.engine.phases.choose import ChoiceProgress
from interp.engine.phases.discard import DiscardProgress
from tests.conftest import game_of
from tests.engine.test_progress import decisions, reads_as_dict

# by phase type: the record and the dict's keys in the order the phase wrote them before it
RECORDS = {"auction": (AuctionProgress, ["order", "turn", "passed", "spoken", "high", "high_by", "locked", "last",
                                         "over", "jumps"]),
           "discard": (DiscardProgress, ["seats", "seat", "n", "low", "high", "closed"]),
           "choose": (ChoiceProgress, ["seat", "chosen"])}
# (path, players, seeds, the phase types met in the deals seeded 0 .. seeds - 1)
ALL = {"auction", "discard", "choose"}
GAMES = [("games/preferans.yaml", 3, 4, ALL), ("games/preferans-4.yaml", 4, 4, ALL),
         ("games/tarot-3.yaml", 3, 16, ALL), ("games/tarot.yaml", 4, 4, ALL), ("games/tarot-5.yaml", 5, 4, ALL),
         ("games/belote.yaml", 4, 4, {"choose"}), ("games/hearts.yaml", 4, 4, {"discard"})]


@pytest.mark.parametrize("path,players,seeds,kinds", GAMES)
def test_a_bidding_phase_progress_reads_as_the_dict_it_replaces(path, players, seeds, kinds):
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


def test_the_record_refuses_fields_it_does_not_have():
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
DIGESTS = [("games/preferans.yaml", 3, 0, 0, "9420504f64117a16fbc81e819aff14fa"),
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


@pytest.mark.parametrize("path,players,seed,moves,digest", DIGESTS)
def test_the_position_digest_while_bidding_is_what_it_was(path, players, seed, moves, digest):
    st = list(islice(decisions(load_game(path), players, seed), moves + 1))[-1]
    assert st.game.phases[st.phase].type_name in ("auction", "discard", "choose")
    assert replay.position(st) == digest
    assert json.loads(st.to_json())["ph"] == json.loads(json.dumps(dict(st.ph)))
