"""The end of a deal and the DSL's generated code, made leaner, keep their meaning: an any/all that is a whole
expression runs as a loop with the generator's values, stops and located errors; a function that can run no loop
skips its budget reset while every loop still starts from a fresh budget; a Steady's cells are forgotten by one
line or, past a few, by one call; the score sheet's copy shares nothing; a deal's end logs the same event records."""
from __future__ import annotations

import random

import pytest

from interp.engine import match as engine
from interp.dsl.compile import Macro, SourceRef, compile_expr, compile_stmts
from interp.dsl.fuse import FORGET_IN_PLACE, SEARCHES, namespace
from interp.dsl.runtime import BUDGET
from interp.errors import SpecRuntimeError
from interp.engine.state import Event
from tests.conftest import game_of
from tests.dsl.test_fuse import Ctx, make_scope, run, source_of, value

# pts is [3, 1, 4, 1, 5]; call is ["none", "whist", "pass"] (tests.dsl.test_fuse.make_scope)
SEARCH_CASES = [
    ("any(p > 4 for p in pts)", True), ("any(p > 5 for p in pts)", False), ("all(p > 0 for p in pts)", True),
    ("all(p > 1 for p in pts)", False), ("any(p > 9 for p in [])", False), ("all(p > 9 for p in [])", True),
    # a filter: all of 3, 4, 5 are above 2; any of 1, 1 is 1
    ("all(p > 2 for p in pts if p != 1)", True), ("any(p == 1 for p in pts if p < 3)", True),
    ("all(p == 1 for p in pts if p < 2)", True), ("any(p > 3 for p in pts if p < 3)", False),
    # a list whose code names a value (`pts[0]`: a walrus) is named before the loop
    ("any(q == 3 for q in [pts[0], pts[4]])", True), ("all(q == 3 for q in [pts[0], pts[4]])", False),
    # the element that decides stops the loop: call[none] after it is never asked
    ("any(call[q] == 'whist' for q in [1, first(r for r in pts if r > 9)])", True),
    ("all(call[q] == 'none' for q in [1, first(r for r in pts if r > 9)])", False),
]


@pytest.mark.parametrize("text,want", SEARCH_CASES)
def test_any_and_all_as_a_whole_expression_run_as_loops_with_the_generators_values(text, want):
    """The whole expression is the aggregate: written as a loop returning at the deciding element; the same
    aggregate inside a comparison keeps its generator. Both give the worked-out value."""
    scope, store = make_scope()
    assert value(text, scope, store) is want
    loops = namespace(scope.shared)[SEARCHES]
    assert any(line.startswith("for _pv") for lines in loops.values() for line in lines)
    assert value(f"({text}) == true", scope, store) is want  # a part of an expression: the generator
    assert value(text, scope, store, {"p": ("int", None)}, p=99) is want  # a caller's p is shadowed


@pytest.mark.parametrize("text,pts,error", [
    ("all(call[q] == 'none' for q in [first(r for r in pts if r > 9), 1])", None, r"'call\[…\]' is indexed by none"),
    ("any(call[q] == 'x' for q in pts if q > 2)", None, r"IndexError"),  # call[3]: no such item
    ("all(count(q > p for q in pts) >= 0 for p in pts)", list(range(1001)), "limit of 1,000,000 steps"),
])
def test_errors_and_runaways_in_a_search_loop_are_located(text, pts, error):
    scope, store = make_scope()
    store["pts"] = pts or store["pts"]
    with pytest.raises(SpecRuntimeError, match=error):
        value(text, scope, store)


def test_a_function_that_runs_no_loop_keeps_the_budget_as_it_was():
    """`x = y + 1` charges nothing and calls nothing that could: no reset. A statement whose loop is inside a
    called closure (`max_by`: a closure, called with ctx) or in its own code still starts from a fresh budget:
    999,999 steps spent before it, its 5 steps pass the 1,000,000 limit only if the budget was not reset."""
    scope, store = make_scope()
    plain = compile_stmts("x = y + 1", scope)
    BUDGET.steps = 999_999
    plain(Ctx(store))
    assert store["x"] == 1 and BUDGET.steps == 999_999
    for text, want in [("x = max_by(p for p in pts)", 5), ("x = sum(p for p in pts)", 14),
                       ("for p in pts: x += p", 14)]:
        store["x"] = 0
        BUDGET.steps = 999_999
        compile_stmts(text, scope)(Ctx(store))
        assert store["x"] == want and BUDGET.steps == 5
    BUDGET.steps = 999_999
    assert compile_expr("y + 2", scope)[0](Ctx(store)) == 2 and BUDGET.steps == 999_999


