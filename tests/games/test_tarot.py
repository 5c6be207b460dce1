"""French Tarot: stacked deals played through the engine (tests/scenarios/tarot/), the deck, the bidding guide.

Every expected number is worked out by hand from the rules (shared/rules/tarot.md, and where they differ the seed,
docs/seed-notes/tarot.md); the scenario files say how each deal goes. Card points in half points: oudlers (T1, T21,
EX) and Kings 4.5, Queens 3.5, Knights 2.5, Jacks 1.5, every other card 0.5. Targets: 3 oudlers 36, 2 → 41,
1 → 51, 0 → 56. Per defender: (25 + difference, rounded up) × multiplier + poignée, all signed for the side
that wins, plus petit au bout ×multiplier and the slam bonus, for the taker.
Seats in play order: Anne, Bruno, Claire, David (, Emma); the first to bid and lead is the dealer's next seat.
"""
from __future__ import annotations

import glob
import json
import os
import random
import subprocess
import sys

import pytest

from interp.bots.agents import HeuristicAgent
from interp.engine import match as engine
from interp.engine.events import lines
from interp.engine.wording import parse_move
from interp.runs.simulate import play_deal, random_playouts, simulate
from interp.spec.compiler import load_game
from tests.conftest import ROOT, game_of
from tests.scenario_helpers import Scenarios

SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "tarot")
TAROT = os.path.join(ROOT, "games", "tarot.yaml")
TAROT_FILES = sorted(glob.glob(os.path.join(ROOT, "games", "tarot*.yaml")))


SCENES = Scenarios("tarot")
play, scenario_data, play_with = SCENES.play, SCENES.data, SCENES.play_with


@pytest.fixture(scope="module")
def tarot():
    return load_game(TAROT)


# -- the deck and the counting ------------------------------------------------------------------------------------
def test_the_deck_has_78_cards_and_91_points(tarot):
    deck = tarot.deck
    assert len(deck) == 78
    assert sum(deck.points) == 91          # 4 × (4.5 + 3.5 + 2.5 + 1.5 + 10 × 0.5) + 3 × 4.5 + 19 × 0.5
    assert deck.points[deck.parse("CH")] == 2.5 and deck.points[deck.parse("1S")] == 0.5
    assert deck.points[deck.parse("EX")] == 4.5 and deck.points[deck.parse("T20")] == 0.5
    assert deck.rank_of[deck.parse("KS")] > deck.rank_of[deck.parse("QS")] > deck.rank_of[deck.parse("CS")] \
        > deck.rank_of[deck.parse("JS")] > deck.rank_of[deck.parse("10S")] > deck.rank_of[deck.parse("1S")]
    assert deck.suit_of[deck.parse("T21")] == "T" and deck.rank_of[deck.parse("T21")] == 21


@pytest.mark.parametrize("name", sorted(os.path.splitext(os.path.basename(p))[0]
                                        for p in glob.glob(os.path.join(SCENARIOS, "*.yaml"))))
