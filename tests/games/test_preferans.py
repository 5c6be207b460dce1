"""Russian Preferans (Sochi): stacked deals played through the engine.

Every expected number below is worked out by hand from the rules (shared/rules/preferans.md and, where they
differ, docs/seed-notes/preferans.md); the scenario files in tests/scenarios/preferans/ say how each deal goes.
Game values: 6 -> 2, 7 -> 4, 8 -> 6, 9 -> 8, 10 -> 10, misère 10. Joint targets: 6 -> 4, 7 -> 2, 8/9 -> 1.
Seats: with dealer South and 3 players, West is 1st hand, then North, then South.
"""
from __future__ import annotations

import glob
import os
from fractions import Fraction

import pytest

from interp.engine import match as engine
from interp.engine.wording import parse_move
from interp.spec.compiler import load_game
from tests.conftest import ROOT
from tests.scenario_helpers import Scenarios

SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "preferans")
GAMES = os.path.join(ROOT, "games")


SCENES = Scenarios("preferans")
play, scenario_data, play_with = SCENES.play, SCENES.data, SCENES.play_with


def trick_moves(result: dict) -> list:
    """The moves of the card play (the last 30 moves of a played deal; none for a deal settled without play)."""
    played = sum(" plays " in e for e in result["events"])
    return result["moves"][len(result["moves"]) - played:] if played else []


# -- sanity of the stacked deals ----------------------------------------------------------------------------------
ALL = sorted(os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(SCENARIOS, "*.yaml")))


@pytest.mark.parametrize("name", ALL)
def test_every_scenario_deals_the_whole_pack_and_finishes(name):
    """Each stacked deal uses the 32 cards exactly: 10 to each active player and 2 to the talon."""
    data = scenario_data(name)
    hands = data["zones"]["hand"]
    assert len(hands) == 3 and all(len(h) == 10 for h in hands.values())
    cards = [c for h in hands.values() for c in h] + data["zones"]["talon"]
    assert len(cards) == 32 and len(set(cards)) == 32
    assert play(name)["finished"]


# -- auction ------------------------------------------------------------------------------------------------------
def test_first_call_is_six_spades_misere_or_pass(tmp_path):
    """1st hand may open only with 6♠ (no jumps), misère, or pass."""
    result = play_with(tmp_path, "auction-1-made-two-whists", moves=0)
    assert result["to_move"] == "West"
    assert sorted(result["legal"]) == ["6S", "misere", "pass"]


def test_auction_example_1(tmp_path):
    """A 6♠, B pass, C 6♣, A "same", C 6♦, A pass -> C wins: an earlier seat may hold a later seat's bid,
    a later seat must bid the next contract."""
    after = play_with(tmp_path, "auction-1-made-two-whists", moves=3)    # 6S pass 6C
    assert after["to_move"] == "West" and sorted(after["legal"]) == ["6D", "hold", "pass"]
    after = play_with(tmp_path, "auction-1-made-two-whists", moves=4)    # ... hold
    assert after["to_move"] == "South" and sorted(after["legal"]) == ["6D", "pass"]
    result = play("auction-1-made-two-whists")
    assert "South wins the auction with 6♦" in result["events"]


def test_auction_example_2(tmp_path):
    """A pass, B 6♠, C 6♣, B "same", C pass -> B wins with 6♣."""
    after = play_with(tmp_path, "auction-2-failed-one-whist", moves=3)   # pass 6S 6C
    assert after["to_move"] == "North" and sorted(after["legal"]) == ["6D", "hold", "pass"]
    after = play_with(tmp_path, "auction-2-failed-one-whist", moves=4)   # ... hold
    assert after["to_move"] == "South" and sorted(after["legal"]) == ["6D", "pass"]
    result = play("auction-2-failed-one-whist")
    assert "North wins the auction with 6♣" in result["events"]


