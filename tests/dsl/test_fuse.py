"""The DSL's generated Python code (interp/dsl/fuse.py) means what the plain closures mean.

A `for` statement's variable held in a Python local (no binding in `ctx.loc`) and a define's use with arguments
written in place (no call) give the values, errors and shadowing of the plain closures — and fall back to them
wherever a part must look a local up by name. An any/all that is a whole expression runs as a loop with the
generator's values, stops and located errors; a function that can run no loop keeps the budget as it was while
every loop still starts from a fresh budget; a loop's remembered defines are forgotten by one line or, past a
few, by one call; a remembered list only read is lent, not copied."""
from __future__ import annotations

import re

import pytest

from interp.dsl.compile import Context, Macro, Scope, SourceRef, Symbol, compile_expr, compile_stmts
from interp.dsl.fuse import ACTIVE, FORGET_IN_PLACE, MADE, SEARCHES, namespace
from interp.dsl.runtime import BUDGET
from interp.engine import match as engine
from interp.engine.builtins import FUNCTIONS
from interp.errors import SpecRuntimeError


class Ctx(Context):
    """An evaluation context holding the vars as a game state does (`ctx.vars`), so that joined code reads them."""

    def __init__(self, store: dict) -> None:
        super().__init__()
        self.vars = store
        self.n = 3  # players


def make_scope():
    """x and y (ints), label (text), pts (a list) and call[i] (texts by index) in ctx.vars, all assignable where
    it says, with the Python source reading them (as a spec's vars have): statements on them are joined code."""
    store = {"x": 0, "y": 0, "label": "", "pts": [3, 1, 4, 1, 5], "call": ["none", "whist", "pass"]}

    def var(name, t):
        return Symbol(name, t, get=lambda c: c.vars[name], set=lambda c, v: c.vars.__setitem__(name, v),
                      code=f"ctx.vars[{name!r}]")
    symbols = {"x": var("x", "int"), "y": var("y", "int"), "label": var("label", "str"),
               "pts": Symbol("pts", "list[int]", get=lambda c: c.vars["pts"], code="ctx.vars['pts']"),
               "call": Symbol("call", "str", ("int",), get=lambda c, i: c.vars["call"][i],
                              set=lambda c, v, i: c.vars["call"].__setitem__(i, v), code="ctx.vars['call'][{}]")}
    return Scope(symbols, dict(FUNCTIONS), {}, {}, {}), store


def run(text, scope, store, locals_=None, **bound):
    ctx = Ctx(store)
    ctx.loc.update(bound)
    compile_stmts(text, scope, locals_=locals_)(ctx)
    return ctx


def value(text, scope, store, locals_=None, **bound):
    ctx = Ctx(store)
    ctx.loc.update(bound)
    return compile_expr(text, scope, locals_=locals_)[0](ctx)


def source_of(scope) -> str:
    """All the Python source made so far in the scope's namespace (expressions; statement blocks are listed by
    their lines)."""
    ns = namespace(scope.shared)
    blocks = ["\n".join(lines) for lines in ns.get("__blocks__", {}).values()]
    return "\n".join(list(ns.get(MADE, {})) + blocks)


def test_a_loop_variable_shadows_an_outer_binding_and_leaves_it_as_it_was():
    """`s` bound by `let` outside the loop: inside, `s` is each element (1 + 2 + 3); after it, the outer 5 again;
    a variable bound nowhere before is not left behind in ctx.loc."""
    scope, store = make_scope()
    ctx = run("let s = 5; for s in [1, 2, 3]: x += s; y = s", scope, store)
    assert store["x"] == 6 and store["y"] == 5 and ctx.loc == {"s": 5}
    store["x"] = 0
    ctx = run("for s in [1, 2, 3]: x += s * 10", scope, store)
    assert store["x"] == 60 and ctx.loc == {}
    assert "ctx.loc.get('s'" not in source_of(scope)  # held in a Python local: no binding to save


def test_a_loop_variable_given_by_the_caller_is_restored():
    scope, store = make_scope()
    ctx = run("for p in pts: x += p; y = p", scope, store, {"p": ("int", None)}, p=7)
    assert store["x"] == 14 and store["y"] == 7 and ctx.loc == {"p": 7}