def test_every_scenario_places_the_78_cards(name):
    data = scenario_data(name)
    hands = data["zones"]["hand"]
    cards = [c for h in hands.values() for c in h] + data["zones"]["chien"]
    assert len(cards) == 78 and len(set(cards)) == 78
    assert len(data["zones"]["chien"]) == (3 if data["players"] == 5 else 6)
    assert all(len(h) == (78 - len(data["zones"]["chien"])) // data["players"] for h in hands.values())


# -- a prise made: the Excuse exchange, petit au bout, a poignée ----------------------------------------------------
def test_prise_made_with_the_excuse_exchange():
    """Anne wins tricks 1-14 and 18, the defence 15-17. Her side's cards, trick by trick:
    1: T21 T8 T5 T2 = 6; 2, 3: three trumps and a trump each = 2, 2; 4: T18 T11 6S 9C = 2; 5: T17 2C 7S 10C = 2;
    6: T16 3C 8S JC = 3; 7: T15 4C 9S CC = 4; 8: 2; 9: T13 6C JS 8H = 3; 10: T12 7C CS 9H = 4;
    11: KS 4S QS (the Excuse goes back) = 8.5; 12: KH 4H 5H 10H = 6; 13: KD 9D 10D 2D = 6; 14: KC 1C 8C QC = 9;
    18: QH 6H CH T1 = 11; the discard 1S 2S 3S 1H 2H 3H = 3; and the half point the defence pays once it has won
    trick 15 = 0.5. Total 74 (the defence: 5 + 4 + 4 + the Excuse 4.5 - 0.5 = 17; 74 + 17 = 91).
    Oudlers T21 and T1: target 41, made by 33. Prise x1, petit au bout for the taker +10, single poignée 20:
    (25 + 33) x 1 + 20 + 10 = 88 from each defender."""
    result = play("prise-excuse-exchange")
    facts = result["facts"]
    assert facts["taker"] == "Anne" and facts["contract"] == "prise"
    assert facts["card_points"] == 74 and facts["oudlers"] == 2
    assert facts["petit_au_bout"] == "taker" and facts["slam"] == "none"
    assert facts["poignee"] == {"Anne": "single", "Bruno": "none", "Claire": "none", "David": "none"}
    assert result["entries"] == {"total": {"Anne": 264, "Bruno": -88, "Claire": -88, "David": -88}}
    assert result["breakdown"] == ["taker: Anne", "contract: prise", "taker's points: 74", "oudlers: 2", "target: 41", "difference: 33",
                                   "multiplier: 1", "petit au bout: taker", "poignée: 20", "slam: 0",
                                   "each defender pays: 88"]


def test_the_chien_is_shown_and_the_poignee_trumps_too():
    events = play("prise-excuse-exchange")["events"]
    assert "chien shown: 1♠ 2♠ 3♠ 1♥ 2♥ 3♥" in events
    assert "Anne announces a single poignée" in events
    assert "Anne shows T21 T20 T19 T18 T17 T16 T15 T14 T13 T12 T1" in events


def test_the_excuse_exchange_waits_until_the_defence_has_won_a_card(tmp_path):
    """After trick 11 the Excuse is back with the defence, which has nothing to pay with yet."""
    moves = scenario_data("prise-excuse-exchange")["moves"].split()
    upto = moves.index("EX") + 1                       # the end of trick 11
    data = scenario_data("prise-excuse-exchange")
    data["spec"] = os.path.normpath(os.path.join(SCENARIOS, data["spec"]))
    data["moves"] = moves[:upto]
    game = load_game(TAROT)
    st = _state_after(game, data)
    attack, defence = _pile(st, "attack"), _pile(st, "defence")
    assert defence == ["EX"] and st.vars["defence_owes"] == 1
    assert sum(game.deck.points[game.deck.parse(c)] for c in attack) == 38.5   # tricks 1-11 without the Excuse
    data["moves"] = moves[:upto + 16]                  # tricks 12-15: the defence wins 15 and pays at once
    st = _state_after(game, data)
    assert st.vars["defence_owes"] == 0 and "4D" in _pile(st, "attack")   # the first half-point card it won


def _state_after(game, data, options: dict | None = None):
    """The engine state of a scenario's data (`moves` a list) after its moves, with `options`."""
    n = data["players"]
    stack = {game.zone_id("hand", game.seat_names.index(s), n): [game.deck.parse(c) for c in cards]
             for s, cards in data["zones"]["hand"].items()}
    stack[game.zone_id("chien", None, n)] = [game.deck.parse(c) for c in data["zones"]["chien"]]
    st = engine.new_match(game, n, 0, options or {}, dealer=game.seat_names.index(data["dealer"]), stack=stack)
    for text in data["moves"]:
        engine.apply(st, parse_move(st, text))
    return st


def _pile(st, zone: str) -> list:
    return [st.game.deck.code(c) for c in st.zones[st.game.zone_id(zone, None, st.n)]]


# -- the Excuse in the last trick ---------------------------------------------------------------------------------
def test_the_excuse_in_the_last_trick_goes_to_the_other_side():
    """As above, but David plays the Knight of hearts to trick 11 (Anne's side gets 4.5 + 0.5 + 3.5 + 2.5 = 11
    instead of 8.5) and the Excuse to the last trick, which goes to Anne's side: QH 6H EX T1 = 13. No exchange.
    30 (tricks 1-10) + 11 + 6 + 6 + 9 + 13 + 3 (discard) = 78, with all three oudlers: target 36, made by 42:
    25 + 42 + 20 + 10 = 97 from each defender."""
    result = play("excuse-last-trick")
    facts = result["facts"]
    assert facts["card_points"] == 78 and facts["oudlers"] == 3
    assert result["entries"]["total"] == {"Anne": 291, "Bruno": -97, "Claire": -97, "David": -97}


def test_a_slam_side_leading_its_excuse_wins_the_last_trick():
    """Garde sans, slam announced: Anne wins tricks 1-17 (her Petit takes 17) and leads the Excuse to 18. The seed
    (18th trick, 全勝): with every trick before won, the led Excuse wins it, so CH KD KC are hers as well, and her
    Petit in trick 17 is petit au bout. Her side: all 91 points (the chien counts for her), 3 oudlers: target 36,
    difference 55. (25 + 55) x 4 + triple poignée 60 + 10 x 4 + slam 400 = 820."""
    result = play("slam-excuse-last")
    facts = result["facts"]
    assert facts["card_points"] == 91 and facts["oudlers"] == 3
    assert facts["slam_announced"] is True and facts["slam"] == "taker" and facts["petit_au_bout"] == "taker"
    assert facts["poignee"]["Anne"] == "triple"
    assert result["entries"]["total"] == {"Anne": 2460, "Bruno": -820, "Claire": -820, "David": -820}
    assert "difference: 55" in result["breakdown"] and "slam: 400" in result["breakdown"]
    assert "Anne wins trick 18" in result["events"]


def test_a_petit_played_by_the_other_side_is_no_petit_au_bout_for_the_slam():
    """Garde contre, slam announced: Anne captures Bruno's Petit with T2 in trick 17 and leads the Excuse to 18,
    which wins it (every card hers but the chien's 3 points: 88). The seed grants petit au bout to the slam maker
    who played the Petit himself: Bruno played it, so none. 3 oudlers: 88 - 36 = 52; 77 x 6 + 400 = 862."""
    result = play("slam-petit-captured")
    facts = result["facts"]
    assert facts["card_points"] == 88 and facts["oudlers"] == 3
    assert facts["slam"] == "taker" and facts["petit_au_bout"] == "none"
    assert result["entries"]["total"] == {"Anne": 2586, "Bruno": -862, "Claire": -862, "David": -862}
    assert "Anne wins trick 18" in result["events"]


def test_a_defence_leading_its_excuse_to_the_last_trick_makes_the_slam():
    """The same cards, Bruno taking a garde contre: Anne leads all 18 tricks for the defence, the Excuse last.
    Bruno's side wins nothing: -(25 + 56) x 6 - 200 (the defence's slam) = -686 a defender; no petit au bout
    (Bruno's own Petit, captured in trick 17)."""
    result = play("defence-slam-excuse-led")
    facts = result["facts"]
    assert facts["card_points"] == 0 and facts["slam"] == "defence" and facts["petit_au_bout"] == "none"
    assert result["entries"]["total"] == {"Anne": 686, "Bruno": -2058, "Claire": 686, "David": 686}


def test_an_excuse_not_led_to_the_last_trick_leaves_the_trick_to_its_winner():
    """The defence wins tricks 1-17; Claire plays the Excuse (not led) to 18, which Bruno's 2D wins: no slam. The
    Excuse stays with the defence (its side won the 17 before), which owes Bruno a half-point card (T3).
    Bruno's side: 1D 2D 1C T3 = 2 points: -(25 + 54) x 6 = -474 a defender."""
    result = play("excuse-not-led-last")
    facts = result["facts"]
    assert facts["card_points"] == 2 and facts["oudlers"] == 0 and facts["slam"] == "none"
    assert result["entries"]["total"] == {"Anne": 474, "Bruno": -1422, "Claire": 474, "David": 474}
    assert "Bruno wins trick 18" in result["events"]


def test_escape_wins_only_when_the_escape_card_leads():
    """Mid-trick, a bot asking who is winning sees the led Excuse winning the last trick (escape_wins)."""
    game = load_game(TAROT)
    data = scenario_data("slam-petit-captured")
    moves = data["moves"].split()
    data["moves"] = moves[:-2]                        # EX 2D played to trick 18
    st = _state_after(game, data)
    assert engine.current_phase(st).best_so_far(st) == 0      # Anne
    data = scenario_data("excuse-not-led-last")
    data["moves"] = data["moves"].split()[:-1]        # 1D 2D EX
    st = _state_after(game, data)
    assert engine.current_phase(st).best_so_far(st) == 1      # Bruno


def test_the_slam_announcer_leads(tmp_path):
    """Dealer Anne: Bruno is first to bid, and would lead, but Anne announced the slam."""
    result = play_with(tmp_path, "slam-excuse-last", moves=5)
    assert result["to_move"] == "Anne"
    assert result["legal"][0] == "poignee" and "triple-poignee" in result["legal"]


# -- 5 players: the called King -----------------------------------------------------------------------------------
def test_five_players_called_king_and_shares():
    """Anne (garde) calls the King of hearts: Claire is her partner. Her side, by tricks: 1: T21 T1 T5 T7 T10 = 10.5;
    2: 2.5; 3: T19 T3 10H T9 9D = 2.5; 4: T18 1C JH T4 (the Excuse goes back) = 3; 5: T17 2C CH 3H 10D = 4.5;
    6: T16 3C QH 4H JD = 6.5; 7: T15 4C 2D 5H CD = 4.5; 8, 9, 10: 2.5 each; Claire's 11: 2H 8C KH 9H 9S = 6.5 and
    12: KS 4S 10S 2S 9C = 6.5; 14: 5D QD KD JC 7D = 10.5; 15: KC CC 8D QC CS = 13.5; the discard 1S 1H 1D = 1.5;
    the half point the defence pays after trick 13. Total 80.5 (defence: trick 13 = 6.5, + 4.5 - 0.5 = 10.5).
    Oudlers T21, T1: target 41, difference 39.5 -> 40. (25 + 40) x 2 + double poignée 40 = 170 a share:
    Anne 2 shares, Claire 1, each defender -1."""
    result = play("five-called-king")
    facts = result["facts"]
    assert facts["partner"] == "Claire" and facts["card_points"] == 80.5 and facts["oudlers"] == 2
    assert result["entries"]["total"] == {"Anne": 340, "Bruno": -170, "Claire": 170, "David": -170, "Emma": -170}
    assert "Claire wins trick 11" in result["events"]


def test_the_called_partner_is_secret_until_the_card_is_played(tmp_path):
    game = load_game(TAROT)
    data = scenario_data("five-called-king")
    moves = data["moves"].split()
    data["moves"] = moves[:moves.index("KH", 6)]      # up to Claire's King in trick 11
    st = _state_after(game, data)
    assert st.vars["partner"] == 2 and st.vars["known_partner"] is None
    assert st.view(1).vars["partner"] is None          # Bruno cannot see it
    data["moves"] = moves[:moves.index("KH", 6) + 3]  # trick 11 complete
    st = _state_after(game, data)
    assert st.vars["known_partner"] == 2


def test_the_taker_calls_a_king_he_does_not_hold_or_any_king(tmp_path):
    result = play_with(tmp_path, "five-called-king", moves=5)
    assert sorted(result["legal"]) == ["KC", "KD", "KH", "KS"]


def test_holding_all_kings_the_taker_calls_a_queen():
    assert play("five-call-queen")["legal"] == ["QS", "QH", "QD", "QC"]


def test_holding_every_honour_the_taker_plays_alone():
    assert play("five-alone")["legal"] == ["alone"]


# -- the deal, the auction, the discard ---------------------------------------------------------------------------
def test_petit_sec_voids_the_deal():
    result = play("petit-sec")
    assert result["finished"] and result["redeal"] and "facts" in result and result["entries"] == {}
    assert "Bruno shows T1" in result["events"]


def test_petit_sec_played_on_makes_the_petit_an_excuse(tmp_path):
    result = play_with(tmp_path, "petit-sec", options={"petit_sec": "play"})
    assert not result["finished"] and result["to_move"] == "Bruno"    # the auction, from the dealer's next seat
    # Anne (dealer) takes with a garde sans and a slam, so she leads: 7H. Bruno must follow hearts, or play the Petit.
    after = play_with(tmp_path, "petit-sec", options={"petit_sec": "play"},
                      moves=["pass", "pass", "pass", "garde_sans", "slam", "7H"])
    assert after["to_move"] == "Bruno" and sorted(after["legal"]) == ["CH", "KH", "QH", "T1"]


def test_all_pass_voids_the_deal_and_the_next_dealer_deals(tarot):
    result = play("all-pass")
    assert result["redeal"] and "all pass" in result["events"]
    st = _state_after(tarot, scenario_data("all-pass") | {"moves": "pass pass pass pass".split()})
    assert st.deal_over and st.deals[-1]["redeal"] and st.sheet["total"] == [0, 0, 0, 0]
    engine.next_deal(st)
    assert st.dealer == 1 and st.deal_no == 2                  # Anne dealt; Bruno deals next


def test_auction_any_higher_bid_and_a_pass_is_final(tmp_path):
    after = play_with(tmp_path, "all-pass", moves=0)
    assert after["to_move"] == "Bruno" and after["legal"] == ["pass", "prise", "garde", "garde_sans", "garde_contre"]
    after = play_with(tmp_path, "all-pass", moves=["garde"])
    assert after["legal"] == ["pass", "garde_sans", "garde_contre"]
    after = play_with(tmp_path, "all-pass", moves=["pass", "prise", "garde", "pass"])
    assert after["to_move"] == "Claire" and after["legal"] == ["pass", "garde_sans", "garde_contre"]
    result = play_with(tmp_path, "all-pass", moves=["pass", "prise", "garde", "pass", "pass"])
    assert "David wins the auction with garde" in result["events"]       # Bruno passed: he may not come back


def test_the_discard_forbids_kings_and_oudlers_and_trumps_until_forced(tmp_path):
    """Anne's 24 cards hold only 1S 2S 1H besides trumps, Kings and the Excuse: those go first, then trumps other
    than T1 and T21 (the Excuse never), and discarded trumps are shown to everyone."""
    after = play_with(tmp_path, "discard-forced-trumps", moves=4)
    assert after["to_move"] == "Anne" and sorted(after["legal"]) == ["1H", "1S", "2S"]
    after = play_with(tmp_path, "discard-forced-trumps", moves=7)
    expected = ["T2", "T3"] + [f"T{k}" for k in range(9, 21)]
    assert sorted(after["legal"]) == sorted(expected)
    result = play("discard-forced-trumps")
    assert "Anne discards T2" in result["events"] and "Anne discards a card" not in result["events"]  # told once
    assert result["legal"] == ["no-slam", "slam"]


def test_follow_trump_overtrump_and_the_excuse(tmp_path):
    after = play_with(tmp_path, "trick-rules", moves=6)               # Anne led 1S
    assert after["to_move"] == "Bruno" and sorted(after["legal"]) == ["EX", "T10", "T5"]
    after = play_with(tmp_path, "trick-rules", moves=7)               # Bruno trumped with T10
    assert sorted(after["legal"]) == ["T3", "T8"]                      # cannot beat it: any trump
    after = play_with(tmp_path, "trick-rules", moves=8)
    assert after["to_move"] == "David" and all(c.endswith("S") for c in after["legal"])
    after = play_with(tmp_path, "trick-rules", moves=10)              # Bruno leads the Excuse
    hand = scenario_data("trick-rules")["zones"]["hand"]["Claire"]
    assert after["to_move"] == "Claire" and sorted(after["legal"]) == sorted(set(hand) - {"T3"})
    after = play_with(tmp_path, "trick-rules", moves=11)              # Claire's 5C sets the suit
    assert after["legal"] == ["9C", "10C", "JC", "CC", "QC"]
    result = play("trick-rules")
    assert "Bruno wins trick 1" in result["events"] and "David wins trick 2" in result["events"]


def _lead_with(game, n: int, leader_hand: list):
    """A stacked deal (dealer: the last seat) whose first hand holds `leader_hand`, the others dealt in deck order;
    it bids garde sans, the others pass, no slam (5 players: the first card offered is called): trick 1 is next.
    The Petit goes to the chien, so that no hand is a Petit sec."""
    deck = game.deck
    chien_size = 3 if n == 5 else 6
    fixed = [deck.parse(c) for c in leader_hand]
    rest = [c for c in range(len(deck)) if c not in fixed and c != deck.parse("T1")] + [deck.parse("T1")]
    size = (78 - chien_size) // n
    hands = [fixed + rest[:size - len(fixed)]]
    rest = rest[size - len(fixed):]
    for _ in range(n - 1):
        hands.append(rest[:size])
        rest = rest[size:]
    stack = {game.zone_id("hand", s, n): h for s, h in enumerate(hands)}
    stack[game.zone_id("chien", None, n)] = rest
    st = engine.new_match(game, n, 0, {}, dealer=n - 1, stack=stack)
    for text in ["garde_sans"] + ["pass"] * (n - 1):
        engine.apply(st, parse_move(st, text))
    while engine.current_phase(st).id != "play":
        engine.apply(st, engine.legal_moves(st)[0])
    return st


@pytest.mark.parametrize("n,single,double,triple", [(3, 13, 15, 18), (4, 10, 13, 15), (5, 8, 10, 13)])
def test_poignee_thresholds_by_player_count(tarot, n, single, double, triple):
    """Single / double / triple poignée: 13 / 15 / 18 trumps with 3 players, 10 / 13 / 15 with 4, 8 / 10 / 13 with
    5; the Excuse counts as a trump (and is shown when needed)."""
    def offered(count: int, excuse: bool) -> list:
        hand = [f"T{k}" for k in range(2, 2 + count)] + (["EX"] if excuse else [])
        st = _lead_with(tarot, n, hand)
        return [engine.notation(st, m) for m in engine.legal_moves(st) if m.kind == "option"]
    assert offered(single - 1, False) == []
    assert offered(single - 1, True) == ["poignee"]
    assert offered(double, False) == ["poignee", "double-poignee"]
    assert offered(triple - 1, True) == ["poignee", "double-poignee", "triple-poignee"]
    st = _lead_with(tarot, n, [f"T{k}" for k in range(2, 1 + single)] + ["EX"])
    engine.apply(st, parse_move(st, "poignee"))
    shown = [f"T{k}" for k in range(2, 1 + single)] + ["EX"]      # in the hand's order
    assert f"{tarot.seat_name(0, n)} shows {' '.join(shown)}" in lines(st, st.events)


# -- the bidding guide ------------------------------------------------------------------------------------------------
def test_the_bidding_guide_drives_the_bots_bids(tarot):
    """Anne's hand in prise-excuse-exchange: T21 10, Petit with 11 trumps 9, 11 trumps x 2 = 22, six trumps of 16-21
    12 and in a run 6, four Kings without Queens 24: 83; three singletons for garde sans/contre +9 = 92 >= 81:
    garde contre. Bruno: 4 trumps 8, QH 3, QD CD JD 3 + 2 + 1, seven clubs 9: 26 -> pass."""
    data = scenario_data("prise-excuse-exchange")
    data["moves"] = []
    st = _state_after(tarot, data)
    bot = HeuristicAgent(seed=0)
    move = bot.choose(st.view(0), engine.legal_moves(st))
    assert engine.notation(st, move) == "garde_contre"
    engine.apply(st, move)
    assert engine.notation(st, bot.choose(st.view(1), engine.legal_moves(st))) == "pass"


# -- random playouts of every Tarot file -----------------------------------------------------------------------------
@pytest.mark.parametrize("path", TAROT_FILES, ids=[os.path.basename(p) for p in TAROT_FILES])
def test_random_deals_count_91_points_and_balance(path):
    """Every scored deal ends with the 78 cards on the two sides' piles (91 points) and zero-sum entries."""
    game = load_game(path)
    for n in game.players:
        for seed in range(4):
            st = engine.new_match(game, n, seed)
            rng = random.Random(seed)
            while not st.deal_over:
                engine.apply(st, rng.choice(engine.legal_moves(st)))
            record = st.deals[-1]
            if record.get("redeal"):
                continue
            piles = _pile(st, "attack") + _pile(st, "defence")
            assert len(piles) == 78
            assert sum(game.deck.points[game.deck.parse(c)] for c in piles) == 91
            assert record["facts"]["card_points"] == sum(game.deck.points[game.deck.parse(c)]
                                                         for c in _pile(st, "attack"))
            assert sum(record["entries"]["total"].values()) == 0


# -- other redeals, misère, the session -------------------------------------------------------------------------------
def test_optional_redeals(tmp_path):
    """all-pass.yaml's hands: Anne holds the spades and 7-10 of hearts (no trump; 4 face cards), Bruno the
    honours of hearts and the diamonds (8 face cards), Claire the clubs and T1-T4, David T5-T21 and the Excuse."""
    assert play_with(tmp_path, "all-pass", moves=[], options={"redeal_without_trumps": True})["redeal"]
    assert play_with(tmp_path, "all-pass", moves=[], options={"redeal_honours_at_most": 4})["redeal"]
    after = play_with(tmp_path, "all-pass", moves=[], options={"redeal_honours_at_most": 3})
    assert not after["finished"] and after["to_move"] == "Bruno"


def test_misere_is_offered_to_a_hand_without_trumps_or_face_cards():
    game = load_game(os.path.join(ROOT, "games", "tarot-misere.yaml"))
    plain = [f"{r}{s}" for s in "SH" for r in range(1, 10)]           # 18 spot cards
    st = _lead_with(game, 4, plain)
    assert "misere" in [engine.notation(st, m) for m in engine.legal_moves(st)]
    engine.apply(st, parse_move(st, "misere"))
    assert st.vars["misere_declared"][0] is True and st.vars["miseres"] is True
    st = _lead_with(game, 4, plain[:-1] + ["JS"])
    assert "misere" not in [engine.notation(st, m) for m in engine.legal_moves(st)]


def test_a_session_ends_when_everyone_has_dealt_and_sums_to_zero(tarot):
    """rounds=1 with 4 players: four deals (a void one counts: the deal passed on)."""
    st = engine.new_match(tarot, 4, 11, {"rounds": 1})
    agents = {s: HeuristicAgent(s) for s in range(4)}
    while True:
        play_deal(st, agents)
        if st.match_over:
            break
        engine.next_deal(st)
    assert st.deal_no == 4 and sum(st.sheet["total"]) == 0


INTERP = [sys.executable, "-m", "interp.cli"]


def _interp(*args, stdin=""):
    return subprocess.run(INTERP + list(args), input=stdin, capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("spec", ["games/tarot.yaml", "games/tarot-5.yaml"])
def test_play_a_whole_session_at_the_terminal(tmp_path, spec):
    out = _interp("play", spec, "--seed", "4", "-o", "rounds=1", "--save", str(tmp_path / "t.json"),
                  stdin="1\n" * 2000)
    assert out.returncode == 0, out.stderr
    assert "your call" in out.stdout and "your card" in out.stdout
    assert ("each defender pays:" in out.stdout or "each defender is paid:" in out.stdout) \
        and "score sheet after deal" in out.stdout
    assert "The match is over." in out.stdout


def test_run_simulate_and_bench_every_tarot_file():
    out = _interp("run", "tests/scenarios/tarot/prise-excuse-exchange.yaml")
    assert out.returncode == 0 and "Anne: total +264" in out.stdout, out.stdout + out.stderr
    out = _interp("simulate", "games/tarot-5.yaml", "-n", "3")
    assert out.returncode == 0 and "contract" in out.stdout, out.stderr
    out = _interp("bench", "games/tarot.yaml", "--seconds", "0.05", "--json")
    assert out.returncode == 0 and [r["players"] for r in json.loads(out.stdout)] == [3, 4, 5], out.stderr
    for path in TAROT_FILES:                               # what those commands run, on every file and count
        game = game_of(os.path.relpath(path, ROOT))
        for n in game.players:
            summary = simulate(game, 2, seed=1, players=n)
            assert summary["deals"] == 2 and "outcome" in summary["stats"]
            assert random_playouts(game, 0.01, n)["playouts"] >= 1
