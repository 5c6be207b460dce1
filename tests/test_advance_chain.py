"""The automatic chain between decisions (engine.advance) and the discard's masked events, after their fast
paths: a run of skipped phases is counted one step per phase, so a `goto` loop that runs out of steps inside
such a run is stopped at the very phase where the count ran out; a private discard shows the other seats a
card going, to every seat but the discarder's, whatever the player count."""
from __future__ import annotations

import random


from interp.engine import match as engine
from interp.spec.compiler import load_game
from tests.test_engine_speed_paths import runs_away_at, tiny_with


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