def test_nested_loops_see_the_innermost_binding():
    """An inner loop over the same name sees its own elements (2 × (10 + 20)); one over another name sees the
    outer variable too."""
    scope, store = make_scope()
    run("for s in [1, 2]: for s in [10, 20]: x += s", scope, store)
    run("for s in [1, 2]: if s > 0: for s in [10, 20]: x += s", scope, store)
    run("for s in [1, 2]: for t in [10, 20]: y += t - s", scope, store)
    assert store["x"] == 120 and store["y"] == (9 + 19) + (8 + 18)


def test_a_body_that_rebinds_its_variable_keeps_the_variable_by_name():
    """`let s = …` as the body binds the name; the outer value is back after the loop."""
    scope, store = make_scope()
    ctx = run("let s = 100; for s in [1, 2]: let s = s * 1000; y = s", scope, store)
    assert store["y"] == 100 and ctx.loc == {"s": 100}
    ctx = run("for s in [1, 2]: s = s * 1000", scope, store)
    assert ctx.loc == {}


def test_a_define_reading_the_loop_variable_sees_each_element():
    """A define without arguments reads the loop variable of the place that uses it (`above` reads p): joined
    as code it reads the Python local; `others_above` reads it inside an aggregate, which runs as a closure of
    its own, so that loop keeps p in ctx.loc — the same values either way."""
    scope, store = make_scope()
    scope.macros["above"] = Macro("above", (), "p > 2", SourceRef())
    scope.macros["others_above"] = Macro("others_above", (), "count(q > p for q in pts)", SourceRef())
    run("for p in pts: if above: x += p", scope, store)
    assert store["x"] == 3 + 4 + 5
    run("for p in pts: y += others_above", scope, store)
    assert store["y"] == 2 + 3 + 1 + 3 + 0  # values of 3 1 4 1 5 above each


def test_a_string_hole_reading_the_loop_variable():
    scope, store = make_scope()
    run("for p in [1, 2]: label = 'seat {p}'", scope, store)
    assert store["label"] == "seat 2"


def test_defines_with_parameters_written_in_place():
    """`plus(n)` reads its parameter and the caller's loop variable p; `tens(p)` has a parameter named like the
    caller's loop variable and is given x, so p inside it is x; `same(q)` is given an expression, worked out
    once; `cnt(n)` loops over its parameter's uses in an aggregate (a closure: called, not written in)."""
    scope, store = make_scope()
    scope.macros["plus"] = Macro("plus", ("n",), "n + p", SourceRef())
    scope.macros["tens"] = Macro("tens", ("p",), "p * 10", SourceRef())
    scope.macros["same"] = Macro("same", ("q",), "q - q + q", SourceRef())
    scope.macros["cnt"] = Macro("cnt", ("n",), "count(q == n for q in pts)", SourceRef())
    store["x"] = 2
    run("for p in pts: y += plus(100)", scope, store)
    assert store["y"] == 500 + 14
    store["y"] = 0
    run("for p in pts: y += tens(x)", scope, store)
    assert store["y"] == 5 * 20
    store["y"] = 0
    run("for p in pts: y += same(p * 2) + cnt(p)", scope, store)
    assert store["y"] == 28 + (1 + 2 + 1 + 2 + 1)
    assert value("tens(3) + plus(1)", scope, store, {"p": ("int", None)}, p=4) == 35
    assert value("cnt(1) + same(x)", scope, store) == 4
    assert "_pv" in source_of(scope) and not ACTIVE


def test_a_long_define_is_called_not_written_in_at_each_use():
    """A define whose code is longer than INLINE_MAX is called at each use (written in at each of many uses, its
    code would grow the compiled source, and a spec's load time, by its length each time); a short one is written
    in. Both give the same values: long(p) is p·(1 + 2 + … + k), short(p) is p + 1, over pts 3 1 4 1 5 (sum 14)."""
    from interp.dsl.calls import INLINE_MAX
    scope, store = make_scope()
    k = INLINE_MAX // 10
    scope.macros["long"] = Macro("long", ("n",), " + ".join(f"n * {i}" for i in range(1, k + 1)), SourceRef())
    scope.macros["short"] = Macro("short", ("n",), "n + 1", SourceRef())
    run("for p in pts: y += long(p) + short(p)", scope, store)
    assert store["y"] == 14 * k * (k + 1) // 2 + 14 + 5
    source = source_of(scope)
    assert re.search(r"_pv\d+short_", source) and not re.search(r"_pv\d+long_", source)