def test_jump_bids_are_an_option(tmp_path):
    """Seed: some allow bidding past the next contract. Off by default: after 6♠ pass, South may bid only 6♣
    (or, his first call, misère; or pass); with jump_bids he may bid any higher contract, and jumps straight to 7♦, which he makes:
    pool +4, whists 2 x 4 and 1 x 4 (7 is worth 4), the defenders' 3 tricks over their target of 2."""
    plain = play_with(tmp_path, "jump-bid", moves=2, options={})
    assert plain["to_move"] == "South" and sorted(plain["legal"]) == ["6C", "misere", "pass"]
    jumps = play_with(tmp_path, "jump-bid", moves=2)
    assert len(jumps["legal"]) == len(plain["legal"]) + 23                # 6♦ … 10NT besides 6♣: 24 contracts
    assert {"6C", "7D", "10NT", "misere"} <= set(jumps["legal"]) and "6S" not in jumps["legal"]
    result = play("jump-bid")
    assert "South wins the auction with 7♦" in result["events"]
    assert result["entries"] == {"pool": {"South": 4}, "whists": {"West>South": 8, "North>South": 4}}


def test_declared_contract_is_at_least_the_bid(tmp_path):
    """Won with 6♦: the declarer may declare 6♦, 6♥, 6NT or any contract of level 7+, never 6♠/6♣ or misère."""
    result = play_with(tmp_path, "auction-1-made-two-whists", moves=8)   # auction, then discards 10H 7H
    expected = ["6D", "6H", "6NT"] + [f"{level}{strain}" for level in (7, 8, 9, 10)
                                      for strain in ("S", "C", "D", "H", "NT")]
    assert sorted(result["legal"]) == sorted(expected)


def test_misere_contract_must_be_misere(tmp_path):
    """Won with misère, the declarer must declare misère."""
    result = play_with(tmp_path, "misere-made", moves=5)                 # misere pass pass AH AD
    assert result["legal"] == ["misere"]


def test_misere_is_beaten_by_a_nine_and_its_bidder_must_pass(tmp_path):
    """Only a 9 beats misère (with no jumps: 9♠), and the misère bidder must then pass."""
    after = play_with(tmp_path, "misere-made", moves=1)                  # West: misere
    assert sorted(after["legal"]) == ["9S", "pass"]
    after = play_with(tmp_path, "misere-made", moves=["misere", "9S", "pass"])
    assert after["to_move"] == "West" and after["legal"] == ["pass"]


# -- contracts with whist -----------------------------------------------------------------------------------------
def test_made_contract_with_two_whisters():
    """6♦ made with 7 tricks: pool +2; each whister writes own tricks x 2 (greedy whist) whether or not the
    contract is made; joint target 4 missed (3), North's 1 trick < personal 2: North mountain (2-1) x 2 = 2."""
    result = play("auction-1-made-two-whists")
    assert result["facts"]["tricks"] == {"South": 7, "West": 2, "North": 1}
    assert result["entries"] == {"pool": {"South": 2}, "mountain": {"North": 2},
                                 "whists": {"West>South": 4, "North>South": 2}}


def test_failed_contract_with_one_whister():
    """6♣ with 4 tricks: 2 undertricks x 2 = 4 to the mountain; consolation 4 from each other player (the
    passer West too); the single whister South owns all 6 defenders' tricks: greedy 6 x 2 = 12 (16 in all).
    No whister penalty: with the declarer down, the defenders always reach their target."""
    result = play("auction-2-failed-one-whist")
    assert result["facts"]["call"] == {"South": "whist", "West": "pass", "North": "none"}
    assert result["facts"]["tricks"] == {"South": 4, "West": 2, "North": 4}
    assert result["entries"] == {"mountain": {"North": 4}, "whists": {"South>North": 16, "West>North": 4}}


def test_seven_level_whister_penalised():
    """7♦ (declared above the 6♠ bid) made with 9: pool +4; West's 1 trick: greedy 1 x 4; joint target 2
    missed, North (0 < personal 1) mountain 1 x 4 = 4."""
    result = play("seven-whister-penalty")
    assert result["facts"]["contract"] == "7D"
    assert result["entries"] == {"pool": {"South": 4}, "mountain": {"North": 4}, "whists": {"West>South": 4}}


def test_second_whister_carries_a_target_of_one():
    """Levels 8-9, two whisters: the 1 trick is the personal target of the second defender to whist. Declarer
    West, so North whists first and South second; defenders take 0: South mountain 1 x 6, North nothing."""
    result = play("eight-second-whister")
    assert result["entries"] == {"pool": {"West": 6}, "mountain": {"South": 6}}


