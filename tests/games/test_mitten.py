"""Mitten (games/mitten.yaml, games/mitten-4.yaml) on the general `turns` phase: stacked scenarios for every kind
of play with points computed by hand from the rules (docs/seed-notes/mitten.md, E0–E19), the deal's shape, legal
move sets, the table as players see it, the match end, random playouts with invariants, and the command line."""
from __future__ import annotations

import glob
import os
import random
import re
import subprocess
import sys

import pytest

from interp.engine import match as engine
from interp.engine.wording import parse_move
from interp.runs.replay import record, replay
from interp.runs.scenario import run_scenario
from interp.spec.loader import load_spec
from interp.table import render
from tests.conftest import ROOT, game_of

SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "mitten", "*.yaml")))
MITTEN = "games/mitten.yaml"


@pytest.fixture(scope="module")
def mitten():
    return game_of(MITTEN)


# -- stacked scenarios -----------------------------------------------------------------------------------------------
def _kind(text: str) -> str:
    for prefix, kind in (("steal with added", "steal-added"), ("steal with", "steal"), ("steal ", "take"),
                         ("declare added", "declare-added")):
        if text.startswith(prefix):
            return kind
    if text.startswith("clear") and text.endswith("mitten"):
        return "mitten"
    return text.split()[0]


def test_there_is_a_scenario_for_every_kind_of_play(mitten):
    """Every action of the spec's play phase is used by some scenario."""
    kinds = {_kind(str(m)) for path in SCENARIOS for m in load_spec(path).data["moves"]}
    play = next(p for p in mitten.phases if p.type_name == "turns")
    assert kinds == {a.name for a in play.actions}


def test_scenario_log_names_the_points():
    result = run_scenario(os.path.join(ROOT, "tests/scenarios/mitten/stealing-chain.yaml"))
    assert "North: complete glove of Ks with K♦ — scores 210" in result["events"]


# -- the deal ----------------------------------------------------------------------------------------------------------
def _zone(st, name, seat=None):
    return st.zones[st.game.zone_id(name, seat, st.n)]


@pytest.mark.parametrize("n,stocks", [(2, [36, 24, 12, 0]), (4, [24, 0])])
def test_deal_shape_and_redeals_from_the_stock(mitten, n, stocks):
    """E0: 3 + 2 to the table twice (6 each, 4 on the table); then 3 + 3 from the stock until it is used up."""
    st = engine.new_match(mitten, n, 4)
    assert len(_zone(st, "pile")) == 4
    seen, rng = [], random.Random(1)
    while not st.deal_over:
        hands = [len(_zone(st, "hand", s)) for s in range(n)]
        if hands == [6] * n and (not seen or seen[-1] != len(_zone(st, "stock"))):
            seen.append(len(_zone(st, "stock")))
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert seen == stocks


def test_first_player_is_dealers_left_after_every_redeal(mitten):
    st = engine.new_match(mitten, 2, 9, dealer=1)
    rng = random.Random(3)
    while not st.deal_over:
        if all(len(_zone(st, "hand", s)) == 6 for s in range(2)):
            assert engine.actor(st) == 0
        engine.apply(st, rng.choice(engine.legal_moves(st)))


def test_initial_combinations_are_computed_from_the_four_table_cards(mitten):
    st = engine.new_match(mitten, 2, 0, dealer=1, stack=_stack(mitten, 2, pile="5S 5H 9C 9D", South="2C",
                                                                 West="3C"))
    assert st.vars["initial_bonus"] == 20


# -- legal moves -----------------------------------------------------------------------------------------------------
def _stack(game, n, **zones):
    out = {}
    for name, cards in zones.items():
        codes = [game.deck.parse(c) for c in cards.split()]
        if name in ("pile", "stock"):
            out[game.zone_id(name, None, n)] = codes
        else:
            out[game.zone_id("hand", game.seat_names.index(name), n)] = codes
    return out


def _start(game, n=2, **zones):
    return engine.new_match(game, n, 0, dealer=n - 1, stack=_stack(game, n, **zones))


def _moves(st):
    return sorted(engine.notation(st, m) for m in engine.legal_moves(st))


def _play(st, *texts):
    for text in texts:
        engine.apply(st, parse_move(st, text))


def test_moves_name_the_kind_of_play(mitten):
    st = _start(mitten, pile="2D 7C", South="7H 7D JS 4S", West="2C 3C 4C 5C")
    assert _moves(st) == sorted([
        "clear with 7H", "clear with 7D", "clear with JS", "play 4S",
        "declare mitten of 7s with 7H", "declare mitten of 7s with 7D",
        "declare added glove of 7s with 7H", "declare added glove of 7s with 7D"])


def test_jack_on_an_empty_table_is_a_plain_play(mitten):
    st = _start(mitten, South="JS 4S", West="2C 3C")
    assert _moves(st) == ["play 4S", "play JS"]