def test_a_defines_nested_define_sees_its_parameter():
    """`outer(n)` uses `inner`, a define without parameters that reads `n` — the caller's binding of n, which
    inside outer's body is outer's parameter."""
    scope, store = make_scope()
    scope.macros["inner"] = Macro("inner", (), "n * 2", SourceRef())
    scope.macros["outer"] = Macro("outer", ("n",), "inner + 1", SourceRef())
    assert value("outer(5)", scope, store) == 11
    run("for p in pts: y += outer(p)", scope, store)
    assert store["y"] == 2 * 14 + 5


def test_errors_inside_held_loops_and_defines_are_located():
    """A none index in a loop whose variable is a Python local, and a none argument of a define written in
    place, fail with the located error of their statement."""
    scope, store = make_scope()
    with pytest.raises(SpecRuntimeError, match=r"'call\[…\]' is indexed by none"):
        run("for p in [0, first(q for q in pts if q > 9)]: call[p] = 'pass'", scope, store)
    scope.macros["double"] = Macro("double", ("n",), "n * 2", SourceRef())
    with pytest.raises(SpecRuntimeError, match="this expression failed"):
        run("for p in [1, first(q for q in pts if q > 9)]: x += double(p)", scope, store)
    with pytest.raises(SpecRuntimeError, match="this expression failed"):
        value("double(first(q for q in pts if q > 9))", scope, store)


def test_a_runaway_loop_with_held_variables_stops():
    scope, store = make_scope()
    store["pts"] = list(range(1001))
    with pytest.raises(SpecRuntimeError, match="limit of 1,000,000 steps"):
        run("for i in pts: for j in pts: if j < 0: x += 1", scope, store)


def test_a_remembered_list_define_follows_its_inputs_across_stretches():
    """`high` (a list worked out by a loop over plain state) is remembered in an open stretch, and by its inputs
    (pts, x) across stretches: a new x or a changed pts gives the new list, and a use may not change the one
    remembered."""
    from interp.dsl.runtime import Stretch
    scope, store = make_scope()
    scope.macros["high"] = Macro("high", (), "[q for q in pts if q > x]", SourceRef())
    stretch = Stretch()
    fn, _ = compile_expr("len(high) + sum(q for q in high)", scope, steady=stretch)
    first, _ = compile_expr("high", scope, steady=stretch)
    ctx = Ctx(store)
    for x, want in [(2, 3 + 12), (4, 1 + 5), (2, 3 + 12), (0, 5 + 14)]:
        store["x"] = x
        stretch.open()
        assert fn(ctx) == want and fn(ctx) == want
        first(ctx).append(99)  # a use's copy
        stretch.close()
        assert fn(ctx) == want
    store["pts"] = [7]
    stretch.open()
    assert fn(ctx) == 1 + 7 and first(ctx) == [7]
    stretch.close()


@pytest.mark.parametrize("text,want", [
    ("sum(p for p in pts if p > 1)", 12), ("sum(p / 2 for p in pts)", 7), ("count(p == 1 for p in pts)", 2),
    ("min(p for p in pts)", 1), ("max(p * 2 for p in pts if p < 5)", 8), ("min(p for p in pts if p > 9)", None),
    ("first(p for p in pts if p > 3)", 4), ("first(p for p in pts if p > 9)", None),
    ("[p * 10 for p in pts if p != 1]", [30, 40, 50]), ("[p for p in pts if p > 2]", [3, 4, 5]),
    ("any(p > 4 for p in pts)", True), ("all(p > 1 for p in pts)", False),
    # the variable shadows: the inner loop's p, then the outer one's again
    ("sum(sum(p for p in pts) + p for p in [1, 2])", 2 * 14 + 3),
    ("[count(q > p for q in pts) for p in pts]", [2, 3, 1, 3, 0]),
    # any / all / first stop at the element that decides: call[none] after it is never asked
    ("any(call[q] == 'whist' for q in [1, first(r for r in pts if r > 9)])", True),
    ("all(call[q] == 'none' for q in [1, first(r for r in pts if r > 9)])", False),
    ("first(call[q] for q in [2, first(r for r in pts if r > 9)])", "pass"),
])
def test_aggregates_written_as_python(text, want):
    scope, store = make_scope()
    assert value(text, scope, store) == want
    assert value(text, scope, store, {"p": ("int", None)}, p=99) == want  # a caller's p is shadowed