@pytest.mark.parametrize("defines", [2, FORGET_IN_PLACE, FORGET_IN_PLACE + 1])
def test_a_loops_remembered_defines_are_forgotten_before_and_after_it(defines):
    """`d0` … `dk` (y + i) are remembered while `for p in pts: x += …` runs (the body changes only x): worked out
    once per loop, with the y of that loop. The cells are emptied by one chained line, or past FORGET_IN_PLACE
    by one call. Each run sees its own y: 5 elements × (k·y + 0 + 1 + … + (k - 1))."""
    scope, store = make_scope()
    for i in range(defines):
        scope.macros[f"d{i}"] = Macro(f"d{i}", (), f"y + {i}", SourceRef())
    fn = compile_stmts("for p in pts: x += " + " + ".join(f"d{i}" for i in range(defines)), scope)
    for y in (0, 10, 3):
        store["x"], store["y"] = 0, y
        fn(Ctx(store))
        assert store["x"] == 5 * (defines * y + sum(range(defines)))
    forgets = "forget(" in source_of(scope)
    assert forgets == (defines > FORGET_IN_PLACE)


@pytest.mark.parametrize("path,n", [("games/preferans.yaml", 3), ("games/tarot.yaml", 4)])
def test_the_sheets_copy_is_equal_in_order_and_shares_no_column_or_row(path, n):
    game = game_of(path)
    st = engine.new_match(game, n, 3)
    for i, (name, col) in enumerate(st.sheet.items()):  # distinct values everywhere
        if name in game.pair_columns:
            col[:] = [[10 * i + 3 * r + c for c in range(n)] for r in range(n)]
        else:
            col[:] = [10 * i + s for s in range(n)]
    copied = game.copy_sheet(st.sheet)
    assert list(copied.items()) == list(st.sheet.items())
    for name, col in copied.items():
        assert col is not st.sheet[name]
        rows = col if name in game.pair_columns else []
        assert all(row is not old for row, old in zip(rows, st.sheet[name]))
        if rows:
            rows[0][0] += 1
        col.append(None)
    assert all(len(col) == n for col in st.sheet.values()) and st.sheet != copied


def test_each_deals_end_logs_its_deal_end_event():
    """Deals 0 to 15 log an event shared by every match (events are never changed); later ones a new one; all
    are equal to the record made fresh."""
    game = game_of("games/tarot.yaml")  # rounds 0: no end
    rng = random.Random(5)
    st = engine.new_match(game, 4, 5, {"rounds": 0})
    seen = []
    while st.deal_no < 20:
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))])
        ends = [e for e in st.events[st.deal_events:] if e.kind == "deal-end"]  # none for a redeal
        assert ends == ([] if st.deals[-1].get("redeal") else [Event("deal-end", None, (), st.deal_no)])
        seen += [(st.deal_no, e) for e in ends]
        engine.next_deal(st)
    assert len(seen) > 16
    for no, event in seen:
        shared = [e for e in engine.DEAL_ENDS if e is event]
        assert shared == ([engine.DEAL_ENDS[no]] if no < len(engine.DEAL_ENDS) else [])


@pytest.mark.parametrize("text,want", [
    ("len(high)", 3), ("high[0]", 3), ("high[x]", 5), ("4 in high", True), ("1 in high", False),
    ("sum(q for q in high)", 12), ("[q * 2 for q in high if q > 3]", [8, 10]), ("any(q > 4 for q in high)", True),
])
def test_a_remembered_list_only_read_is_lent_not_copied(text, want):
    """`high` ([3, 4, 5] for x = 2) is remembered by its inputs; a part that only reads it (its length, an item,
    `in`, an aggregate's loop) reads the list remembered, with no copy. The whole value handed out is still a
    copy: appending to it changes nothing remembered."""
    scope, store = make_scope()
    store["x"] = 2
    scope.macros["high"] = Macro("high", (), "[q for q in pts if q > x]", SourceRef())
    for _ in range(2):  # worked out, then looked up
        assert value(text, scope, store) == want
    code = compile_expr(text, scope)[0].guarded[2]  # the function's source (dslfuse.guarded_function)
    assert "MISSING" in code and "list(" not in code.replace("[q for q in", "")
    assert "list(" in compile_expr("high", scope)[0].guarded[2]
    whole = value("high", scope, store)
    whole.append(99)
    assert value("high", scope, store) == [3, 4, 5] and value(text, scope, store) == want
    store["x"] = 3  # new inputs: worked out again
    assert value("len(high)", scope, store) == 2


def test_a_statement_loop_over_a_remembered_list_keeps_its_copy():
    """The body of a `for` statement changes the game while it loops (a list a define handed out whole may be one
    the game keeps): it loops over a copy, as the closures do."""
    scope, store = make_scope()
    scope.macros["high"] = Macro("high", (), "[q for q in pts if q > x]", SourceRef())
    assert value("len(high)", scope, store) == 5
    loop = compile_stmts("for q in high: x += q", scope)
    assert "(list(" in "\n".join(loop.guarded[3])
    loop(Ctx(store))
    assert store["x"] == 14
