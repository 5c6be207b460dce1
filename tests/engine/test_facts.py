"""Fact constraints (`min`, `max`, `check:` under facts, interp/engine/facts.py).

- Random playouts of every spec and player count (void deals aside): the facts the engine derives always meet
  the spec's constraints (a constraint that a real deal can break would refuse a true score).
- The constraints refuse what cannot happen: tricks that do not add up, 5 oudlers, 92 card points.
- A spec's constraint mistakes are located errors at validate.
"""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.engine.facts import fact_problems
from interp.errors import SpecError
from interp.spec.compiler import load_game
from interp.table.scorekeeper import asked_facts
from tests.conftest import SPECS, game_of
from tests.test_playouts import random_deal

CASES = [(path, n) for path in SPECS for n in game_of(path).players]


def broken_constraints(st) -> list:
    return [(decl.name, problem) for decl, seats in asked_facts(st) for problem in fact_problems(st, decl, seats)]


@pytest.mark.parametrize("path,n", CASES)
def test_random_playouts_meet_the_fact_constraints(path, n):
    game = game_of(path)
    assert any(d.limits.rules or d.limits.low is not None for d in game.facts) or not game.facts
    for seed in range(8):
        st = engine.new_match(game, n, seed)
        random_deal(st, random.Random(seed))
        if st.deals and st.deals[-1].get("redeal"):
            continue  # a void deal (all passed): nothing is scored, so no facts are recorded for it
        assert broken_constraints(st) == [], f"seed {seed}"


def _deal_with(game, n: int, **facts):
    """A state after one random deal, with some facts then overwritten (seat-indexed lists for per-seat ones)."""
    st = engine.new_match(game, n, 3)
    random_deal(st, random.Random(3))
    for name, value in facts.items():
        st.vars[name] = value
    return st


def test_preferans_tricks_must_add_up_to_ten(preferans):
    st = _deal_with(preferans, 3, raspasy=True, tricks=[9, 9, 9])
    tricks = next(d for d in preferans.facts if d.name == "tricks")
    assert fact_problems(st, tricks, [0, 1, 2]) == ["the tricks of a deal add up to 10"]
    st.vars["tricks"] = [-3, 7, 6]
    assert fact_problems(st, tricks, [0, 1, 2]) == ["tricks of South is from 0 to 10, not -3"]
    st.vars["tricks"] = [3, 4, 3]
    assert fact_problems(st, tricks, [0, 1, 2]) == []


def test_tarot_oudlers_and_card_points():
    tarot = game_of("games/tarot.yaml")
    facts = {d.name: d for d in tarot.facts}
    st = _deal_with(tarot, 4, oudlers=5, card_points=92)
    assert fact_problems(st, facts["oudlers"]) == ["oudlers is from 0 to 3, not 5"]
    assert "card_points is from 0 to 91, not 92" in fact_problems(st, facts["card_points"])
    st.vars.update(oudlers=3, card_points=10)   # three oudlers alone count 13.5
    assert fact_problems(st, facts["card_points"]) == ["each oudler the taker's side won counts 4.5 of its card points"]
    from fractions import Fraction
    st.vars.update(oudlers=2, card_points=Fraction(161, 4))
    assert fact_problems(st, facts["card_points"]) == ["card points are whole or halves (40.5)"]


def _spec(tmp_path, facts: str) -> str:
    text = open("games/mitten.yaml", encoding="utf-8").read()
    start = text.index("\nfacts:")
    end = text.index("\nscoring:")
    path = tmp_path / "g.yaml"
    path.write_text(text[:start] + "\nfacts:\n" + facts + text[end:], encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("facts,message", [
    ('  pts: {seats: "seats", check: [{rule: "pts + 1", message: "x"}]}\n', "pts"),
    ('  pts: {seats: "seats", check: [{rule: "asked", message: "x"}]}\n', "bool"),
    ('  pts: {seats: "seats", min: "won"}\n', "won"),
    ('  pts: {seats: "seats", check: [{rule: "true"}]}\n', "message"),
])
def test_constraint_mistakes_are_located(tmp_path, facts, message):
    with pytest.raises(SpecError) as err:
        load_game(_spec(tmp_path, facts))
    assert err.value.location is not None and err.value.location.line > 1
    assert message in err.value.format()