def test_split_one_trick_penalty(tmp_path):
    """Variant split_one_trick_penalty: with a joint target of 1, two whisters share the penalty half each:
    the 8♠ deal above gives North and South 6 / 2 = 3 each instead of 6 to South."""
    result = play_with(tmp_path, "eight-second-whister", options={"split_one_trick_penalty": True})
    assert result["entries"] == {"pool": {"West": 6}, "mountain": {"North": 3, "South": 3}}


def test_open_whist_the_whister_plays_both_hands():
    """One whister may play open: he makes the moves for the passer's hand. All 3 defenders' tricks are his:
    whists 3 x 2 = 6; joint target 4 missed, personal target 4: mountain (4-3) x 2 = 2; North pool +2."""
    result = play("open-whist")
    south = set(scenario_data("open-whist")["zones"]["hand"]["South"])
    by_south_hand = [m for m in trick_moves(result) if m["move"] in south]
    assert len(by_south_hand) == 10 and all(m["seat"] == "West" for m in by_south_hand)
    assert any(e.startswith("South's hand shown") for e in result["events"])
    assert result["facts"]["tricks"] == {"South": 1, "West": 2, "North": 7}
    assert result["entries"] == {"pool": {"North": 2}, "mountain": {"West": 2}, "whists": {"West>North": 6}}


def test_half_whist_then_pass_is_not_played():
    """Half-whist answered by a pass: no play; the half-whister is credited half the joint target (2 tricks at
    level 6) and writes 2 x 2 = 4 whists; the declarer is credited 8 and makes 6♥: pool +2."""
    result = play("half-whist-pass")
    assert not trick_moves(result)
    assert result["facts"]["tricks"] == {"South": 0, "West": 2, "North": 8}
    assert result["entries"] == {"pool": {"North": 2}, "whists": {"West>North": 4}}


def test_whist_after_a_half_whist_makes_the_half_whister_a_passer(tmp_path):
    """After a half-whist the other defender may whist instead: the half-whister becomes a passer and the deal is
    played with a single whister (here South, closed). North takes 7, the defenders 3: South writes 3 x 2 = 6 and
    misses his personal target 4: mountain (4-3) x 2 = 2; North pool +2."""
    play_moves = scenario_data("open-whist")["moves"].split()[-30:]
    result = play_with(tmp_path, "half-whist-pass",
                       moves="pass 6S pass 8H 7H 6H pass half whist closed".split() + play_moves)
    assert result["facts"]["call"] == {"South": "whist", "West": "pass", "North": "none"}
    assert result["entries"] == {"pool": {"North": 2}, "mountain": {"South": 2}, "whists": {"South>North": 6}}


def test_half_whist_only_after_a_pass_at_levels_6_and_7(tmp_path):
    """Half-whist is offered to the second defender only when the first passed, and only at levels 6 and 7."""
    after_pass = play_with(tmp_path, "half-whist-pass", moves="pass 6S pass 8H 7H 7H pass".split())
    assert sorted(after_pass["legal"]) == ["half", "pass", "whist"]
    after_whist = play_with(tmp_path, "half-whist-pass", moves="pass 6S pass 8H 7H 7H whist".split())
    assert sorted(after_whist["legal"]) == ["pass", "whist"]
    level_8 = play_with(tmp_path, "half-whist-pass", moves="pass 6S pass 8H 7H 8H pass".split())
    assert sorted(level_8["legal"]) == ["pass", "whist"]


def test_both_defenders_pass():
    """Both defenders pass: no play, the declarer is credited 10 tricks: pool += 4 for 7♥, nothing else."""
    result = play("both-pass")
    assert not trick_moves(result)
    assert result["facts"]["tricks"]["North"] == 10
    assert result["entries"] == {"pool": {"North": 4}}


def test_level_ten_without_target_and_consolation():
    """Level 10 (default): no whist/pass calls, hands played open; 1 undertrick: mountain 10 and consolation
    10 from each other player; no greedy whists."""
    result = play("ten-failed")
    assert not any(m["move"] in ("whist", "pass") for m in result["moves"][3:])
    assert any(e.startswith("North's hand shown") for e in result["events"])
    assert result["entries"] == {"mountain": {"West": 10}, "whists": {"North>West": 10, "South>West": 10}}


