"""The automatic chain between decisions (engine.advance) after its fast paths: an automatic phase (a deal,
effects: not `interactive`) is not asked whether it is done once started, and the phases' stretch (the memo
their `when` conditions share, game.stretch) is opened and closed in place.

The first is checked against the plain protocol, every phase asked (`interactive` forced on every phase class):
the same seeded random deals of every shipped game give the same history, events, vars and phase progress at
every move. The second: every `when` checked in one walk over phases sees one open stretch, a new one after
each phase start, and the stretch is closed whenever a seat has to decide or the deal is over."""
from __future__ import annotations

import glob
import random

import pytest

from interp.engine import match as engine
from interp.bots.agents import RandomAgent
from interp.spec.compiler import load_game
from interp.engine.phases import base, deal, effects
from interp.runs.simulate import play_deal

GAMES = sorted(glob.glob("games/*.yaml"))


def trace(game, players: int, seed: int, deals: int = 2) -> list:
    """What a seeded random match shows after its start and after every move: the move log, the events, the
    vars, the phase and its progress (as a dict), and whether the stretch is closed."""
    st = engine.new_match(game, players, seed)
    rng = random.Random(seed)
    seen = []
    for _ in range(deals):
        while not st.deal_over:
            seen.append((list(st.history), list(st.events), repr(st.vars), st.phase,
                         None if st.ph is None else dict(st.ph), game.stretch.token is None))
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        seen.append((list(st.history), list(st.events), repr(st.vars), st.deal_no, game.stretch.token is None))
        if st.match_over:
            break
        engine.next_deal(st)
    return seen


@pytest.mark.parametrize("path", GAMES)
def test_automatic_phases_play_as_when_every_phase_is_asked_whether_it_is_done(path, monkeypatch):
    game = load_game(path)
    players = game.default_players
    fast = [trace(game, players, seed) for seed in range(3)]
    for cls in (base.Phase, deal.DealPhase, effects.EffectsPhase):
        monkeypatch.setattr(cls, "interactive", True)  # every phase asked `done` after its start
    asked = [trace(game, players, seed) for seed in range(3)]
    assert fast == asked
    assert all(step[-1] for deal_trace in fast for step in deal_trace)  # the stretch closed at every decision


def test_the_whens_of_one_walk_share_one_open_stretch_and_each_walk_opens_its_own(monkeypatch):
    """Preferans: after the contract, `concede` and `stalingrad` are skipped and `defence-1` checked in one walk
    (one token); every call of advance opens its own stretch (a new token), and within one call a new one
    exactly after a phase has started (an automatic one: the talon's effects, then the discard's `when`). No
    `when` sees a closed stretch, and the stretch is closed after every call."""
    game = load_game("games/preferans.yaml")
    checks: list = []  # (advance call number, phase id, token, whether it held) per `when` checked
    calls: list = []

    def watched(phase):
        when = phase.when

        def check(st):
            token = game.stretch.token
            held = when(st)
            checks.append((len(calls), phase.id, token, held))
            return held
        return check

    for phase in game.phases:
        if phase.when is not None:
            monkeypatch.setattr(phase, "when", watched(phase))
    advance = engine.advance

    def counted(st):
        calls.append(1)
        advance(st)
        assert game.stretch.token is None

    monkeypatch.setattr(engine, "advance", counted)
    for seed in range(40):
        play_deal(engine.new_match(game, 3, seed), {s: RandomAgent(10 * seed + s) for s in range(3)})
    assert checks and all(token is not None for _, _, token, _ in checks)
    by_call: dict = {}
    for call, pid, token, held in checks:
        by_call.setdefault(call, []).append((pid, token, held))
    for seen in by_call.values():
        for (pid, token, held), (_, next_token, _) in zip(seen, seen[1:]):
            assert (token is not next_token) == held, seen  # a new stretch exactly after a phase started
    firsts = [seen[0][1] for seen in by_call.values()]
    assert len({id(token) for token in firsts}) == len(firsts)  # (the tokens are kept alive in `checks`)
    assert any([pid for pid, _, _ in seen[:3]] == ["concede", "stalingrad", "defence-1"]
               for seen in by_call.values())
    assert any(("talon", True) in [(pid, held) for pid, _, held in seen] for seen in by_call.values())
