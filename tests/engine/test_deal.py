"""The deal phase (interp/engine/phases/deal.py): what a seed deals, and to whom.

Every game deals and logs what the standard draws (interp/engine/chance.py) and `zone_visible` say; the cards go
where the packets, laid one by one, put them, whether the phase remembers its plan (a layout, layouts by gaps,
inserted packets taken out of the pack, packets remembered by player count) or works it out at each deal; a new
match starts its first deal as `start_deal` starts any later one."""
from __future__ import annotations

import glob
import random

import pytest

from interp.engine import chance, match as engine
from interp.engine.phases.deal import DealPhase, Plan, layout_of, taken_out, with_inserts
from interp.spec.compiler import load_game
from tests.conftest import ROOT, SPECS, game_of


def _played(game, players: int, seeds, deals: int = 2) -> list:
    """The event log and zones of a match per seed, `deals` deals of random moves long (or up to its end)."""
    out = []
    for seed in seeds:
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        for _ in range(deals):
            while not st.deal_over:
                moves = engine.legal_moves(st)
                engine.apply(st, moves[rng.randrange(len(moves))])
            if st.match_over:
                break
            engine.next_deal(st)
        out.append((st.events, [list(z) for z in st.zones]))
    return out


@pytest.mark.parametrize("path", SPECS)
def test_every_game_deals_and_logs_what_the_standard_draws_and_zone_visible_do(path, monkeypatch):
    game = game_of(path)
    for players in game.players:
        ours = _played(game, players, range(6))
        with monkeypatch.context() as patched:
            patched.setattr(chance, "shuffle", lambda rng, items: rng.shuffle(items))
            patched.setattr(chance, "sample", lambda rng, population, k: rng.sample(population, k))
            patched.setattr(DealPhase, "seers_table", staticmethod(DealPhase.seers_now))  # who sees what, asked zone by zone
            assert ours == _played(game, players, range(6))


@pytest.mark.parametrize("path", SPECS)
def test_the_seers_table_is_what_zone_visible_says_at_a_deal_start(path):
    from interp.engine import match as engine

    game = game_of(path)
    for players in game.players:
        st = engine.new_match(game, players, 1, deal=False)
        engine.start_deal(st, play=False)
        table = {zid: (seers, top) for zid, seers, top in game.zone_seers(players)}
        assert list(table) == sorted(table)  # zone by zone, in order
        for zid in range(len(st.zones)):
            visible = tuple(s for s in range(players) if game.zone_visible(st, zid, s))
            top = game.zone_of(zid, players)[0].visible == "top"
            if not visible and not top:  # nobody sees it: nothing to log
                assert zid not in table
                continue
            seers, its_top = table[zid]
            assert (seers is None) == (len(visible) == players)
            assert seers is None or seers == visible
            assert its_top == top


@pytest.mark.parametrize("path", ["games/tarot.yaml", "games/preferans-4.yaml"])
def test_the_active_seats_run_from_the_dealers_next_seat_round_to_the_dealer(path):
    from interp.engine import match as engine

    game = game_of(path)
    for players in game.players:
        for dealer in range(-players, 2 * players):
            st = engine.new_match(game, players, 3, dealer=dealer, deal=False)
            engine.start_deal(st, play=False)
            out = set(game.sit_out(st)) if game.sit_out is not None else set()
            assert st.active == [s for s in ((dealer + k) % players for k in range(1, players + 1)) if s not in out]


def _laid_one_by_one(packets: list, pack: list) -> dict:
    zones: dict = {}
    pos = 0
    for zid, k in packets:
        zones.setdefault(zid, []).extend(pack[pos:pos + k])
        pos += k
    return {zid: cards for zid, cards in zones.items() if cards}


def test_a_layout_gives_each_zone_the_cards_its_packets_deal_it_one_by_one():
    rng = random.Random(4)
    for _ in range(500):
        packets = [(rng.randrange(5), rng.randrange(4)) for _ in range(rng.randrange(1, 12))]
        pack = list(range(100, 100 + sum(k for _, k in packets)))
        rng.shuffle(pack)
        assert {zid: list(take(pack)) for zid, take in layout_of(packets)} == _laid_one_by_one(packets, pack)


@pytest.mark.parametrize("path, players, ways", [("games/preferans.yaml", 3, 14), ("games/preferans-4.yaml", 4, 14),
                                                 ("games/tarot.yaml", 4, None), ("games/hearts.yaml", 4, 1)])