# -- misère -------------------------------------------------------------------------------------------------------
def test_misere_made():
    """Misère made (no trick): pool +10, no whists. Declarer is 1st hand: the defenders' hands are shown after
    his first card."""
    result = play("misere-made")
    events = result["events"]
    assert events.index("West plays 7♠") < next(i for i, e in enumerate(events) if e.startswith("North's hand shown"))
    assert result["entries"] == {"pool": {"West": 10}}


def test_misere_failed():
    """Misère failed: mountain += tricks taken x 10 (2 tricks: 20); no consolation, no whists. The declarer is
    not 1st hand, so the defenders' hands are shown before the first card."""
    result = play("misere-failed")
    events = result["events"]
    assert next(i for i, e in enumerate(events) if e.startswith("West's hand shown")) < events.index("North plays 7♥")
    assert result["facts"]["tricks"]["South"] == 2
    assert result["entries"] == {"mountain": {"South": 20}}


# -- raspasy ------------------------------------------------------------------------------------------------------
def test_raspasy_three_players_talon_leads_and_cannot_win():
    """3-player raspasy with the talon: the talon leads tricks 1-2 and cannot win (AH loses to South's 9H);
    1st hand leads trick 3; mountain += tricks; the player with no trick gets pool +1."""
    result = play("raspasy-3")
    events = result["events"]
    assert "turned up from the talon: A♥" in events and "South wins trick 1" in events
    assert "North wins trick 2" in events and result["moves"][9]["seat"] == "West"   # trick 3's lead
    assert result["facts"]["tricks"] == {"South": 7, "West": 0, "North": 3}
    assert result["entries"] == {"pool": {"West": 1}, "mountain": {"South": 7, "North": 3}}


def test_raspasy_four_players_talon_wins_for_the_dealer():
    """4-player raspasy: the dealer sits out; a talon card can win and its trick counts for the dealer
    (mountain +1); the dealer took a trick, so no pool point for him."""
    result = play("raspasy-4")
    assert {m["seat"] for m in result["moves"]} == {"West", "North", "East"}
    assert result["facts"]["tricks"] == {"South": 1, "West": 0, "North": 3, "East": 6}
    assert result["entries"] == {"pool": {"West": 1}, "mountain": {"South": 1, "North": 3, "East": 6}}


def test_raspasy_four_players_dealer_pool_point(tmp_path):
    """The talon won nothing: on the literal reading ("everyone" with no trick gets 1) the dealer gets pool +1;
    the switch raspasy_dealer_pool turns that off."""
    result = play("raspasy-4-dealer-point")
    assert result["entries"] == {"pool": {"South": 1}, "mountain": {"West": 1, "North": 3, "East": 6}}
    off = play_with(tmp_path, "raspasy-4-dealer-point", options={"raspasy_dealer_pool": False})
    assert off["entries"] == {"mountain": {"West": 1, "North": 3, "East": 6}}


# -- 4 players ----------------------------------------------------------------------------------------------------
def test_four_players_dealer_gets_consolation():
    """4 players (variant file preferans-4.yaml): the declarer fails 6♣ by 2; the sitting-out dealer South
    writes consolation 2 x 2 = 4 like the defenders; East (whister) adds greedy 6 x 2 = 12."""
    result = play("four-failed-consolation")
    assert result["players"] == 4
    assert result["entries"] == {"mountain": {"North": 4},
                                 "whists": {"South>North": 4, "West>North": 4, "East>North": 16}}


def test_four_players_dealer_whists_with_a_defenders_hand():
    """4 players, level 8, both defenders pass: the dealer looks at a defender's hand, whists with it and plays
    it; he is the single whister: 1 defenders' trick x 6 = 6 whists; joint target 1 met, no penalty."""
    result = play("four-dealer-whist")
    east = set(scenario_data("four-dealer-whist")["zones"]["hand"]["East"])
    by_east_hand = [m for m in trick_moves(result) if m["move"] in east]
    assert len(by_east_hand) == 10 and all(m["seat"] == "South" for m in by_east_hand)
    assert result["entries"] == {"pool": {"West": 6}, "whists": {"South>West": 6}}


