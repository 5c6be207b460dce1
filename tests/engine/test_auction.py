"""The auction phase (interp/engine/phases/auction.py) offers the bids the rules allow and gives the word to the
bidder the rules name.

The auction's legal moves come from tables of what the standing bid alone decides (AuctionPhase.offers) and a
special bid's `when` is split into the parts that read no local and the rest; here, at every step of seeded
random auctions over spec variants covering each flag (first_call, jump, holdable, then_pass, after_lock,
when), `jumps`, `hold: later` and `once`, the moves offered and the bidder to speak are compared with the rules
of docs/spec-language.md (`auction`) written out plainly below, the whole `when` evaluated as written.
"""
from __future__ import annotations

import random

import pytest
import yaml  # type: ignore[import-untyped]

from interp.dsl.compile import compile_expr
from interp.engine import match as engine
from interp.engine.phases.auction import PASS
from interp.engine.phases.base import with_locals
from interp.engine.state import Move
from interp.spec.compiler import load_game

# Three players bid on a ladder of eight rungs; `small` and `solo` are special (their flags come from the test).
SPEC = """
name: Bidding test
players: {default: 3, allowed: [3, 4]}
options:
  open: {default: true}
deck:
  suits: [{code: S}, {code: H}]
  ranks: ["1", "2", "3", "4", "5", "6"]
zones:
  hand: {per_seat: true, visible: owner}
  stock: {visible: none}
vars:
  taker: {type: seat}
  contract: {type: bid}
bids:
  fields: {level: int}
  ladder:
    - each: {level: [1, 2]}
    - {name: small, level: 2}
    - each: {level: [3, 4]}
    - {name: solo, level: 5}
    - each: {level: [5, 6]}
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 1, repeat: 3}], rest: stock}
  - id: auction
    type: auction
AUCTION
    won: "taker = winner; contract = high"
scoring: []
"""

VARIANTS = {
    "plain": "",
    "jumps": "    jumps: true",
    "preferans-like": """    hold: later
    special:
      small: {first_call: true, jump: true, holdable: false, then_pass: true}
      solo: {jump: true, holdable: false, then_pass: true, after_lock: true,
             when: "open and high != none and high.level >= 3 and mine == 'small'"}""",
    "jumping-specials": """    jumps: "open"
    hold: later
    special:
      small: {first_call: true, when: "mine == none"}
      solo: {holdable: true, then_pass: true, when: "open"}""",
    "once": """    once: true
    hold: later
    special:
      small: {when: "me != seats[0] and open"}
      solo: {jump: true, first_call: true}""",
    "locked-holds": """    hold: later
    special:
      small: {then_pass: true, jump: true}
      solo: {after_lock: true, when: "high == none or high.level < 5 and not open"}""",
    "two-checks": """    jumps: true
    special:
      small: {when: "not open"}
      solo: {when: "open or me == seats[0]"}""",  # one checked bid left out, a later one offered among others
    "locked-out": """    special:
      small: {then_pass: true, jump: true}
      solo: {jump: true}""",
}


def auction_game(tmp_path, variant: str):
    path = tmp_path / f"{variant}.yaml"
    path.write_text(SPEC.replace("AUCTION", VARIANTS[variant]))
    return load_game(str(path))


