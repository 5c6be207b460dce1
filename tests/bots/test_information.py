"""The information model: views leak nothing, knowledge holds in the true deal, sampled worlds keep the view.

Over every spec and player count, at random decision points of seeded random deals (bounded: a few deals each):
- a view holds no card of a zone hidden from its seat, no value of a hidden var, no event outside its audience;
- every void and trump cap the knowledge infers from the view holds in the true state;
- every world `sample_world` gives keeps the seat's view, places every card once, respects every inferred void,
  plays on legally to the end of the deal, and worlds vary where the view leaves freedom; it finds one at every
  sampled decision.
"""
from __future__ import annotations

import glob
import os
import random

import pytest

from interp.bots.knowledge import knowledge
from interp.bots.worlds import SamplingError, sample_world
from interp.engine import match as engine
from interp.engine.state import event_visible
from interp.spec.compiler import load_game
from tests.conftest import ROOT

CASES = [(os.path.relpath(p, ROOT), n) for p in sorted(glob.glob(os.path.join(ROOT, "games", "*.yaml")))
         for n in load_game(p).players]


def decisions(path: str, n: int, deals: int = 1, seed: int = 1):
    """(state, seat to move) at every decision of a few seeded random deals."""
    game = load_game(os.path.join(ROOT, path))
    rng = random.Random(seed)
    for d in range(deals):
        st = engine.new_match(game, n, seed + d)
        while not st.deal_over:
            yield st, engine.to_move(st)
            engine.apply(st, rng.choice(engine.legal_moves(st)))


@pytest.mark.parametrize("path,n", CASES)
def test_a_view_leaks_nothing(path, n):
    for st, seat in decisions(path, n):
        view = st.view(seat)
        game = st.game
        for zid, cards in enumerate(st.zones):
            if not game.zone_visible(st, zid, seat):
                assert set(view.zones[zid]) <= set(game.zone_shown(st, zid))
        for decl in game.vars.values():
            if decl.visible == "none":
                assert view.vars[decl.name] == ([decl.default] * n if decl.per_seat else decl.default)
        assert all(event_visible(e, seat) for e in view.events)
        assert view.history == [] and view.seed is None


@pytest.mark.parametrize("path,n", CASES)
def test_inferred_voids_hold_in_the_true_deal(path, n):
    for st, seat in decisions(path, n):
        kn = knowledge(st.view(seat))
        deck = st.game.deck
        escape = {c for e in st.events[st.deal_events:] if e.kind == "tricks" for c in e.cards}
        for zid, cards in enumerate(st.zones):
            owner = st.game.zone_of(zid, n)[1]
            if owner is None:
                continue
            for c in cards:
                if any(e.kind == "tricks" for e in st.events[st.deal_events:]) and zid in _hands(st):
                    assert not kn.excludes(owner, deck.suit_of[c], c, c in escape), deck.code(c)
        for c, places in kn.places.items():      # every unseen card may be where it really is
            where = next((z for z, cards in enumerate(st.zones) if c in cards), None)
            if where is not None and where in st.view(seat).hidden:
                assert where in places, (st.game.deck.code(c), where, places)


def _hands(st) -> set:
    from interp.engine.events import phase_of
    out = set()
    for e in st.events[st.deal_events:]:
        if e.kind == "tricks":
            out |= {st.game.zone_id(phase_of(st.game, e.phase).hand, s, st.n) for s in range(st.n)}
    return out


def _check_world(world, view, st, seat, k) -> None:
    """The world keeps the seat's view, places every card once, respects every inferred void, plays on."""
    n = st.n
    kn = knowledge(view)
    assert world.view(seat).to_json() == view.to_json()
    assert sorted(engine.card_census(world)) == list(range(len(st.game.deck)))
    deck = st.game.deck
    escape = _escape(world)
    for zid in _hands(world):
        owner = world.game.zone_of(zid, n)[1]
        for c in world.zones[zid]:
            assert not kn.excludes(owner, deck.suit_of[c], c, c in escape), deck.code(c)
    play_on = random.Random(k)
    while not world.deal_over:
        engine.apply(world, play_on.choice(engine.legal_moves(world)))


# Known limit (issues 27, 28): in Durak the hidden hands decide whose turn it is (the first attacker holds the
# lowest trump; whether a seat can beat or throw in), and the sketch follows only the seat the view names, so at
# about two decisions in three neither the sketch nor the fallback finds a world.
_STOCK_DRAWN_BY_STATEMENTS = pytest.mark.xfail(reason="a turn order set by the hidden hands is not sampled yet",
                                               raises=SamplingError, strict=True)


@pytest.mark.parametrize("path,n", [pytest.param(p, n, marks=_STOCK_DRAWN_BY_STATEMENTS) if "durak" in p else (p, n)
                                    for p, n in CASES] + [("docs/examples/tiny.yaml", 2)])
def test_sampled_worlds_keep_the_view_and_play_on(path, n):
    rng = random.Random(5)
    differs = 0
    for k, (st, seat) in enumerate(decisions(path, n)):
        if k % 4:
            continue
        view = st.view(seat)
        world = sample_world(view, rng)
        _check_world(world, view, st, seat, k)
        differs += world.zones != st.zones
    assert differs > 0


def test_a_world_after_the_hands_are_dealt_again_from_the_stock():
    """Mitten deals 3 + 3 more from the stock when the hands are empty: the cards a seat plays after that come from
    the stock, not from its first hand (they were pinned there, and no world was found: seed 3, 4 players)."""
    game = load_game(os.path.join(ROOT, "games", "mitten-4.yaml"))
    st = engine.new_match(game, seed=3)
    rng = random.Random(3)
    choices = 0  # the 36th decision with a choice: the fifth turn after the hands were dealt again
    while choices < 35 or len(engine.legal_moves(st)) < 2:
        moves = engine.legal_moves(st)
        choices += len(moves) > 1
        engine.apply(st, rng.choice(moves))
    assert sum(e.kind == "deal" for e in st.events[st.deal_events:]) == 2
    seat = engine.to_move(st)
    view = st.view(seat)
    world = sample_world(view, random.Random(1))
    _check_world(world, view, st, seat, 0)


def _escape(st) -> set:
    return {c for e in st.events[st.deal_events:] if e.kind == "tricks" for c in e.cards}


def test_the_bot_writers_page_runs():
    import doctest
    failures, tried = doctest.testfile(os.path.join(ROOT, "docs", "bots.md"), module_relative=False)
    assert tried > 5 and failures == 0


def test_a_discard_zone_holds_only_cards_its_rule_lets_go():
    """Tarot's écart may not hold a king, a trump not shown, or the Excuse (the discard's `allowed` tiers): a
    defender's knowledge never places such a card there, and the taker's own view knows the écart as it is."""
    game = load_game(os.path.join(ROOT, "games", "tarot.yaml"))
    deck = game.deck
    checked = 0
    for seed in range(1, 40):
        rng = random.Random(seed)
        st = engine.new_match(game, 4, seed)
        while not st.deal_over and not any(e.kind == "discard" for e in st.events[st.deal_events:]):
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        if st.deal_over:
            continue
        taker = st.vars["taker"]
        ecart = game.zone_id("ecart", None, 4)
        defender = next(s for s in range(4) if s != taker)
        kn = knowledge(st.view(defender))
        for c, places in kn.places.items():
            if deck.rank_name[c] == "K" or deck.code(c) == "EX":
                assert ecart not in places, deck.code(c)
        checked += 1
    assert checked >= 3
