"""The start and end of a deal, made cheaper, play and record what the straightforward way does: a new match's
first deal as any later deal starts, packets inserted among many gaps laid one by one, and a deal's record
made from a copy of the sheet it started from."""
from __future__ import annotations

import glob
import random
from fractions import Fraction

import pytest

from interp.engine import chance, match as engine
from interp.spec.compiler import load_game
from interp.engine.phases.deal import DealPhase, Plan, layout_of, taken_out, with_inserts

from tests.conftest import ROOT, SPECS, game_of
from tests.engine.test_deal import _laid_one_by_one

ALL_SPECS = SPECS + sorted(p[len(ROOT) + 1:] for p in glob.glob(f"{ROOT}/tests/specs/*.yaml"))


def _to_end(st, rng) -> None:
    while not st.deal_over:
        moves = engine.legal_moves(st)
        engine.apply(st, moves[rng.randrange(len(moves))])


def _match(game, players: int, seed: int, deals: int = 2):
    """A match of random moves, `deals` deals long (or to its end), with every deal's record read."""
    rng = random.Random(seed)
    st = engine.new_match(game, players, seed)
    for _ in range(deals):
        _to_end(st, rng)
        if st.match_over:
            break
        engine.next_deal(st)
    return st


def _whole_record(st) -> tuple:
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
    ours = {(players, seed): _whole_record(_match(game, players, seed)) for players in game.players
            for seed in range(6)}
    with monkeypatch.context() as patched:
        for phase in game.phases:
            if isinstance(phase, DealPhase):
                patched.setattr(phase, "memo", None)  # worked out at each deal, laid one by one
        for (players, seed), record in ours.items():
            assert record == _whole_record(_match(game, players, seed))


@pytest.mark.parametrize("path", ["games/tarot.yaml", "games/preferans.yaml", "games/hearts.yaml"])
def test_deals_drawn_from_the_reseeded_generator_are_those_of_fresh_ones(path, monkeypatch):
    """The shuffle, the inserted packets and the first dealer draw from one generator seeded anew each time
    (chance.reseeded): the same matches as with a new generator each time (chance.seeded)."""
    game = game_of(path)
    ours = {(players, seed): _whole_record(_match(game, players, seed)) for players in game.players
            for seed in range(5)}
    with monkeypatch.context() as patched:
        patched.setattr(chance, "reseeded", chance.seeded)
        for (players, seed), record in ours.items():
            assert record == _whole_record(_match(game, players, seed))


def test_the_reseeded_generator_draws_as_a_fresh_one_whatever_it_drew_before():
    rng = random.Random(3)
    for _ in range(300):
        text = f"{rng.randrange(10**rng.randrange(1, 20))}/{rng.randrange(9)}/{rng.choice(['deal', 'x:insert'])}"
        shared = chance.reseeded(text)
        assert shared.getstate() == random.Random(text).getstate()
        shared.getrandbits(rng.randrange(1, 200))  # drawn from: the next seeding starts it afresh all the same
        shared.gauss_next = 1.5  # type: ignore[attr-defined]


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


@pytest.mark.parametrize("path", ALL_SPECS)
def test_the_shared_blank_sheet_is_never_written_to(path):
    """Every new match starts from a copy of the game's blank sheet: after matches of every player count are
    played, the blank sheet is still all zeros, the same object each time asked, and a second run of the same
    matches records the same deals."""
    game = game_of(path)
    ours = {(players, seed): _whole_record(_match(game, players, seed, 3))
            for players in game.players for seed in range(4)}
    for (players, seed), record in ours.items():
        assert record == _whole_record(_match(game, players, seed, 3))
    for players in game.players:
        blank = game.blank_sheet(players)
        assert blank == game._blank_sheet(players) and blank is game.blank_sheet(players)


@pytest.mark.parametrize("path", ALL_SPECS)
def test_a_new_sheet_is_the_blank_sheet_sharing_no_list(path):
    """`Game.new_sheets[n]()` (a new match's sheet, written out) equals the blank sheet column by column in the
    same order, and two of them share no column or row with each other or the blank sheet."""
    game = game_of(path)
    for players in game.players:
        blank, a, b = game.blank_sheet(players), game.new_sheets[players](), game.new_sheets[players]()
        assert list(a.items()) == list(blank.items()) and list(engine.new_match(game, players, 1).sheet) == list(blank)
        lists = [col for sheet in (blank, a, b) for col in sheet.values()]
        lists += [row for sheet in (blank, a, b) for name in game.pair_columns for row in sheet[name]]
        assert len({id(x) for x in lists}) == len(lists)
        assert repr(a) == repr(blank)  # cells of the same type (an int 0, not 0.0)


@pytest.mark.parametrize("zero", [0, Fraction(0), 0.0])
def test_a_sheet_equal_to_a_blank_one_but_not_of_ints_keeps_its_type(zero, monkeypatch):
    """A cell equal to 0 that is a Fraction or float makes differences of its own type (scoring here writes 5
    over the pool's first cell)."""
    game = game_of("games/preferans.yaml")
    monkeypatch.setattr(game, "scoring", lambda st: st.sheet["pool"].__setitem__(0, 5))

    def entries():
        st = engine.new_match(game, 3, 4)
        st.sheet["pool"][0] = zero
        _to_end(st, random.Random(4))
        return st.deals[-1]["entries"]

    ours = entries()
    assert ours == {"pool": {0: 5}} and type(ours["pool"][0]) is type(zero)