def test_an_aggregate_reads_the_callers_binding_and_a_define_of_its_variable():
    """`count(q > p …)` inside a statement loop over p reads that loop's p; `near(q)` reads q in an aggregate of
    its own (closures), and `ahead` reads the caller's loop variable q by name (a define without arguments)."""
    scope, store = make_scope()
    run("for p in [1, 2]: x += count(q > p for q in pts)", scope, store)
    assert store["x"] == 3 + 3
    scope.macros["near"] = Macro("near", ("n",), "count(r == n for r in pts)", SourceRef())
    scope.macros["ahead"] = Macro("ahead", (), "q > 3", SourceRef())
    assert value("[near(q) for q in pts]", scope, store) == [1, 2, 1, 2, 1]
    assert value("count(ahead for q in pts)", scope, store) == 2
    assert value("sum(count(r > q for r in pts) for q in pts if ahead)", scope, store) == 1 + 0


def test_an_error_or_a_runaway_in_an_aggregate_is_located():
    scope, store = make_scope()
    with pytest.raises(SpecRuntimeError, match=r"'call\[…\]' is indexed by none"):
        value("count(call[q] == 'pass' for q in [first(r for r in pts if r > 9), 1])", scope, store)
    store["pts"] = list(range(1001))
    with pytest.raises(SpecRuntimeError, match="limit of 1,000,000 steps"):
        value("sum(count(q > p for q in pts) for p in pts)", scope, store)


def test_nested_loops_that_keep_their_variables_by_name_compile_once_each():
    """20 aggregates nested, the innermost (a max_by: closures) reading every variable: each loop finds it must
    keep its variable in ctx.loc and is compiled again once (outermost first), not once per loop inside it
    (2^20 compiles)."""
    scope, store = make_scope()
    text = "max_by(z for z in [" + " + ".join(f"x{i}" for i in range(20)) + "])"
    for i in reversed(range(20)):
        text = f"sum({text} for x{i} in [{i}])"
    assert value(text, scope, store) == sum(range(20))


# pts is [3, 1, 4, 1, 5]; call is ["none", "whist", "pass"] (make_scope)
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


def test_a_card_tabled_define_on_a_held_variable_is_looked_up_in_place():
    """Hearts' `penalty(c)` depends on the card alone (a table by card): in a loop whose variable is a Python
    local, its use reads the table in place (the loop stays one comprehension, nothing bound in ctx.loc) and gives
    the values of the define asked card by card, for cards met the first time and again."""
    from tests.conftest import game_of
    game = game_of("games/hearts.yaml")
    codes = ["2H", "QS", "KS", "AH", "2C", "QS"]
    cards = [game.deck.index[c] for c in codes]
    fn, _ = compile_expr("[penalty(c) for c in hand_cards]", game.scope, locals_={"hand_cards": ("list[card]", None)})
    one, _ = compile_expr("penalty(x)", game.scope, locals_={"x": ("card", None)})
    st = engine.new_match(game, 4, 0)
    st.loc["hand_cards"] = cards
    assert fn(st) == [1, 13, 0, 1, 0, 13]
    st.loc.clear()
    for card, want in zip(cards, [1, 13, 0, 1, 0, 13]):
        st.loc["x"] = card
        assert one(st) == want
    code = fn.guarded[2]  # the loop's source: one comprehension over a Python local, nothing read from ctx.loc
    assert code.startswith("[") and "_pv" in code and "ctx.loc['c']" not in code