def test_a_deal_remembers_where_the_cards_go_when_there_are_few_ways_to_insert_packets(path, players, ways):
    """Preferans inserts its talon (one packet of 2) in one of the 14 gaps between its 15 packets: 14 layouts
    remembered; Tarot's chien (6 single cards in 23 gaps) has too many ways; a deal inserting nothing has one."""
    from interp.engine import match as engine
    from interp.spec.compiler import load_game

    game = load_game(path)  # its own memo
    phase = next(p for p in game.phases if p.type_name == "deal")
    for seed in range(60):
        engine.new_match(game, players, seed, dealer=0)
    (plan,) = phase.memo.values()  # one dealer: the same receivers
    if ways is None:
        assert plan.layout is None and plan.layouts is None
    elif plan.inserts is None:
        assert ways == 1 and plan.layout is not None and plan.layouts is None
    else:
        assert plan.layout is None and 1 < len(plan.layouts) <= ways == len(plan.gaps)
        for gaps, layout in plan.layouts.items():
            pack = list(range(len(game.deck)))
            assert {zid: list(take(pack)) for zid, take in layout} == \
                _laid_one_by_one(with_inserts(plan.packets, plan.inserts, gaps), pack)


ALL_SPECS = SPECS + sorted(p[len(ROOT) + 1:] for p in glob.glob(f"{ROOT}/tests/specs/*.yaml"))


def to_end(st, rng) -> None:
    while not st.deal_over:
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])


def played_match(game, players: int, seed: int, deals: int = 2):
    """A match of random moves, `deals` deals long (or to its end), with every deal's record read."""
    rng = random.Random(seed)
    st = engine.new_match(game, players, seed)
    for _ in range(deals):
        to_end(st, rng)
        if st.match_over:
            break
        engine.next_deal(st)
    return st


def whole_record(st) -> tuple:
    return st.to_json(), st.events, st.deals


@pytest.mark.parametrize("path", ALL_SPECS)
def test_a_new_match_starts_its_first_deal_as_start_deal_does(path):
    """new_match sets the vars and starts the first deal itself; a match made without a deal and then dealt by
    start_deal (which clears the zones, resets the deal's vars and seats the players) is the same state."""
    game = game_of(path)
    for players in game.players:
        for seed in range(4):
            fast = engine.new_match(game, players, seed)
            slow = engine.new_match(game, players, seed, deal=False)
            engine.start_deal(slow)
            assert list(fast.vars.items()) == list(slow.vars.items())  # the same vars in the same order
            assert (fast.to_json(), fast.events, fast.active) == (slow.to_json(), slow.events, slow.active)


def test_a_new_match_has_the_match_vars_first_then_the_deals(tmp_path):
    """Vars of both scopes, declared mixed: a new match lists the match's (as declared), then the deal's; a
    match made without a deal has only the match's."""
    text = open(f"{ROOT}/docs/examples/tiny.yaml").read()
    text = text.replace("vars:\n", "vars:\n  won_deals: {type: int, per_seat: true, scope: match}\n"
                        "  leads: {type: int}\n  rounds: {type: int, default: 3, scope: match}\n")
    (tmp_path / "mixed.yaml").write_text(text)
    game = load_game(str(tmp_path / "mixed.yaml"))
    for seed in range(3):
        st = engine.new_match(game, 2, seed)
        assert list(st.vars) == ["won_deals", "rounds", "leads", "taken"]
        assert (st.vars["won_deals"], st.vars["rounds"], st.vars["leads"]) == ([0, 0], 3, 0)
        slow = engine.new_match(game, 2, seed, deal=False)
        assert list(slow.vars) == ["won_deals", "rounds"]
        engine.start_deal(slow)
        assert list(st.vars.items()) == list(slow.vars.items()) and st.to_json() == slow.to_json()


@pytest.mark.parametrize("path", ALL_SPECS)
def test_deals_lay_the_cards_as_packets_laid_one_by_one(path, monkeypatch):
    """The remembered plans (a layout, layouts by gaps, or the inserted cards taken out of the pack) deal what a
    plan worked out at each deal and laid packet by packet deals, for every player count and many seeds."""
    game = game_of(path)
    ours = {(players, seed): whole_record(played_match(game, players, seed)) for players in game.players
            for seed in range(6)}
    with monkeypatch.context() as patched:
        for phase in game.phases:
            if isinstance(phase, DealPhase):
                patched.setattr(phase, "memo", None)  # worked out at each deal, laid one by one
        for (players, seed), record in ours.items():
            assert record == whole_record(played_match(game, players, seed))


