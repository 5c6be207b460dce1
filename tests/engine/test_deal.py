"""The start of a deal, made faster, deals what it dealt before: the chance draws (interp.engine.chance) are the
standard library's draws from the same generators, for many seeds, tags and sizes."""
from __future__ import annotations

import random

import pytest

from interp.engine import chance
from interp.engine.phases.deal import DealPhase, layout_of, with_inserts

from tests.conftest import SPECS, game_of


def _generators(count: int):
    """Pairs of equal generators, seeded as the deals seed theirs (a text: seed/deal number/tag, ours by
    chance.seeded) and by numbers."""
    for s in range(count):
        text = f"{s * 7919}/{s % 5}/{('deal', 'deal:insert', 'first-dealer')[s % 3]}"
        yield chance.seeded(text), random.Random(text)
        yield random.Random(s), random.Random(s)


def test_a_text_seeds_the_generator_random_random_seeds():
    texts = [f"{seed}/{deal}/{tag}" for seed in (0, 1, 7, -3, 2**40, 10**30) for deal in (1, 2, 17)
             for tag in ("deal", "deal:insert", "first-dealer", "déal·2", "")]
    texts += [str(s) for s in range(300)] + ["", "ä" * 200]
    for text in texts:
        ours, theirs = chance.seeded(text), random.Random(text)
        assert type(ours) is random.Random
        assert ours.getstate() == theirs.getstate()
        assert [ours.random() for _ in range(3)] + [ours.gauss(0, 1)] == \
            [theirs.random() for _ in range(3)] + [theirs.gauss(0, 1)]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 5, 17, 24, 32, 36, 52, 78, 130, chance.WRITTEN_OUT,
                                  chance.WRITTEN_OUT + 1, 3000])
def test_shuffle_is_the_standard_shuffle(size):
    for ours, theirs in _generators(400 if size < 1000 else 6):
        a, b = list(range(size)), list(range(size))
        chance.shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()  # the same draws, not only the same outcome


def test_sample_is_the_standard_sample():
    tried = 0
    for n in (0, 1, 2, 5, 14, 21, 22, 23, 40, 84, 85, 86, 200):
        for k in sorted({0, 1, 2, 5, 6, 7, n // 3, n // 2, n}):
            if k > n:
                continue
            for ours, theirs in _generators(40):
                population = range(1, n + 1) if k % 2 else list(range(100, 100 + n))
                assert chance.sample(ours, population, k) == theirs.sample(population, k)
                assert ours.getstate() == theirs.getstate()
                tried += 1
    assert tried > 5000


def test_below_is_the_standard_randrange():
    for n in (1, 2, 3, 4, 5, 7, 8, 9, 14, 100, 2**31 + 1, 3**40):
        for ours, theirs in _generators(60):
            assert chance.below(ours, n) == theirs.randrange(n)
            assert ours.getstate() == theirs.getstate()


def test_other_generators_use_their_own_methods():
    class Counted(random.Random):
        calls = 0

        def shuffle(self, x):
            Counted.calls += 1
            super().shuffle(x)

    items = list(range(10))
    chance.shuffle(Counted(3), items)
    assert Counted.calls == 1 and sorted(items) == list(range(10))
    with pytest.raises(ValueError):
        chance.sample(random.Random(1), range(3), 4)  # the standard library's error for too many


def _played(game, players: int, seeds, deals: int = 2) -> list:
    """The event log and zones of a match per seed, `deals` deals of random moves long (or up to its end)."""
    from interp.engine import match as engine

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