def test_the_declarer_must_play_the_declared_rank(mitten):
    st = _start(mitten, pile="2D 9C", South="4S 4H 4D KS", West="2C 3C 5C 6C")
    _play(st, "declare glove of 4s with 4S", "play 2C")
    assert _moves(st) == ["continue glove of 4s with 4D", "continue glove of 4s with 4H"]
    _play(st, "continue glove of 4s with 4H", "play 3C")
    assert _moves(st) == ["complete glove of 4s with 4D"]


def test_weaker_or_equal_declarations_cannot_steal(mitten):
    st = _start(mitten, pile="2D 9C", South="JS JH", West="AS AH")
    _play(st, "declare mitten of Js with JS")
    assert _moves(st) == ["play AH", "play AS"]
    st = _start(mitten, pile="2D 9C", South="5S 5H", West="6S 6H")
    _play(st, "declare mitten of 5s with 5S")
    assert _moves(st) == sorted(["steal with mitten of 6s, playing 6H", "steal with mitten of 6s, playing 6S",
                                 "play 6H", "play 6S"])


def test_during_a_declaration_matching_and_jacks_do_not_clear(mitten):
    """E17: the only ways to clear while a declaration stands are steals (and the declarer's completion)."""
    st = _start(mitten, 4, pile="2C 9D", South="4S 4H", West="JC 5S", North="JD 6S", East="7S 8S")
    _play(st, "declare mitten of 4s with 4S")
    assert _moves(st) == ["play 5S", "play JC"]
    _play(st, "play JC")
    assert _moves(st) == ["play 6S", "play JD"]


def test_a_partner_may_steal_with_the_declared_rank(mitten):
    st = _start(mitten, 4, pile="2C 9D", South="4S 4H", West="2S 5S", North="4D 6S", East="7S 8S")
    _play(st, "declare mitten of 4s with 4S", "play 2S")
    assert "steal mitten of 4s with 4D" in _moves(st)
    assert "play 4D" not in _moves(st)


def test_illegal_entry_is_explained_with_the_moves_of_that_card(mitten):
    st = _start(mitten, pile="2D 7C", South="7H 4S", West="2C 3C")
    from interp.errors import IllegalMoveError
    with pytest.raises(IllegalMoveError) as info:
        parse_move(st, "play 7H")
    assert "with 7♥ you can: clear with 7H" in info.value.message
    assert parse_move(st, "CLEAR WITH 7h") == parse_move(st, "clear with 7♥")


# -- what the players see --------------------------------------------------------------------------------------------
def test_the_table_shows_the_top_card_and_the_initial_four_until_the_first_clear(mitten):
    st = _start(mitten, pile="5S 5H 9C KD", South="2C 3C 9S", West="4C 6C 3S")
    _play(st, "play 2C", "play 4C")
    view = st.view(0)
    pile = mitten.zone_id("pile", None, 2)
    def codes(z):
        return [mitten.deck.code(c) for c in z]
    assert codes(view.zones[pile]) == ["5S", "5H", "9C", "KD", "4C"]
    assert view.hidden[pile] == 1
    lines = render.table_lines(view, 0)
    assert "table (6 cards, top last): 5♠ 5♥ 9♣ K♦ … 4♣" in lines
    _play(st, "play 3C", "clear with 3S")  # the first clear (West: initial mitten of 5s)
    _play(st, "play 9S")
    assert codes(st.view(1).zones[pile]) == ["9S"]
    assert "table (1 card, top last): 9♠" in render.table_lines(st.view(1), 1)
    _play(st, "play 6C")
    view = st.view(0)
    assert codes(view.zones[pile]) == ["6C"] and view.hidden[pile] == 1
    assert "table (2 cards, top last): … 6♣" in render.table_lines(view, 0)


def test_the_screen_shows_the_standing_declaration_and_who_must_follow_it(mitten):
    st = _start(mitten, pile="2C 9D", South="5S 5H", West="8S 8H 8D")
    _play(st, "declare mitten of 5s with 5S", "steal with glove of 8s, playing 8S")
    lines = render.table_lines(st.view(0), 0)
    assert "standing declaration: West's glove of 8s (worth 100) — West must play 2 more 8" in lines
    assert "stolen combinations riding on it: 10 points" in lines
    assert "table: empty" in render.table_lines(_start(mitten, South="2C", West="3C").view(0), 0)


def test_rules_see_the_real_pile_size_in_a_view(mitten):
    """`size(zone)` counts cards the viewer cannot see; the bots' preferences run on views."""
    st = _start(mitten, pile="2C 9D 4H", South="4S 5S", West="6S 7S")
    view = st.view(0)
    phase = engine.current_phase(view)
    assert len(view.zones[mitten.zone_id("pile", None, 2)]) == 3  # the initial cards are all shown
    _play(st, "play 5S", "play 6S")
    view = st.view(0)
    move = next(m for m in engine.legal_moves(st) if engine.notation(st, m) == "play 4S")
    assert phase.preference(view, move, 0) == phase.preference(st, move, 0)
    assert phase.bot_choice(view, 0, engine.legal_moves(st), random.Random(0)) in engine.legal_moves(st)