@pytest.mark.parametrize("path", ["games/tarot.yaml", "games/preferans.yaml", "games/hearts.yaml"])
def test_deals_drawn_from_the_reseeded_generator_are_those_of_fresh_ones(path, monkeypatch):
    """The shuffle, the inserted packets and the first dealer draw from one generator seeded anew each time
    (chance.reseeded): the same matches as with a new generator each time (chance.seeded)."""
    game = game_of(path)
    ours = {(players, seed): whole_record(played_match(game, players, seed)) for players in game.players
            for seed in range(5)}
    with monkeypatch.context() as patched:
        patched.setattr(chance, "reseeded", chance.seeded)
        for (players, seed), record in ours.items():
            assert record == whole_record(played_match(game, players, seed))


def test_tarot_takes_its_chien_out_of_the_pack():
    """Tarot's chien (6 single cards in 23 gaps between 24 packets of 3) has too many ways to remember: its
    cards are taken out of the pack, and the rest laid as the 24 packets lie."""
    game = game_of("games/tarot.yaml")
    engine.new_match(game, 4, 1)
    phase = next(p for p in game.phases if isinstance(p, DealPhase))
    plan = next(plan for key, plan in phase.memo.items() if key[0] == 4)
    assert plan.layouts is None and plan.starts == tuple(range(0, 73, 3)) and len(plan.base) == 4


def test_taking_inserted_packets_out_is_laying_them_one_by_one():
    rng = random.Random(5)
    for _ in range(400):
        into = 9  # a zone no other packet deals to
        packets = tuple((rng.randrange(4), rng.randrange(4)) for _ in range(rng.randrange(2, 14)))
        each = rng.randrange(1, 4)
        gaps = tuple(rng.sample(range(1, len(packets)), rng.randrange(1, len(packets))))
        inserts = (into, each, len(gaps))
        starts = [0]
        for _, k in packets:
            starts.append(starts[-1] + k)
        plan = Plan(packets, inserts, range(1, len(packets)), starts[-1] + each * len(gaps), None, None,
                    layout_of(packets), tuple(starts))
        pack = [f"c{i}" for i in range(plan.need + rng.randrange(3))]
        rng.shuffle(pack)
        chien: list = []
        rest = taken_out(pack, chien, plan.starts, each, gaps)
        laid = {zid: list(take(rest)) for zid, take in plan.base}
        if chien:
            laid[into] = chien
        assert laid == _laid_one_by_one(with_inserts(packets, inserts, gaps), pack)
        assert rest[len(rest) - (len(pack) - plan.need):] == pack[plan.need:]  # the rest of the pack, as it was


def _deal_phase(game):
    return next(p for p in game.phases if p.type_name == "deal")


def _dealt(game, players: int, seeds) -> list:
    """Every zone's cards right after the deal and the moves of a random deal played on, for each seed."""
    out = []
    for seed in seeds:
        st = engine.new_match(game, players, seed)
        rng = random.Random(seed)
        dealt = [list(z) for z in st.zones]
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        out.append((dealt, st.history, [list(z) for z in st.zones]))
    return out


@pytest.mark.parametrize("path, players", [("games/preferans.yaml", 3), ("games/preferans-4.yaml", 4),
                                           ("games/belote.yaml", 4), ("games/mitten.yaml", 2),
                                           ("games/tarot.yaml", 4), ("games/tarot-3.yaml", 3),
                                           ("games/tarot-5.yaml", 5)])
def test_remembered_packets_deal_what_worked_out_packets_deal(path, players):
    game = game_of(path)
    phase = _deal_phase(game)
    assert phase.memo is not None
    remembered = _dealt(game, players, range(30))
    assert phase.memo  # the packets were remembered
    fresh = load_game(path)
    for deal in (p for p in fresh.phases if p.type_name == "deal"):
        deal.memo = None  # worked out at every deal
    assert remembered == _dealt(fresh, players, range(30))


@pytest.mark.parametrize("path", ["games/oh-hell.yaml", "games/piquet.yaml"])
def test_packets_with_a_count_reading_the_deal_or_an_option_are_not_remembered(path):
    assert _deal_phase(game_of(path)).memo is None