@pytest.mark.parametrize("text", ["x > 0 or c > 2", "if x == 0 then c % 2 == 0 else c > y", "x > 0 and c > 1",
                                  "x == 1", "c > 1 and x > 0", "x > 0 or y > 0 or c == 4", "not (c == 3)",
                                  "if x == 0 then (y > 0 and c < 4) else (x > 1 or c == 1)", "not (x > 0 and c > 2)",
                                  "not (x > 0 or c > 2)", "not (if y > 0 then c > 2 else x == 0)", "true",
                                  "not not (x == 0 or c == 5)"])
@pytest.mark.parametrize("x,y", [(0, 0), (0, 1), (1, 0), (2, 5)])
def test_a_filter_keeps_the_items_its_condition_keeps_one_by_one(text, x, y):
    """compile_filter asks what does not read the item once (an `if` on it picks a filter, an `or` on it keeps every
    item, an `and` on it none or a filter) and the rest per item: the items kept are those the condition, asked
    item by item, keeps."""
    from interp.dsl.compile import ITEMS, compile_filter
    scope, store = make_scope()
    store.update({"x": x, "y": y})
    items = [1, 2, 3, 4, 5]
    keep = compile_filter(text, "c", scope, locals_={"c": ("int", None)})
    ctx = Ctx(store)
    ctx.loc[ITEMS] = items
    want = [c for c in items if value(text, scope, store, {"c": ("int", None)}, c=c)]
    assert keep(ctx) == want


def test_a_filter_whose_condition_holds_for_all_hands_the_items_back_without_a_loop():
    from interp.dsl.compile import ITEMS, compile_filter
    scope, store = make_scope()
    store["x"] = 1
    keep = compile_filter("x > 0 or c > 2", "c", scope, locals_={"c": ("int", None)})
    ctx = Ctx(store)
    ctx.loc[ITEMS] = items = [1, 2, 3]
    assert keep(ctx) is items
    store["x"] = 0
    assert keep(ctx) == [3]


@pytest.mark.parametrize("text", ["c > low or x > 0", "if x == 0 then c % 2 == 0 else c > low", "c == low + 2",
                                  "x > 0 and c > low", "not (c == low)", "any(p == c for p in pts if p > low)",
                                  "near(c)", "sum(p for p in pts if p > low) > c"])
@pytest.mark.parametrize("x,low", [(0, 0), (0, 2), (1, 3)])
def test_a_filter_given_its_locals_as_arguments_keeps_what_it_keeps_with_them_bound(text, x, low):
    """compile_filter_args takes the condition's other locals and the items as Python arguments: at every store
    and local value, it keeps the items compile_filter keeps with the same locals bound in ctx.loc (a define that
    reads the caller's local `low` written in place too). Worked example: `c > low or x > 0` over [1 … 5] with
    x 0, low 2 keeps [3, 4, 5]."""
    from interp.dsl.compile import ITEMS, compile_filter, compile_filter_args
    scope, store = make_scope()
    scope.macros["near"] = Macro("near", ("n",), "n - low < 2 and n >= low", SourceRef())
    store["x"] = x
    locals_ = {"c": ("int", None), "low": ("int", None)}
    items = [1, 2, 3, 4, 5]
    by_args = compile_filter_args(text, "c", scope, locals_=locals_)
    assert by_args is not None
    ctx = Ctx(store)
    ctx.loc.update({ITEMS: items, "low": low})
    want = compile_filter(text, "c", scope, locals_=locals_)(ctx)
    assert by_args(Ctx(store), low, items) == want
    if (text, x, low) == ("c > low or x > 0", 0, 2):
        assert want == [3, 4, 5]


def test_a_filter_that_must_read_its_locals_from_ctx_loc_is_not_given_them_as_arguments():
    """A define too long to be written in place that reads the caller's local runs as a function of its own,
    which reads the local from ctx.loc: compile_filter_args gives None (the caller binds the locals and uses
    compile_filter), and compile_filter still keeps the items it should."""
    from interp.dsl.compile import ITEMS, compile_filter, compile_filter_args
    scope, store = make_scope()
    scope.macros["long"] = Macro("long", (), " + ".join(["sum(p * low for p in pts if p > low)"] * 40), SourceRef())
    locals_ = {"c": ("int", None), "low": ("int", None)}
    assert compile_filter_args("c * 100 > long", "c", scope, locals_=locals_) is None
    ctx = Ctx(store)
    ctx.loc.update({ITEMS: [1, 2, 3, 4, 5], "low": 1})
    assert compile_filter("c * 100 > long", "c", scope, locals_=locals_)(ctx) == [5]  # long: 40 × (3 + 4 + 5) = 480