def plain_legal(st, spec: dict, when: dict) -> list:
    """The auction's moves by the rules as the docs write them, the special bids' `when` evaluated whole."""
    ph, bids = st.ph, st.game.bids
    special = spec.get("special") or {}
    i, high = ph["turn"], ph["high"]
    moves = [PASS]
    flags_of = {bids.index(st.game.bids_by_name[name]): flags for name, flags in special.items()}
    high_flags = flags_of.get(high, {})
    if (not ph["locked"][i] and spec.get("hold") == "later" and ph["high_by"] >= 0
            and high_flags.get("holdable", True) and ph["order"].index(ph["high_by"]) > i):
        moves.append(Move("hold", high))
    ordinary_above = [b for b in range(high + 1, len(bids)) if b not in flags_of]
    step = ordinary_above[0] if ordinary_above else len(bids)
    for index in range(high + 1, len(bids)):
        flags = flags_of.get(index)
        if flags is None:
            if not ph["locked"][i] and (ph["jumps"] or index == step):
                moves.append(Move("bid", index))
            continue
        if ph["locked"][i] and not flags.get("after_lock", False):
            continue
        if flags.get("first_call", False) and ph["spoken"][i]:
            continue
        if not flags.get("jump", False) and not ph["jumps"] and step < index:
            continue  # an ordinary bid lies between the standing bid and this one
        condition = when.get(index)
        if condition is not None:
            mine = bids[ph["last"][i]] if ph["last"][i] >= 0 else None
            if not with_locals(st, {"me": ph["order"][i], "high": bids[high] if high >= 0 else None,
                                    "mine": mine}, condition):
                continue
        moves.append(Move("bid", index))
    return moves


def plain_next(ph: dict, spec: dict, i: int) -> int | None:
    """Who speaks after the bidder at `i`, or None when the auction is over."""
    n, once = len(ph["order"]), bool(spec.get("once", False))
    left = [k for k in range(n) if not ph["passed"][k]]
    if (once and all(ph["spoken"])) or not left or (len(left) == 1 and ph["order"][left[0]] == ph["high_by"]):
        return None
    return next((k for k in [(i + s) % n for s in range(1, n + 1)]
                 if not ph["passed"][k] and not (once and ph["spoken"][k])), None)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("players", [3, 4])
def test_the_auction_offers_what_the_rules_say_at_every_step(tmp_path, variant, players):
    game = auction_game(tmp_path, variant)
    phase = next(p for p in game.phases if p.type_name == "auction")
    spec = next(p for p in yaml.safe_load(SPEC.replace("AUCTION", VARIANTS[variant]))["phases"]
                if p["id"] == "auction")
    locals_ = {"me": ("seat", None), "high": ("bid", None), "mine": ("bid", None)}
    when = {game.bids_by_name[name].index: compile_expr(flags["when"], game.scope, "bool", locals_=locals_)[0]
            for name, flags in (spec.get("special") or {}).items() if "when" in flags}
    seen_specials = 0
    for seed in range(60):
        rng = random.Random(seed)
        st = engine.new_match(game, players, seed, {"open": seed % 3 != 0})
        while not st.deal_over and game.phases[st.phase] is phase:
            moves = engine.legal_moves(st)
            assert moves == plain_legal(st, spec, when), (variant, seed, st.ph)
            seen_specials += sum(m.kind == "bid" and m.value in phase.special for m in moves)
            ph = {k: (list(v) if isinstance(v, list) else v) for k, v in st.ph.items()}
            i = ph["turn"]
            move = moves[rng.randrange(len(moves))] if rng.random() < 0.7 else moves[-1]
            engine.apply(st, move)
            # the state the move leaves, by the rules, against the phase's
            ph["spoken"][i] += 1
            if move.kind == "pass":
                ph["passed"][i] = True
            else:
                ph["high_by"] = ph["order"][i]
            expected = plain_next(ph, spec, i)
            if expected is None:
                assert st.deal_over or game.phases[st.phase] is not phase
                break
            assert st.ph["turn"] == expected
    assert seen_specials > 0 or not phase.special


def test_a_special_bids_when_is_split_at_the_parts_that_read_no_local(tmp_path):
    game = auction_game(tmp_path, "preferans-like")
    phase = next(p for p in game.phases if p.type_name == "auction")
    solo = phase.special[game.bids_by_name["solo"].index]
    assert solo.free is not None and solo.bound is not None  # `open` first, then the parts reading high and mine
    game = auction_game(tmp_path, "jumping-specials")
    phase = next(p for p in game.phases if p.type_name == "auction")
    assert phase.special[game.bids_by_name["solo"].index].bound is None  # `open` alone: nothing to bind
    small = phase.special[game.bids_by_name["small"].index]
    assert small.free is None and small.bound is not None  # `mine == none` reads a local