def test_four_players_the_dealer_sees_the_hand_before_he_decides(tmp_path):
    """Seed: the dealer looks at one defender's hand, then says whist or pass. Before the look his view shows
    neither defender's hand; he picks one; his view then shows that hand (not the other) while he decides."""
    game = load_game(os.path.join(GAMES, "preferans.yaml"))
    data = scenario_data("four-dealer-looks-then-passes")
    stack = {game.zone_id("hand", game.seat_names.index(seat), 4): [game.deck.parse(c) for c in cards]
             for seat, cards in data["zones"]["hand"].items()}
    stack[game.zone_id("talon", None, 4)] = [game.deck.parse(c) for c in data["zones"]["talon"]]
    st = engine.new_match(game, 4, 0, {}, dealer=0, stack=stack)
    moves = data["moves"].split()
    for text in moves[:moves.index("North")]:
        engine.apply(st, parse_move(st, text))
    south, north, east = (game.seat_names.index(s) for s in ("South", "North", "East"))

    def seen(seat):
        return st.view(south).zones[game.zone_id("hand", seat, 4)]
    assert engine.to_move(st) == south and sorted(engine.notation(st, m) for m in engine.legal_moves(st)) == \
        ["East", "North"]
    assert seen(north) == [] and seen(east) == []
    engine.apply(st, parse_move(st, "North"))
    assert engine.to_move(st) == south and [engine.notation(st, m) for m in engine.legal_moves(st)] == \
        ["pass", "whist"]
    assert sorted(seen(north)) == sorted(st.zones[game.zone_id("hand", north, 4)]) and len(seen(north)) == 10
    assert seen(east) == []
    assert play("four-dealer-looks-then-passes")["entries"] == {"pool": {"West": 6}}


# -- the pool and the settlement ----------------------------------------------------------------------------------
def test_pool_overflow_seed_example():
    """Target 20, pools A 18, B 10, C 12; A makes an 8 (+6): A 20, the other 4 to C (12 -> 16), A writes
    4 x 10 = 40 whists on C."""
    result = play("pool-overflow")
    assert result["entries"] == {"pool": {"West": 2, "South": 4}, "whists": {"West>South": 40}}
    assert result["sheet"]["pool"] == {"South": 16, "West": 20, "North": 10}


def test_pool_overflow_tie_goes_to_the_left_neighbour(tmp_path):
    """Equal pools below the target: the excess goes to the writer's left-hand neighbour (West's left: North)."""
    result = play_with(tmp_path, "pool-overflow", sheet={"pool": {"West": 18, "North": 12, "South": 12}})
    assert result["entries"] == {"pool": {"West": 2, "North": 4}, "whists": {"West>North": 40}}


def test_pool_overflow_passes_on(tmp_path):
    """If the receiver's pool passes the target too, the rest goes on: North 19 takes 1, South 12 takes 3."""
    result = play_with(tmp_path, "pool-overflow", sheet={"pool": {"West": 18, "North": 19, "South": 12}})
    assert result["entries"] == {"pool": {"West": 2, "North": 1, "South": 3},
                                 "whists": {"West>North": 10, "West>South": 30}}


def test_pool_overflow_nobody_can_take_it(tmp_path):
    """When every other pool is full, the excess reduces the writer's own mountain (here below zero)."""
    result = play_with(tmp_path, "pool-overflow", sheet={"pool": {"West": 18, "North": 20, "South": 20}})
    assert result["entries"] == {"pool": {"West": 2}, "mountain": {"West": -4}}


def settlement(players: int, mountains: list, whists: dict | None = None) -> list:
    """engine.results on a hand-made sheet; seats in index order South, West, North(, East)."""
    game = load_game(os.path.join(GAMES, "preferans.yaml"))
    st = engine.new_match(game, players, options={}, dealer=0, deal=False)
    st.sheet["mountain"] = list(mountains)
    for (a, b), v in (whists or {}).items():
        st.sheet["whists"][a][b] = v
    return engine.results(st)