@pytest.mark.parametrize("name,table", [("suit", "suit_of"), ("rank", "rank_of"), ("points", "points"),
                                        ("rank_name", "rank_name")])
def test_a_card_table_built_in_on_a_local_reads_the_deck_table_in_place(name, table):
    """`suit(c)`, `rank(c)`, `points(c)` and `rank_name(c)` on a local (bound in ctx.loc, or held in a Python local by a
    comprehension) read the deck's table in place, no call: at every card of Tarot's deck (its Excuse is outside
    the suits) and at none, the value the built-in gives; on a computed card they call the built-in."""
    from tests.conftest import game_of
    game = game_of("games/tarot.yaml")
    impl = FUNCTIONS[name].impl
    one, _ = compile_expr(f"{name}(x)", game.scope, locals_={"x": ("card", None)})
    each, _ = compile_expr(f"[{name}(c) for c in xs]", game.scope, locals_={"xs": ("list[card]", None)})
    st = engine.new_match(game, 4, 0)
    cards = list(range(len(game.deck)))
    for card in [*cards, None]:
        st.loc["x"] = card
        assert one(st) == impl(st, card) and type(one(st)) is type(impl(st, card))
    st.loc["xs"] = cards
    assert each(st) == [impl(st, c) for c in cards]
    assert f"ctx.game.deck.{table}[ctx.loc['x']]" in one.guarded[2]
    assert re.search(rf"ctx\.game\.deck\.{table}\[_pv\w+\]", each.guarded[2])
    computed, _ = compile_expr(f"{name}(top(xs))", game.scope, locals_={"xs": ("list[card]", None)})
    assert f"deck.{table}" not in computed.guarded[2] and computed(st) == impl(st, cards[-1])


@pytest.mark.parametrize("kind", ["any", "all"])
@pytest.mark.parametrize("x", [0, 2, 4, 9])
def test_a_statement_testing_an_any_or_all_runs_it_as_a_loop_with_the_same_outcome(kind, x):
    """`if any(p > x for p in pts): y = 1` tests its any/all as a loop written into the statement's lines (no
    generator): over pts = 3 1 4 1 5, the branch runs exactly when the expression, asked on its own, holds."""
    scope, store = make_scope()
    store.update({"x": x, "y": 0})
    condition = f"{kind}(p > x for p in pts)"
    run(f"if {condition}: y = 1", scope, store)
    want = {"any": any, "all": all}[kind](p > x for p in [3, 1, 4, 1, 5])
    assert value(condition, scope, store) is want
    assert store["y"] == (1 if want else 0)
    assert re.search(r"^\s*for _pv\w+ in charge\(", source_of(scope), re.M)
    assert f"{kind}(" not in "\n".join(line for line in source_of(scope).splitlines() if line.lstrip().startswith("if "))


def test_of_suit_keeps_the_cards_of_one_suit_in_their_order():
    """of_suit on Tarot's deck: the trumps of a mixed list in the list's order (not the deck's), none for a suit
    that is not there or for none, and the Excuse (outside the suits) only for its own code."""
    from tests.conftest import game_of
    game = game_of("games/tarot.yaml")
    st = engine.new_match(game, 4, 0)
    of_suit = FUNCTIONS["of_suit"].impl
    cards = [game.deck.index[c] for c in ["T21", "KS", "T1", "EX", "QS", "T5"]]
    assert [game.deck.codes[c] for c in of_suit(st, cards, "T")] == ["T21", "T1", "T5"]
    assert [game.deck.codes[c] for c in of_suit(st, cards, "S")] == ["KS", "QS"]
    assert of_suit(st, cards, "H") == [] and of_suit(st, cards, None) == [] and of_suit(st, [], "T") == []
    excuse_suit = game.deck.suit_of[game.deck.index["EX"]]
    assert [game.deck.codes[c] for c in of_suit(st, cards, excuse_suit)] == ["EX"]
