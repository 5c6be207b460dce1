"""Small things a spec author meets (issue 27): a `choose` label is a template, a status value that is the text
'none' is shown, `expect:` may say `none`, and a `turns` move runs `before`, `do`, `after` and only then works
out who moves next."""
from __future__ import annotations

from interp.engine import match as engine
from interp.engine.events import text as event_text
from interp.engine.state import Move
from interp.runs.expect import _compare
from interp.spec.compiler import load_game

SPEC = """
name: Slips
players: {default: 2}
seat_names: [Ann, Bob]
deck: {suits: [{code: S, symbol: "♠"}, {code: H, symbol: "♥"}], ranks: ["1", "2"]}
zones:
  hand: {per_seat: true, visible: owner}
vars:
  up: {type: str, default: H}
  call: {type: str, values: [none, go], default: none}
  who: {type: seat}
  steps: {type: int}
phases:
  - {id: deal, type: deal, into: hand, packets: [{each: 2}]}
  - id: ask
    type: choose
    who: "seats[1]"
    label: "{me}: take {suit_symbol(up)} as trumps? {{yes}}"
    options: [{name: take, do: "up = 'S'"}, {name: pass}]
  - id: moves
    type: turns
    until: "steps >= 3"
    before: "steps += 0"
    after: "steps += 1; who = if steps == 1 then seats[0] else seats[1]"
    next: "who"
    actions:
      - {name: wait, do: "who = none"}
display:
  status:
    call: "call"
"""


def game_of(tmp_path):
    path = tmp_path / "slips.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return load_game(str(path))


def test_a_choose_label_is_a_template_kept_in_the_log_as_it_was_asked(tmp_path):
    game = game_of(tmp_path)
    st = engine.new_match(game, seed=0)
    phase = engine.current_phase(st)
    assert phase.prompt(st) == "Bob: take ♥ as trumps? {yes}"
    assert phase.label == "…: take … as trumps? {yes}"  # as the rules summary names the phase, asked of nobody
    engine.apply(st, Move("option", "take"))
    assert st.vars["up"] == "S"  # the question asked about hearts; the answer changed the var
    line = next(event_text(st, e) for e in st.events if e.kind == "choose")
    assert line == "Bob (Bob: take ♥ as trumps? {yes}): take"


def test_a_status_value_that_is_the_text_none_is_shown(tmp_path):
    game = game_of(tmp_path)
    st = engine.new_match(game, seed=0)
    assert game.status_line(st) == "call none"
    st.vars["call"] = "go"
    assert game.status_line(st) == "call go"


def test_next_sees_what_after_did(tmp_path):
    """The turns start with the first of active (Bob, the dealer Ann's left). Each `do` clears `who` and `after`
    sets it (Ann after the first move, then Bob), so `next` gives Ann, then Bob: read before `after`, it would
    be none. (`before: steps += 0` also checks that a statement adding 0 compiles.)"""
    st = engine.new_match(game_of(tmp_path), seed=0)
    engine.apply(st, Move("option", "pass"))
    movers = []
    while not st.deal_over:
        movers.append(engine.to_move(st))
        engine.apply(st, engine.legal_moves(st)[0])
    assert movers == [1, 0, 1]


def test_expect_may_write_none_for_no_value():
    assert list(_compare("facts", {"declarer": "none"}, {"declarer": None})) == []
    assert list(_compare("facts", {"declarer": None}, {"declarer": None})) == []
    assert list(_compare("facts", {"call": "none"}, {"call": "none"})) == []
    assert list(_compare("facts", {"declarer": "none"}, {"declarer": "Ann"})) == \
        [(("declarer",), "expected none, got Ann")]
