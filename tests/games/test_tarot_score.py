"""French Tarot score keeping (`interp score`): deals played with real cards, entered as facts.

Every expected number is worked out by hand. Per deal, `u` is what each defender pays the taker (negative: is
paid): u = s x ((25 + |points - target|, rounded up) x multiplier + poignées) + petit au bout x multiplier + slam,
with s = +1 when the points reach the target (36 / 41 / 51 / 56 for 3 / 2 / 1 / 0 oudlers), else -1; petit au bout
+10 to the taker's side or -10 to the defence's; slam +400 announced and made, -200 announced and failed, +200
unannounced, -200 for a defence slam. The taker gets (n - 1) u with 3 or 4 players; with 5, the taker 2u and the
partner u (alone: 4u); each defender -u.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from interp.runs.scenario import run_scenario
from interp.spec.compiler import load_game
from interp.spec.loader import load_spec
from interp.table.scorekeeper import score_deals
from tests.conftest import ROOT

INPUTS = os.path.join(ROOT, "tests", "score_inputs")
SCENARIOS = os.path.join(ROOT, "tests", "scenarios", "tarot")
GAMES = os.path.join(ROOT, "games")
SEATS = ["Anne", "Bruno", "Claire", "David", "Emma"]


def score_file(name: str, spec: str = "tarot.yaml"):
    doc = load_spec(os.path.join(INPUTS, name))
    return score_deals(load_game(os.path.join(GAMES, spec)), doc.data, doc)


def gains(st) -> list:
    """Each deal's entries as {seat name: gain}."""
    return [{SEATS[s]: v for s, v in d["entries"].get("total", {}).items()} for d in st.deals]


def score(spec: str, players: int, *deals: dict) -> list:
    st = score_deals(load_game(os.path.join(GAMES, spec)),
                     {"players": players, "dealer": "Anne", "options": {"rounds": 0}, "deals": list(deals)})
    return gains(st)


# -- 4 players ------------------------------------------------------------------------------------------------------
FOUR = [
    # 1. prise, 2 oudlers: 74 - 41 = 33; (25 + 33) + poignée 20 + petit au bout 10 = 88
    {"Anne": 264, "Bruno": -88, "Claire": -88, "David": -88},
    # 2. garde, 1 oudler: 43.5 - 51 = -7.5 -> 8; -(33 x 2) - 10 x 2 = -86
    {"Anne": 86, "Bruno": -258, "Claire": 86, "David": 86},
    # 3. garde sans, 2 oudlers: 47 - 41 = 6; 31 x 4 - 10 x 4 = 84
    {"Anne": -84, "Bruno": -84, "Claire": 252, "David": -84},
    # 4. prise, 0 oudlers: 50 - 56 = -6; -(31 + Bruno's double poignée 40) + 10 = -61
    {"Anne": 61, "Bruno": 61, "Claire": 61, "David": -183},
    # 5. garde contre x6, 3 oudlers: 70 - 36 = 34; 59 x 6 - 200 (slam announced, failed) = 154
    {"Anne": 462, "Bruno": -154, "Claire": -154, "David": -154},
    # 6. garde, 3 oudlers: 91 - 36 = 55; 80 x 2 + 10 x 2 + 200 (unannounced slam) = 380
    {"Anne": -380, "Bruno": 1140, "Claire": -380, "David": -380},
    # 7. garde contre, 0 oudlers, 0 points: -(81 x 6) - 200 (the defence's slam) = -686
    {"Anne": 686, "Bruno": 686, "Claire": -2058, "David": 686},
    # 8. garde sans, 3 oudlers, every card (the led Excuse wins the last trick): 91 - 36 = 55;
    #    80 x 4 + 60 + 10 x 4 + 400 = 820
    {"Anne": 2460, "Bruno": -820, "Claire": -820, "David": -820},
    # 9. prise, 2 oudlers, exactly 41: 25
    {"Anne": -25, "Bruno": -25, "Claire": -25, "David": 75},
    # 10. garde, 2 oudlers, 40.5: short by 0.5 -> 1; -(26 x 2) = -52
    {"Anne": -156, "Bruno": 52, "Claire": 52, "David": 52},
]


