"""The automatic chain between decisions (engine.advance, interp/engine/match.py): phases run, are skipped or
loop until a seat has to decide or the deal is over.

An automatic phase (a deal, effects: not `interactive`) is not asked whether it is done once started, and the
phases' stretch (the memo their `when` conditions share, game.stretch) is opened and closed in place. The first
is checked against the plain protocol, every phase asked (`interactive` forced on every phase class): the same
seeded random deals of every shipped game give the same history, events, vars and phase progress at every move.
The second: every `when` checked in one walk over phases sees one open stretch, a new one after each phase start,
and the stretch is closed whenever a seat has to decide or the deal is over.

Phases whose `when` fails are skipped back to back, counted one step each toward the limit of steps without a
decision, so a `goto` loop that runs out of steps inside a run of skipped phases is stopped at the very phase
where the count ran out; scoring after skipped last phases reads defines afresh."""
from __future__ import annotations

import glob
import os
import random

import pytest

from interp.bots.agents import RandomAgent
from interp.engine import match as engine
from interp.engine.phases import base, deal, effects
from interp.errors import InterpError
from interp.runs.simulate import play_deal
from interp.spec.compiler import load_game
from tests.conftest import ROOT

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


TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")


def tiny_with(tmp_path, phases: str, before: str = "  - id: count\n"):
    """docs/examples/tiny.yaml with `phases` (YAML list items) put in before the line `before`."""
    text = open(TINY, encoding="utf-8").read().replace(before, phases + before)
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(str(path))


def test_phases_whose_when_fails_are_skipped_and_the_rest_run_in_order(tmp_path):
    """After the deal's `count`: `a` and `b` fail (skipped back to back), `c` has no `when` and runs, `d` fails,
    `e` holds (it reads what `c` did); `f` and `g`, the last phases, fail: the deal ends after them."""
    game = tiny_with(tmp_path, """
  - {id: a, type: effects, when: "false", do: "taken[seats[0]] += 1"}
  - {id: b, type: effects, when: "n_players == 3", do: "taken[seats[0]] += 10"}
  - {id: c, type: effects, do: "taken[seats[0]] = 100"}
  - {id: d, type: effects, when: "taken[seats[0]] != 100", do: "taken[seats[0]] += 1"}
  - {id: e, type: effects, when: "taken[seats[0]] == 100", do: "taken[seats[1]] = 7"}
  - {id: f, type: effects, when: "false", do: "taken[seats[0]] += 1"}
  - {id: g, type: effects, when: "taken[seats[1]] == 0", do: "taken[seats[0]] += 1"}
""", before="\nfacts:")
    assert [p.id for p in game.phases][-8:] == ["count", "a", "b", "c", "d", "e", "f", "g"]
    st = engine.new_match(game, 2, 1)
    rng = random.Random(2)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert st.vars["taken"] == [100, 7] and st.phase == len(game.phases)
    assert st.deals[-1]["entries"] == {"score": {0: 100, 1: 7}}


def test_skipped_phases_count_toward_the_limit_of_steps_without_a_decision(tmp_path):
    """A `goto` loop through a skipped phase is caught as before, at the same phase (10,000 steps: the skipped
    phase and the looping one count one each)."""
    game = tiny_with(tmp_path, """
  - {id: skipped, type: effects, when: "false", do: "taken[seats[0]] = 1"}
  - id: spin
    type: effects
    do: "taken[seats[1]] = 1"
    goto: {phase: skipped, when: "true"}
""")
    runs_away_at(game, "skipped")


def runs_away_at(game, phase_id: str):
    """Play `game` (2 players, seed 0) until its phases run on without a decision; the error must name `phase_id`.
    The state, stopped there."""
    st = engine.new_match(game, 2, 0)
    rng = random.Random(0)
    with pytest.raises(InterpError, match=f"10,000 times in a row without a decision \\(at phase '{phase_id}'\\)"):
        while not st.deal_over:
            engine.apply(st, rng.choice(engine.legal_moves(st)))
    return st


def test_a_goto_loop_running_out_inside_a_run_of_skipped_phases_stops_where_the_count_ran_out(tmp_path):
    """After the play: `a` (step 1, skipped), `b` (step 2, skipped), `spin` (step 3, runs, back to `a`): a turn
    of the loop is 3 steps, `a` at steps 1, 4, … 10,000 (10,000 = 3 × 3,333 + 1), so step 10,001, one past the
    limit, is `b`'s, in the middle of the run of skipped phases `a`, `b`."""
    game = tiny_with(tmp_path, """
  - {id: a, type: effects, when: "false", do: "taken[seats[0]] = 1"}
  - {id: b, type: effects, when: "n_players == 5", do: "taken[seats[0]] = 2"}
  - id: spin
    type: effects
    do: "taken[seats[1]] = 1"
    goto: {phase: a, when: "true"}
""")
    st = runs_away_at(game, "b")
    assert game.phases[st.phase].id == "b"


def test_scoring_after_skipped_last_phases_reads_defines_afresh(tmp_path):
    """The deal's last phase is skipped by its `when` (which reads the define `total`, remembered while `when`s
    are checked); the deal then ends and scoring first zeroes what `total` sums, then adds `total` to the bonus.
    The remembered value must be gone by then: the bonus is 0 + 5 (tiny's bonus when both took the same, here 0
    each), not 120 + 5 (`total` at the check: every card point of the deal)."""
    game = tiny_with(tmp_path, "", before="facts:")
    text = open(tmp_path / "v.yaml", encoding="utf-8").read()
    text = text.replace('  opponent(s): "left(s)"\n', '  opponent(s): "left(s)"\n  total: "taken[active[0]] + taken[active[1]]"\n')
    text = text.replace("facts:", '  - id: never\n    type: effects\n    when: "total < 0"\n    do: "taken[active[0]] = 1"\n\nfacts:', 1)
    text = text.replace('  - "for s in seats: score[s] += taken[s]"\n',
                        '  - "for s in seats: score[s] += taken[s]"\n  - "for s in seats: taken[s] = 0"\n'
                        '  - "for s in seats: bonus[s] += total"\n')
    path = tmp_path / "w.yaml"
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    st = engine.new_match(game, 2, 0)
    rng = random.Random(0)
    while not st.deal_over:
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert sum(st.sheet["score"]) == 120 and st.sheet["bonus"] == [5, 5]