def test_settlement_seed_notes_example():
    """Mountains 12/4/0, no whists: mean 16/3; result = -10 x (m - mean) -> -66.67/+13.33/+53.33, rounded
    toward zero (winners lose, losers gain the fraction): -66/+13/+53, summing to 0."""
    assert settlement(3, [12, 4, 0]) == [-66, 13, 53]


def test_settlement_with_whists():
    """Mountains 10/4/1 (mean 5), whists A>B 30, B>C 12, C>A 7. Paying each other player m' x 10 / 3 with
    m' = m - 1 = 9/3/0: A receives 30 + 10 = 40 and gives 7 + 2 x 30 = 67 -> -27; B receives 12 + 30 = 42,
    gives 30 + 2 x 10 = 50 -> -8; C receives 7 + 30 + 10 = 47, gives 12 -> +35. Sum 0."""
    results = settlement(3, [10, 4, 1], {(0, 1): 30, (1, 2): 12, (2, 0): 7})
    assert results == [-27, -8, 35] and sum(results) == 0


def test_settlement_four_players_rounds_toward_zero():
    """4 players, mountains 5/0/0/0: mean 1.25; -37.5 -> -37 and +12.5 -> +12 each; the sum is off by the
    rounding only (-1)."""
    results = settlement(4, [5, 0, 0, 0])
    assert results == [-37, 12, 12, 12] and abs(sum(results)) < 4


# -- variants -----------------------------------------------------------------------------------------------------
def test_variant_files_change_only_defaults():
    """preferans-4.yaml defaults to 4 players; preferans-stalingrad.yaml switches stalingrad on; nothing else."""
    base = load_game(os.path.join(GAMES, "preferans.yaml"))
    four = load_game(os.path.join(GAMES, "preferans-4.yaml"))
    stalingrad = load_game(os.path.join(GAMES, "preferans-stalingrad.yaml"))
    assert (base.default_players, four.default_players, stalingrad.default_players) == (3, 4, 3)
    assert four.options == base.options
    changed = {k for k in base.options if base.options[k] != stalingrad.options[k]}
    assert changed == {"stalingrad"} and stalingrad.options["stalingrad"]["default"] is True


def test_stalingrad_six_spades_whisted_by_both(tmp_path):
    """Stalingrad: 6♠ is whisted by both defenders without asking. West takes all 10: pool +2; both miss
    their personal target 2: mountain (2-0) x 2 = 4 each. Other contracts (6♣) ask as usual."""
    result = play("stalingrad-6s")
    assert result["moves"][5]["move"] == "6S" and result["moves"][6]["move"] == "AS"
    assert result["facts"]["call"] == {"South": "whist", "West": "none", "North": "whist"}
    assert result["entries"] == {"pool": {"West": 2}, "mountain": {"North": 4, "South": 4}}
    other = play_with(tmp_path, "stalingrad-6s", moves="6S pass pass KC QC 6C".split())
    assert other["to_move"] == "North" and sorted(other["legal"]) == ["pass", "whist"]
    base = play_with(tmp_path, "stalingrad-6s", spec="../../../games/preferans.yaml", moves=6)
    assert sorted(base["legal"]) == ["pass", "whist"]


def test_misere_without_talon(tmp_path):
    """Variant: the misère bidder, outbid by a 9, may answer with misère without talon (only then); it ranks
    above the 9s; no talon is taken and nothing is discarded; made: pool +10."""
    result = play("misere-without-talon")
    assert not any(e.startswith("talon shown") or "discards" in e for e in result["events"])
    assert [m["move"] for m in result["moves"][5:7]] == ["misere_nt", "7S"]
    assert result["facts"]["declarer"] == "West" and result["facts"]["contract"] == "misere_nt"
    assert result["entries"] == {"pool": {"West": 10}}
    start = play_with(tmp_path, "misere-without-talon", moves=0)
    assert "misere_nt" not in start["legal"]
    others = play_with(tmp_path, "misere-without-talon", moves=2)          # misere 9S: South never bid misère
    assert others["to_move"] == "South" and sorted(others["legal"]) == ["9C", "pass"]
    answer = play_with(tmp_path, "misere-without-talon", moves=3)          # ... pass: back to West
    assert answer["to_move"] == "West" and sorted(answer["legal"]) == ["misere_nt", "pass"]
    locked = play_with(tmp_path, "misere-without-talon", moves=4)          # ... misere_nt: North
    assert locked["to_move"] == "North" and sorted(locked["legal"]) == ["10S", "pass"]
    off = play_with(tmp_path, "misere-without-talon", moves=3, options={})
    assert off["legal"] == ["pass"]