def test_four_player_deals_won_and_lost_with_petit_au_bout_poignees_and_slams():
    st = score_file("tarot-4.yaml")
    assert gains(st) == FOUR
    assert st.sheet["total"] == [3374, 510, -3074, -810]
    assert sum(st.sheet["total"]) == 0


def test_the_breakdown_of_a_scored_deal():
    st = score_file("tarot-4.yaml")
    assert st.deals[1]["breakdown"] == ["taker: Bruno", "contract: garde", "taker's points: 43.5", "oudlers: 1",
                                        "target: 51", "difference: -8", "multiplier: 2", "petit au bout: defence",
                                        "poignée: 0", "slam: 0", "each defender is paid: 86"]


@pytest.mark.parametrize("oudlers,target", [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_contract_target_by_oudlers(oudlers, target):
    """At exactly the target the prise is made by 0: 25 from each defender; half a point less fails by 1: -26."""
    base = {"taker": "Anne", "contract": "prise", "oudlers": oudlers, "petit_au_bout": "none", "slam": "none"}
    made, failed = score("tarot.yaml", 4, dict(base, card_points=target), dict(base, card_points=target - 0.5))
    assert made["Anne"] == 75 and failed["Anne"] == -78


# -- 3 and 5 players ------------------------------------------------------------------------------------------------
def test_three_player_shares():
    """1. garde: 50 - 41 = 9; 34 x 2 + Bruno's poignée 20 (to the winning taker) = 88, from each of two.
    2. prise: 45.5 - 51 = -5.5 -> 6: -31.  3. garde sans: 60.5 - 36 = 24.5 -> 25; 50 x 4 - 10 x 4 = 160."""
    st = score_file("tarot-3.yaml")
    assert gains(st) == [{"Anne": 176, "Bruno": -88, "Claire": -88},
                         {"Anne": 31, "Bruno": 31, "Claire": -62},
                         {"Anne": -160, "Bruno": 320, "Claire": -160}]
    assert st.sheet["total"] == [47, 263, -310]


def test_five_player_shares_partner_and_alone():
    """1. garde, partner Claire: 80.5 - 41 = 39.5 -> 40; 65 x 2 + 40 = 170: Anne 2, Claire 1, the others -1.
    2. Bruno alone, prise: 60 - 51 = 9: 34, Bruno 4 shares.  3. David with Emma, garde sans: 40 - 56 = -16:
    -(41 x 4) = -164: David -2 shares, Emma -1, the others +1."""
    st = score_file("tarot-5.yaml")
    assert gains(st) == [
        {"Anne": 340, "Bruno": -170, "Claire": 170, "David": -170, "Emma": -170},
        {"Anne": -34, "Bruno": 136, "Claire": -34, "David": -34, "Emma": -34},
        {"Anne": 164, "Bruno": 164, "Claire": 164, "David": -328, "Emma": -164}]
    assert st.sheet["total"] == [470, 130, 300, -532, -368]


# -- the score keeper agrees with the engine -------------------------------------------------------------------------
@pytest.mark.parametrize("scenario,input_file,deal", [("prise-excuse-exchange", "tarot-4.yaml", 0),
                                                      ("slam-excuse-last", "tarot-4.yaml", 7),
                                                      ("five-called-king", "tarot-5.yaml", 0)])
def test_recorded_facts_give_the_entries_of_the_played_deal(scenario, input_file, deal):
    played = run_scenario(os.path.join(SCENARIOS, scenario + ".yaml"))
    assert gains(score_file(input_file))[deal] == played["entries"]["total"]


# -- variants --------------------------------------------------------------------------------------------------------
MADE = {"taker": "Anne", "contract": "prise", "oudlers": 2, "card_points": 41, "petit_au_bout": "none",
        "slam": "none"}


def test_garde_contre_times_eight():
    """60 - 51 = 9: 34 x 8 = 272."""
    deal = dict(MADE, contract="garde_contre", oudlers=1, card_points=60)
    assert score("tarot-garde-contre-8.yaml", 4, deal)[0]["Anne"] == 816
    assert score("tarot.yaml", 4, deal)[0]["Anne"] == 3 * 34 * 6


def test_federation_poignee_values():
    """25 + 30 for a double, 25 + 40 for a triple (20 / 40 / 60 by default: 65 and 85)."""
    def with_poignee(size):
        return dict(MADE, poignees=True, poignee={"Anne": size, "Bruno": "none", "Claire": "none", "David": "none"})
    assert [g["Anne"] for g in score("tarot-federation-poignee.yaml", 4, with_poignee("double"),
                                     with_poignee("triple"))] == [165, 195]
    assert [g["Anne"] for g in score("tarot.yaml", 4, with_poignee("double"), with_poignee("triple"))] == [195, 255]


def test_misere_is_paid_by_each_other_player():
    """Anne's prise at exactly the target (25 each) and Bruno's misère (10 from each of three)."""
    deal = dict(MADE, miseres=True, misere_declared={"Anne": False, "Bruno": True, "Claire": False, "David": False})
    assert score("tarot-misere.yaml", 4, deal) == [{"Anne": 65, "Bruno": 5, "Claire": -35, "David": -35}]


def test_petit_chelem():
    """Garde, 3 oudlers, 80 points: 69 x 2 = 138. Announced and made +300 (438); unannounced +150 (288); announced
    and failed -150 (-12: the taker pays though he made his contract). A defence petit chelem against a failed
    garde (0 oudlers, 10 points: -(71 x 2)) -150: -292."""
    deal = dict(MADE, contract="garde", oudlers=3, card_points=80)
    rows = score("tarot-petit-chelem.yaml", 4, dict(deal, petit_announced=True, petit_slam="taker"),
                 dict(deal, petit_slam="taker"), dict(deal, petit_announced=True, petit_slam="none"),
                 dict(deal, oudlers=0, card_points=10, petit_slam="defence"))
    assert [r["Anne"] for r in rows] == [3 * 438, 3 * 288, 3 * -12, 3 * -292]


def test_petite_and_pousse_count_once():
    """Pousse ranks above petite but counts x1: 51 - 41 = 10: 35."""
    assert score("tarot-petite-pousse.yaml", 4, dict(MADE, contract="pousse", card_points=51))[0]["Anne"] == 105


# -- the command line -------------------------------------------------------------------------------------------------
def test_interp_score_prints_the_breakdown_and_the_sheet():
    out = subprocess.run([sys.executable, "-m", "interp.cli", "score", "games/tarot.yaml", "--input",
                          "tests/score_inputs/tarot-3.yaml"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert ("deal 2 (dealer Bruno): taker: Claire; contract: prise; taker's points: 45.5; oudlers: 1; target: 51; "
            "difference: -6; multiplier: 1;" in out.stdout)
    assert "Claire: total -62" in out.stdout
    data = json.loads(subprocess.run([sys.executable, "-m", "interp.cli", "score", "games/tarot.yaml",
                                      "--input", "tests/score_inputs/tarot-3.yaml", "--json"], cwd=ROOT,
                                     capture_output=True, text=True, timeout=60).stdout)
    assert data["sheet"]["total"] == {"Anne": 47, "Bruno": 263, "Claire": -310}
    assert data["deals"][0]["breakdown"][-1] == "each defender pays: 88"


def test_interp_score_asks_at_the_terminal():
    """A 4-player deal typed in: the poignée question leads to one question per player."""
    answers = "\n".join(["Anne", "garde", "2", "50", "none", "y", "none", "single", "none", "none", "n", "none"])
    out = subprocess.run([sys.executable, "-m", "interp.cli", "score", "games/tarot.yaml", "-o", "rounds=1"],
                         cwd=ROOT, input=answers + "\n", capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # garde: 50 - 41 = 9; 34 x 2 + Bruno's poignée 20 = 88
    assert "Anne: total +264" in out.stdout and "Poignée shown — Bruno" in out.stdout