# -- the match ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("totals,over", [((520, 480), True), ((530, 510), True), ((510, 510), False),
                                         ((490, 490), False), ((600, 560), True), ((499, 200), False)])
def test_game_to_500_and_the_tie_rule(mitten, totals, over):
    """E19, checked at the end of a deal."""
    for n in (2, 4):
        st = engine.new_match(mitten, n, 0, deal=False)
        for s in range(n):
            st.sheet["total"][s] = totals[s % 2]
        assert mitten.match_end(st) == over


def test_partners_points_are_added(mitten):
    st = engine.new_match(mitten, 4, 2)
    rng = random.Random(2)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    pts = st.vars["pts"]
    assert st.sheet["total"] == [pts[0] + pts[2], pts[1] + pts[3]] * 2
    assert st.sheet["points"] == pts


# -- random playouts ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path,n", [(MITTEN, 2), (MITTEN, 4), ("games/mitten-4.yaml", 4)])
def test_random_playouts_keep_the_invariants(path, n):
    game = game_of(path)
    for seed in range(8):
        st = engine.new_match(game, n, seed)
        rng = random.Random(seed)
        for _deal in range(2):
            steps = 0
            while not st.deal_over:
                assert sorted(engine.card_census(st)) == list(range(52)), "a card is lost or in two places"
                moves = engine.legal_moves(st)
                assert moves, "no legal move before the end of the deal"
                texts = [engine.notation(st, m).lower() for m in moves]
                assert len(set(texts)) == len(texts), f"two moves read the same: {texts}"
                seat = engine.actor(st)
                if st.vars["decl_seat"] == seat:
                    assert all(t.startswith(("continue", "complete")) for t in texts)
                engine.apply(st, rng.choice(moves))
                if all(not _zone(st, "hand", s) for s in range(n)) or st.deal_over:
                    assert st.vars["decl_seat"] is None, "a declaration outlived the hands"
                steps += 1
                assert steps <= 52
            assert sorted(engine.card_census(st)) == list(range(52))
            assert sum(st.vars["pts"]) >= 0
            if st.match_over:
                break
            engine.next_deal(st)


def test_a_match_replays_from_its_move_log(mitten):
    st = engine.new_match(mitten, 4, 13)
    rng = random.Random(13)
    for _ in range(2):
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
        engine.next_deal(st)
    saved = record(st)
    again = replay(mitten, saved["history"], saved["players"], saved["seed"], saved["options"], saved["dealer"],
                   saved.get("deal_no"))
    assert again.to_json() == st.to_json()


def test_bot_matches_reach_500(mitten):
    from interp.bots.agents import HeuristicAgent
    from interp.runs.simulate import play_deal
    for n in (2, 4):
        st = engine.new_match(mitten, n, 5)
        agents = {s: HeuristicAgent(s) for s in range(n)}
        for _ in range(100):
            play_deal(st, agents)
            if st.match_over:
                break
            engine.next_deal(st)
        assert st.match_over
        top = max(st.sheet["total"])
        assert top >= 500 and sorted(st.sheet["total"])[-2 if n == 2 else -3] < top


# -- generality and the command line -----------------------------------------------------------------------------------
def test_no_game_names_in_the_package():
    """Nothing of this game in the engine; the turns phase names no game at all."""
    for path in glob.glob(os.path.join(ROOT, "interp", "**", "*.py"), recursive=True):
        assert not re.search(r"mitten|mitts", open(path, encoding="utf-8").read(), re.I), path
    text = open(os.path.join(ROOT, "interp", "engine", "phases", "turns.py"), encoding="utf-8").read()
    assert not re.search(r"mitten|mitts|tarot|preferans|piquet", text, re.I)


INTERP = [sys.executable, "-m", "interp.cli"]


def _interp(*args, stdin=""):
    return subprocess.run(INTERP + list(args), input=stdin, capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize("args", [(), ("--players", "4")])
def test_play_a_whole_match_at_the_terminal(tmp_path, args):
    out = _interp("play", MITTEN, "--seed", "3", "--save", str(tmp_path / "m.json"), *args, stdin="1\n" * 3000)
    assert out.returncode == 0, out.stderr
    assert "table" in out.stdout and "your play" in out.stdout
    assert "The match is over." in out.stdout


def test_run_validate_simulate_bench():
    out = _interp("run", "tests/scenarios/mitten/added-steal-by-partner.yaml")
    assert out.returncode == 0 and "North: points +160" in out.stdout, out.stdout + out.stderr
    out = _interp("validate", MITTEN, "games/mitten-4.yaml")
    assert out.returncode == 0, out.stderr
    out = _interp("simulate", MITTEN, "-n", "20", "--json")
    assert out.returncode == 0 and '"declarations"' in out.stdout, out.stderr
    out = _interp("simulate", "games/mitten-4.yaml", "-n", "10", "--json")
    assert out.returncode == 0, out.stderr
    out = _interp("bench", MITTEN, "games/mitten-4.yaml", "--seconds", "0.2", "--json")
    assert out.returncode == 0 and "playouts_per_second" in out.stdout, out.stderr