def test_raspasy_without_talon():
    """Variant: raspasy without the talon: 1st hand leads trick 1 from his hand; each winner leads next."""
    result = play("raspasy-no-talon")
    assert not any(e.startswith("turned up") for e in result["events"])
    assert result["moves"][3] == {"seat": "West", "move": "7H", "text": "7♥"}
    assert result["facts"]["tricks"] == {"South": 8, "West": 1, "North": 1}
    assert result["entries"] == {"mountain": {"South": 8, "West": 1, "North": 1}}


def test_half_whist_after_whist(tmp_path):
    """Variant: the first defender, having whisted, may turn to half-whist after the second passed; the second
    then passes: no play, the half-whister is credited 1 trick at level 7 (4 whists), the declarer 9 (pool +4)."""
    result = play("half-whist-after-whist")
    assert not trick_moves(result)
    assert result["facts"]["tricks"] == {"South": 1, "West": 0, "North": 9}
    assert result["entries"] == {"pool": {"North": 4}, "whists": {"South>North": 4}}
    off = play_with(tmp_path, "half-whist-after-whist", moves=8, options={})   # ... 7H whist pass
    assert off["to_move"] == "South" and sorted(off["legal"]) == ["closed", "open"]


def test_concede(tmp_path):
    """Variant: after the talon the declarer may concede: mountain 3 x game value (7♥: 12) and nothing else."""
    result = play("concede")
    assert result["moves"][-1]["move"] == "concede" and result["facts"]["conceded"] is True
    assert result["entries"] == {"mountain": {"North": 12}}
    on = play_with(tmp_path, "concede", moves=6)                           # ... 7H declared
    assert on["to_move"] == "North" and sorted(on["legal"]) == ["concede", "play"]
    off = play_with(tmp_path, "concede", moves=6, options={})
    assert off["to_move"] == "South" and sorted(off["legal"]) == ["pass", "whist"]


def test_ten_whist():
    """Variant: level 10 has a defenders' target of 1 with ordinary whist/pass. West makes 10♠: pool +10; the
    single whister North took 0 < 1: mountain 1 x 10 = 10."""
    result = play("ten-whist")
    assert [m["move"] for m in result["moves"][6:8]] == ["whist", "pass"]
    assert result["entries"] == {"pool": {"West": 10}, "mountain": {"North": 10}}


def test_a_standing_counts_each_missing_pool_point_as_a_mountain_point():
    # As if ended now by agreement (`agreed_end`): after a 6♥ made by North (pool 2) against two whisters who
    # took a trick each (mountain 2 each, 2 whists each on North), with a pool target of 10, the points owed are
    # 2 + 10, 2 + 10 and 0 + 8 (mean 32/3): South 2 - 10 * (12 - 32/3) = -34/3, North -4 - 10 * (8 - 32/3) = 68/3.
    # With no whists and no mountain, a pool of 4 (a 7 made) is worth North 40/3 more than a pool of 2 (a 6):
    # 10 * ((8 - 28/3) - (6 - 26/3)).
    st = engine.new_match(load_game(os.path.join(ROOT, "games", "preferans.yaml")), 3, 1)
    st.sheet.update(pool=[0, 0, 2], mountain=[2, 2, 0], whists=[[0, 0, 2], [0, 0, 2], [0, 0, 0]])
    assert engine.standings(st) == [Fraction(-34, 3), Fraction(-34, 3), Fraction(68, 3)]
    st.sheet.update(pool=[0, 0, 4], mountain=[0, 0, 0], whists=[[0, 0, 0]] * 3)
    seven = engine.standings(st)[2]
    st.sheet.update(pool=[0, 0, 2])
    assert seven - engine.standings(st)[2] == Fraction(40, 3)
