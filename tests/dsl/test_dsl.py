"""The DSL on its own: values, precedence, exact fractions, comprehensions and aggregates (with their tie
rules), statements, defines, and compile-time errors with the column of the bad token."""
from __future__ import annotations

import re
from fractions import Fraction

import pytest

from interp.dsl.compile import (
    Compiler,
    Context,
    Function,
    Macro,
    Scope,
    SourceRef,
    Symbol,
    compile_expr,
    compile_stmts,
    parse,
)
from interp.engine.builtins import FUNCTIONS
from interp.errors import DSLNameError, DSLSyntaxError, SpecRuntimeError


def make_scope():
    store = {"x": 4, "pts": [3, 1, 4, 1, 5], "call": ["none", "whist", "pass"]}
    symbols = {
        "x": Symbol("x", "int", get=lambda c: store["x"], set=lambda c, v: store.__setitem__("x", v)),
        "pts": Symbol("pts", "list[int]", get=lambda c: store["pts"]),
        "call": Symbol("call", "str", ("int",), get=lambda c, i: store["call"][i],
                       set=lambda c, v, i: store["call"].__setitem__(i, v),
                       domain=frozenset({"none", "whist", "pass"})),
    }
    scope = Scope(symbols, dict(FUNCTIONS), {}, {}, {})
    return scope, store


def ev(text, scope=None):
    scope = scope or make_scope()[0]
    fn, _ = compile_expr(text, scope)
    return fn(Context())


@pytest.mark.parametrize("text,value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("7 // 2", 3), ("7 % 4", 3), ("-3 + 1", -2),
    ("7 / 2", Fraction(7, 2)), ("6 / 3", 2), ("4.5 + 0.5", 5), ("1 < 2 and not 2 < 1", True),
    ("if x > 3 then 'big' else 'small'", "big"), ("2 in [1, 2]", True), ("3 not in [1, 2]", True),
    ("[1, 2] + [3]", [1, 2, 3]), ("[1, 2, 3] - [2]", [1, 3]), ("pts[2]", 4), ("pts[9]", None),
    ("min(3, x)", 3), ("max(3, x)", 4), ("trunc(-7 / 2)", -3), ("round(5 / 2)", 3), ("abs(-2)", 2),
])
def test_values(text, value):
    assert ev(text) == value


@pytest.mark.parametrize("text,value", [
    ("sum(p for p in pts)", 14), ("sum(p for p in pts if p > 1)", 12), ("count(p == 1 for p in pts)", 2),
    ("min(p for p in pts)", 1), ("max(p * 2 for p in pts)", 10), ("any(p > 4 for p in pts)", True),
    ("all(p > 0 for p in pts)", True), ("first(p for p in pts if p > 3)", 4), ("first(p for p in pts if p > 9)", None),
    ("[p * 10 for p in pts if p != 1]", [30, 40, 50]), ("len([p for p in pts if p > 2])", 3),
    # max_by / min_by return the element, the first one on ties
    ("max_by(p for p in [1, 5, 2, 5])", 5), ("max_by(0 - i for i in [3, 1, 1])", 1),
    ("min_by(i * 0 for i in [7, 8, 9])", 7), ("max_by(p for p in [])", None),
])
def test_comprehensions_and_aggregates(text, value):
    assert ev(text) == value


def test_statements_assign_loop_and_branch():
    scope, store = make_scope()
    run = compile_stmts("let total = 0; for p in pts: if p > 1: total += p; x = total", scope)
    run(Context())
    assert store["x"] == 12
    compile_stmts("x -= 2; call[2] = 'whist'", scope)(Context())
    assert store["x"] == 10 and store["call"][2] == "whist"


def test_defines_with_parameters_and_caller_locals():
    scope, _ = make_scope()
    scope.macros["double"] = Macro("double", ("n",), "n * 2", SourceRef())
    scope.macros["over"] = Macro("over", (), "p > x", SourceRef())  # reads the caller's loop variable p
    assert ev("double(x) + 1", scope) == 9
    assert ev("count(over for p in pts)", scope) == 1


def test_a_define_the_loop_cannot_change_is_worked_out_once_per_loop():
    """`for p in pts: y += bonus`: the body assigns y only, so `bonus` (which reads seen and pts, not p) has
    one value for the whole loop and is read once per loop; a define that reads what the body assigns, or the
    loop variable, is worked out at every element."""
    scope, store = make_scope()
    reads = []
    store["y"] = 0
    scope.symbols["y"] = Symbol("y", "int", get=lambda c: store["y"], set=lambda c, v: store.__setitem__("y", v))
    scope.symbols["seen"] = Symbol("seen", "int", get=lambda c: reads.append(1) or store["x"])
    scope.macros["bonus"] = Macro("bonus", (), "seen + sum(q for q in pts)", SourceRef())  # 4 + 14
    scope.macros["running"] = Macro("running", (), "seen + y", SourceRef())  # reads y, which the loop assigns
    scope.macros["twice"] = Macro("twice", (), "seen * p", SourceRef())  # reads the loop variable
    compile_stmts("for p in pts: if p > 0: y += bonus", scope)(Context())
    assert store["y"] == 5 * 18 and len(reads) == 1
    compile_stmts("for p in pts: y += bonus", scope)(Context())  # a new loop works it out again
    assert store["y"] == 10 * 18 and len(reads) == 2
    reads.clear()
    store["y"] = 0
    compile_stmts("for p in pts: y += running", scope)(Context())
    assert store["y"] == 4 * 2 ** 5 - 4 and len(reads) == 5  # 4, 8, 16, 32, 64: y doubles plus 4 each time
    reads.clear()
    store["y"] = 0
    compile_stmts("for p in pts: y += twice", scope)(Context())
    assert store["y"] == 4 * 14 and len(reads) == 5


def test_conditions_checked_in_one_stretch_share_a_define():
    """The phases' `when` conditions share a Stretch: while it is open (the engine skips phases; nothing
    changes) a define they use is read once for all of them; closed, every evaluation works it out."""
    from interp.dsl.runtime import Stretch
    scope, store = make_scope()
    reads = []
    scope.symbols["seen"] = Symbol("seen", "int", get=lambda c: reads.append(1) or store["x"])
    scope.macros["big"] = Macro("big", (), "seen > 3", SourceRef())
    stretch = Stretch()
    first, _ = compile_expr("big and x == 4", scope, steady=stretch)
    second, _ = compile_expr("not big", scope, steady=stretch)
    ctx = Context()
    assert first(ctx) is True and len(reads) == 1  # never opened: worked out (nothing is remembered yet)
    reads.clear()
    stretch.open()
    assert first(ctx) is True and second(ctx) is False and len(reads) == 1
    stretch.close()
    store["x"] = 2  # the game changed (a phase ran)
    stretch.open()
    assert first(ctx) is False and second(ctx) is True and len(reads) == 2
    stretch.close()
    assert second(ctx) is True and second(ctx) is True and len(reads) == 4  # closed: nothing remembered


def test_a_define_of_the_card_alone_is_worked_out_once_per_card():
    """`high(c)` reads only its card through deck-only built-ins: its value is tabled by card (each card's
    rank worked out once, however often it is asked); `over(c)` reads x too, so it is worked out every time."""
    from interp.spec.compiler import load_game
    game = load_game("docs/examples/tiny.yaml")
    deck = game.deck
    asked = []
    scope = Scope({"x": Symbol("x", "int", get=lambda c: asked.append("x") or 2),
                   "cs": Symbol("cs", "list[card]", get=lambda c: [0, 1, 0, 1, 0])}, dict(FUNCTIONS), {}, {}, {})
    scope.functions["rank"] = Function("rank", ("card",), "int",
                                       lambda ctx, c: asked.append(c) or deck.rank_of[c])
    scope.macros["high"] = Macro("high", ("c",), "rank(c) >= 1", SourceRef())
    scope.macros["over"] = Macro("over", ("c",), "rank(c) >= x", SourceRef())
    ctx = Context()
    ctx.game = game
    fn, _ = compile_expr("count(high(c) for c in cs)", scope)
    expected = sum(deck.rank_of[c] >= 1 for c in [0, 1, 0, 1, 0])
    assert fn(ctx) == expected and fn(ctx) == expected and sorted(asked) == [0, 1]
    asked.clear()
    fn, _ = compile_expr("count(over(c) for c in cs)", scope)
    assert fn(ctx) == sum(deck.rank_of[c] >= 2 for c in [0, 1, 0, 1, 0]) and len(asked) == 10


def test_a_filter_on_a_tabled_define_looks_the_table_up():
    """`[c for c in cs if high(c)]` keeps the cards `high` allows, in order and with repeats, each card's rank
    worked out once (the define's table, shared with its other uses); the elements still count against the loop
    limit; with another body, or a condition not of the loop's card, the plain loop gives the same values."""
    from interp.spec.compiler import load_game
    game = load_game("docs/examples/tiny.yaml")
    deck = game.deck
    asked = []
    cards = [0, 1, 0, 1, 0, 2]
    scope = Scope({"cs": Symbol("cs", "list[card]", get=lambda c: list(cards)),
                   "big": Symbol("big", "list[card]", get=lambda c: [0] * 600_000)}, dict(FUNCTIONS), {}, {}, {})
    scope.functions["rank"] = Function("rank", ("card",), "int",
                                       lambda ctx, c: asked.append(c) or deck.rank_of[c])
    scope.macros["high"] = Macro("high", ("c",), "rank(c) >= 1", SourceRef())
    ctx = Context()
    ctx.game = game
    kept = [c for c in cards if deck.rank_of[c] >= 1]
    fn, _ = compile_expr("[c for c in cs if high(c)]", scope)
    assert fn(ctx) == kept and fn(ctx) == kept and sorted(asked) == [0, 1, 2] and "c" not in ctx.loc
    plain, _ = compile_expr("[c for c in cs if high(c) and true]", scope)
    assert plain(ctx) == kept and sorted(asked) == [0, 1, 2]
    twice, _ = compile_expr("len([c for c in big if high(c)]) + len([c for c in big if high(c)])", scope)
    with pytest.raises(SpecRuntimeError, match="limit of 1,000,000 steps"):
        twice(ctx)


def test_recursive_define_is_refused():
    scope, _ = make_scope()
    scope.macros["loop"] = Macro("loop", (), "loop + 1", SourceRef())
    with pytest.raises(DSLNameError, match="itself"):
        compile_expr("loop", scope)


@pytest.mark.parametrize("text,message,column", [
    ("x + y", "unknown name 'y'", 5),
    ("x +", "ends too early", 4),
    ("1 and true", "must be a bool", 1),
    ("'a' + 1", "needs numbers", 5),
    ("if x then 1 else 2", "must be a bool", 4),
    ("if true then 1 else 'a'", "'then' gives", 21),
    ("call[1] == 'whsit'", "not a possible value", 12),
    ("len(1, 2)", "takes 1 argument", 1),
    ("nope(1)", "unknown function", 1),
    ("sum(p for p in x)", "needs a list", 16),
    ("x.level", "has no fields", 3),
    ("move(1, pts)", "can only be used as a statement", 1),
    ("x @ 2", "unexpected character", 3),
])
def test_compile_errors_name_the_problem_and_column(text, message, column):
    scope, _ = make_scope()
    with pytest.raises((DSLNameError, DSLSyntaxError)) as info:
        compile_expr(text, scope)
    assert message in info.value.message
    doc_column = _column(text, scope)
    assert doc_column == column


def _column(text, scope):
    """Compile `text` as the value of a YAML key and return the reported column (1-based)."""
    import os
    import tempfile

    from interp.spec.loader import load_spec
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "e.yaml")
    with open(path, "w") as fh:
        fh.write(f'key: "{text}"\n')
    doc = load_spec(path)
    try:
        compile_expr(doc.data["key"], scope, source=SourceRef(doc, ("key",)))
    except (DSLNameError, DSLSyntaxError) as exc:
        assert exc.location.line == 1
        return exc.location.column - len('key: "')
    raise AssertionError("no error")


def test_assignment_to_read_only_and_type_mismatch():
    scope, _ = make_scope()
    with pytest.raises(DSLNameError, match="cannot be assigned"):
        compile_stmts("pts = [1]", scope)
    with pytest.raises(DSLNameError, match="holds an int"):
        compile_stmts("x = 'a'", scope)


def test_with_binds_a_value_once():
    scope, store = make_scope()
    calls = []
    scope.symbols["costly"] = Symbol("costly", "int", get=lambda c: calls.append(1) or 5)
    fn, t = compile_expr("with c = costly: sum(c for p in pts)", scope)
    assert fn(Context()) == 25 and t == "int" and len(calls) == 1
    assert ev("with a = 2: with b = a * 3: [a, b]") == [2, 6]


def test_bids_order_against_ladder_names():
    from interp.engine import match as engine
    from interp.spec.compiler import load_game
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 0)
    st.vars["contract"] = game.bids_by_name["10S"]
    fn, _ = compile_expr("contract > '9NT' and contract >= '10S' and not contract > '10S'", game.scope)
    assert fn(st) is True


def test_a_condition_knows_the_local_values_it_requires():
    # `trick_no == 1 and …` can be true only at trick 1, also through a define with parameters (its own parameter
    # is bound inside, not required of the caller); `or` and `!=` require nothing.
    from interp.spec.compiler import load_game
    game = load_game("games/tarot.yaml")
    tricks = next(p for p in game.phases if p.type_name == "tricks")
    assert {a.name: a.trick_no for a in tricks.announcements} == {
        "poignee": 1, "double-poignee": 1, "triple-poignee": 1, "misere": 1}
    from interp.dsl.compile import compile_expr
    from interp.dsl.scope import Scope
    locals_ = {"trick_no": ("int", None), "me": ("int", None)}
    requires = {text: compile_expr(text, Scope({}), "bool", locals_=locals_)[0].requires
                for text in ("trick_no == 2 and me == 1", "trick_no == 2 or me == 1", "trick_no != 2", "true")}
    assert requires == {"trick_no == 2 and me == 1": {"trick_no": 2, "me": 1}, "trick_no == 2 or me == 1": {},
                        "trick_no != 2": {}, "true": {}}


def test_sum_adds_whole_numbers_and_fractions_as_python_sum_does():
    """`sum(…)` adds fractions over a common denominator (dslloops.exact_sum): the same value and type (a Fraction
    as soon as one element is one, else an int) as Python's sum, on random mixes; a float is left to sum."""
    import random

    from interp.dsl.loops import exact_sum
    rng = random.Random(7)
    for _ in range(3000):
        values = [rng.choice([rng.randint(-9, 9), Fraction(rng.randint(-20, 20), rng.choice([1, 2, 3, 4, 6, 7]))])
                  for _ in range(rng.randint(0, 12))]
        got, want = exact_sum(values), sum(values)
        assert got == want and type(got) is type(want)
    assert exact_sum([Fraction(1, 2), 0.25]) == 0.75
    scope, _ = make_scope()
    fn, _ = compile_expr("sum(p / 2 for p in pts)", scope)
    assert fn(Context()) == 7 and type(fn(Context())) is Fraction  # 3/2 + 1/2 + 2 + 1/2 + 5/2, as sum gives it


def test_an_expression_of_simple_parts_runs_as_one_function():
    """`x > 3 and call[1] == 'whist' and not pts[9] != none` is joined into one Python function from its parts'
    source (dslfuse): the same values as part by part — and with three parts `and` gives a bool, as before."""
    scope, store = make_scope()
    scope.symbols["x"].code = "ctx.vars['x']"
    ctx = Context()
    ctx.vars = store  # the source reads the symbol where its getter does
    compiled = Compiler(scope, SourceRef()).expr(parse("x > 3 and x < 9 and x != 5", "expr"))
    assert compiled.code is not None and "ctx.vars['x']" in compiled.code
    fn, _ = compile_expr("x > 3 and x < 9 and x != 5", scope)
    assert fn(ctx) is True
    store["x"] = 5
    assert fn(ctx) is False  # a bool, not the last operand
    fn, _ = compile_expr("if x > 3 then x * 2 - 1 else -x", scope)
    assert fn(ctx) == 9
    fn, _ = compile_expr("x // 0 + x % 0 + x / 0", scope)  # division by zero gives 0 in generated code too
    assert fn(ctx) == 0


def test_a_define_without_arguments_joins_the_code_that_uses_it_and_one_function_serves_equal_code():
    from interp.dsl.fuse import function, namespace
    scope, store = make_scope()
    scope.macros["big"] = Macro("big", (), "x > 3", SourceRef())
    a, _ = compile_expr("big and x < 9", scope)
    assert a(Context()) is True
    ns = namespace(scope.shared)
    assert function("(1 + 2)", ns) is function("(1 + 2)", ns)


def test_an_index_that_is_none_is_refused_with_its_place_in_joined_code():
    scope, store = make_scope()
    scope.symbols["call"].code = "ctx.vars['call'][{}]"
    scope.symbols["who"] = Symbol("who", "int", get=lambda c: None, code="ctx.vars['who']")
    ctx = Context()
    ctx.vars = dict(store, who=None)
    fn, _ = compile_expr("x > 0 and call[who] == 'whist'", scope, source=SourceRef())
    with pytest.raises(SpecRuntimeError, match=r"'call\[…\]' is indexed by none here"):
        fn(ctx)
    ctx.vars["who"] = 1
    assert fn(ctx) is True


def test_an_expression_too_deep_for_one_function_keeps_its_parts_closures():
    """71 nested `not`s pass the DSL's nesting limit (100) but not dslfuse's bracket limit (60): the outer parts
    run as closures around the inner function, with the same value (an odd number of `not`s of true)."""
    from interp.dsl.fuse import MAX_DEPTH
    deep = MAX_DEPTH + 11
    scope, _ = make_scope()
    assert ev("not (" * deep + "x > 3" + ")" * deep, scope) is False
    assert ev("not (" * (deep - 1) + "x > 3" + ")" * (deep - 1), scope) is True


def test_a_statement_block_remembers_the_defines_its_assignments_cannot_change():
    """A statement block that moves no card (a spec's scoring, say) works out a define without arguments that
    reads nothing the block assigns once per run (Steady over the whole block, as in a loop); a define reading
    an assigned name is worked out at every use."""
    from interp.dsl.runtime import Steady
    from interp.dsl.stmts import assigned_names
    scope, store = make_scope()
    reads = []
    store["y"] = 0
    scope.symbols["y"] = Symbol("y", "int", get=lambda c: store["y"], set=lambda c, v: store.__setitem__("y", v))
    scope.symbols["seen"] = Symbol("seen", "int", get=lambda c: reads.append(1) or store["x"])
    scope.macros["bonus"] = Macro("bonus", (), "seen * 10", SourceRef())  # 40
    scope.macros["running"] = Macro("running", (), "seen + y", SourceRef())  # reads y, which the block assigns
    text = "y += bonus; y += bonus; if bonus > 0: y += 1"
    written = assigned_names(parse(text, "stmts"), scope)
    assert written == frozenset({"y"})
    block = Steady(written)
    run = block.loop(compile_stmts(text, scope, steady=block))
    run(Context())
    assert store["y"] == 81 and len(reads) == 1
    run(Context())  # a new run works it out again
    assert store["y"] == 162 and len(reads) == 2
    reads.clear()
    text = "y += running; y += running"
    block = Steady(assigned_names(parse(text, "stmts"), scope))
    block.loop(compile_stmts(text, scope, steady=block))(Context())
    assert store["y"] == 162 + 166 + 332 and len(reads) == 2
    assert assigned_names(parse("y += 1; reveal(hand)", "stmts"), scope) is None  # an effect: nothing is steady


def test_a_top_level_expression_with_code_has_its_guard_written_in():
    """The loop budget is started afresh and a Python error inside becomes the located error, as with the
    guarding closure (dslfuse.guarded_function)."""
    from interp.dsl.runtime import BUDGET
    scope, store = make_scope()
    store["pts"] = [3, None]
    fn, _ = compile_expr("x + 1 > pts[1]", scope, source=SourceRef())
    BUDGET.steps = 999
    with pytest.raises(SpecRuntimeError, match=r"this expression failed while the game ran \(TypeError: "):
        fn(Context())
    assert BUDGET.steps == 0


def test_text_in_a_spec_never_becomes_python_in_joined_code():
    """Strings and names reach the generated source only through repr (dslfuse): a string literal written to
    look like Python stays a string."""
    scope, store = make_scope()
    scope.symbols["x"].code = "ctx.vars['x']"
    ctx = Context()
    ctx.vars = store
    sneaky = "') or __import__('os') or ('"
    fn, _ = compile_expr(f'if x > 0 then "{sneaky}" else "no"', scope)
    assert fn(ctx) == sneaky
    fn, _ = compile_expr("'a\\\\' == 'a\\\\' and x == 4", scope)
    assert fn(ctx) is True


def vars_scope(with_code: bool):
    """A scope whose symbols live in `ctx.vars`: with `with_code`, they say so as Python source (dslfuse writes
    statements on them as lines); without, statements on them run as closures."""
    def var(name, index=()):
        if index:
            return Symbol(name, "str" if name == "call" else "int", index,
                          get=lambda c, i: c.vars[name][i], set=lambda c, v, i: c.vars[name].__setitem__(i, v),
                          code=f"ctx.vars[{name!r}][{{}}]" if with_code else None)
        return Symbol(name, "int", get=lambda c: c.vars[name], set=lambda c, v: c.vars.__setitem__(name, v),
                      code=f"ctx.vars[{name!r}]" if with_code else None)
    symbols = {"x": var("x"), "who": var("who"), "call": var("call", ("int",)), "n": var("n", ("int",))}
    symbols["call"].domain = frozenset({"none", "whist", "pass"})
    return Scope(symbols, dict(FUNCTIONS), {}, {}, {})


def run_both(text: str, values: dict, locals_: dict | None = None):
    """Run `text` written as lines and as closures on equal states: (vars, locals) or the error, of each."""
    outcomes = []
    for with_code in (True, False):
        ctx = Context()
        ctx.vars = {k: list(v) if isinstance(v, list) else v for k, v in values.items()}
        ctx.loc.update(locals_ or {})
        try:
            compile_stmts(text, vars_scope(with_code), SourceRef(), {k: ("int", None) for k in locals_ or {}})(ctx)
            outcomes.append((ctx.vars, ctx.loc))
        except SpecRuntimeError as exc:
            outcomes.append(str(exc))
    return outcomes


def test_statements_written_as_python_change_the_state_as_their_closures_do():
    """`=`, `+=`, `-=` on vars and indexed vars, `let`, `if`, `for` and a local: x = 7, call[1] = 'pass', x = 10,
    y = 20, then x = 30 and n[1] = 5 + 30 − 1 = 34; the loop adds s + 30 to n[s]: n = [30, 65] (and unbinds s);
    the local t = 30 − 4 = 26."""
    from interp.dsl.fuse import BLOCKS, namespace
    text = ("x = 7; call[1] = 'pass'; x += 3; x -= 0; let y = x * 2; if y > 10: x += y; "
            "n[who] += x - 1; if x < 0: x = 0; for s in [0, 1]: if s >= 0: n[s] += s + x; t = x - 4")
    written, closures = run_both(text, {"x": 4, "who": 1, "call": ["none", "whist"], "n": [0, 5]}, {"t": 0})
    assert written == closures
    assert written == ({"x": 30, "who": 1, "call": ["none", "pass"], "n": [30, 65]}, {"t": 26, "y": 20})
    scope = vars_scope(True)
    compile_stmts("x += 1; call[who] = 'pass'", scope)
    lines = list(namespace(scope.shared)[BLOCKS].values())[-1]
    assert "ctx.vars['x'] = v" in " ".join(lines) and not any("(ctx)" in line for line in lines)


@pytest.mark.parametrize("text,values,message", [
    ("call[who] = 'pass'", {"who": None}, r"'call\[…\]' is indexed by none here"),
    ("n[who] += 1", {"who": None}, r"'n\[…\]' is indexed by none here"),
    ("x += x", {"x": 2 ** 52}, r"the value stored in 'x' grew past the limit"),
    ("x += 1", {"x": 2 ** 53 - 1}, r"the value stored in 'x' grew past the limit"),  # a constant delta
    ("n[who] -= 2", {"n": [2 - 2 ** 53]}, r"the value stored in 'n' grew past the limit"),
    ("n[who] += 0", {"who": None}, r"'n\[…\]' is indexed by none here"),  # a zero delta still reads its index
    ("x = x * 4", {"x": 2 ** 52}, r"the value stored in 'x' grew past the limit"),
    ("x = 3; let y = x * who", {"who": 2 ** 53}, r"the value stored in 'y' grew past the limit"),
    ("x = 3; n[x] = 1", {"x": 0, "n": [0]}, r"this expression failed while the game ran \(IndexError"),
])
def test_statements_written_as_python_fail_with_the_located_errors_of_their_closures(text, values, message):
    values = dict({"x": 0, "who": 0, "call": ["none"], "n": [0]}, **values)
    written, closures = run_both(text, values)
    assert written == closures
    assert re.search(message, written)


@pytest.mark.parametrize("second,message", [
    ("taken[nobody] = 1", r"'taken\[…\]' is indexed by none here"),
    ("taken[dealer] = max(points(c) for c in hand[dealer]) + 1", r"failed while the game ran \(TypeError"),
])
def test_an_error_in_the_second_of_three_yaml_items_names_that_item(tmp_path, second, message):
    """A list of statements runs as one function (spec_dsl), each item keeping its own guard: the failing second
    item (a none index; max of an empty hand plus 1) is named at its own line, after the first item ran."""
    import random
    from pathlib import Path

    from interp.engine import match as engine
    from interp.spec.compiler import load_game
    text = Path("docs/examples/tiny.yaml").read_text(encoding="utf-8")
    one = '    do: "for s in seats: taken[s] = sum(points(c) for c in won[s])"\n'
    assert one in text
    text = text.replace(one, '    do:\n      - "for s in seats: taken[s] = 1"\n'
                             f'      - "{second}"\n      - "taken[dealer] = 7"\n')
    text = text.replace("vars:\n", "vars:\n  nobody: {type: seat}\n")
    path = tmp_path / "v.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index(f'      - "{second}"') + 1
    game = load_game(str(path))
    st = engine.new_match(game, 2, 0)
    rng = random.Random(0)
    with pytest.raises(SpecRuntimeError, match=message) as info:
        while not st.deal_over:
            moves = engine.legal_moves(st)
            engine.apply(st, moves[rng.randrange(len(moves))], check=False)
    assert (info.value.location.file, info.value.location.line) == (str(path), line)
    assert st.vars["taken"] == [1, 1]  # the first item ran, the third did not


def test_statements_nested_past_what_one_python_function_allows_still_run():
    """Ten nested `for`s (two elements in the outer one) and forty nested `if`s: Python allows 20 nested blocks
    in one function, so the lines nested deeper than dslfuse.MAX_INDENT become functions of their own — the same
    result: x = 4 + 2 + 1."""
    loops = "".join(f"for a{i} in [{'1, 2' if i == 0 else '1'}]: " for i in range(10))
    ifs = "if x > 0: " * 40
    written, closures = run_both(f"{loops}x += a0 * 0 + 1; {ifs}x += 1", {"x": 4, "who": 0, "call": [], "n": []})
    assert written == closures and written[0]["x"] == 7


def test_a_define_over_plain_state_is_remembered_by_what_it_reads():
    """`whisting` (a loop over a per-seat var and an option) is remembered by the values it reads: asked again
    with the same values it gives an equal list (a copy: no use can change the one remembered); a new value of
    either is worked out afresh. A define reading a zone or a local of the place is not remembered."""
    scope, store = make_scope()
    scope.symbols["call"].code = "ctx.vars['call'][{}]"
    scope.symbols["x"].code = "ctx.vars['x']"
    scope.macros["whisting"] = Macro("whisting", (), "[s for s in [0, 1, 2] if call[s] == 'whist' and x > 0]",
                                     SourceRef())
    ctx = Context()
    ctx.vars, ctx.n = store, 3
    fn, _ = compile_expr("whisting", scope)
    first = fn(ctx)
    assert first == [1] and fn(ctx) == [1] and fn(ctx) is not fn(ctx)
    assert scope.shared[("inputs", "whisting")] == "(ctx.n, tuple(ctx.vars['call']), ctx.vars['x'],)"
    first.append(2)  # a caller's copy
    assert fn(ctx) == [1]
    store["call"][2] = "whist"
    assert fn(ctx) == [1, 2]
    store["x"] = 0
    assert fn(ctx) == []
    scope.macros["mine"] = Macro("mine", (), "[s for s in [0, 1] if s == me]", SourceRef())
    compile_expr("mine", scope, locals_={"me": ("int", None)})
    assert scope.shared[("inputs", "mine")] is None


def test_a_zone_effect_written_as_python_is_given_the_zone_id(monkeypatch):
    """`reveal(hand[declarer])`, `show_to(talon, left(declarer))` and `hide(won[declarer])` written as Python pass the zone's id
    (dslfuse.zone_id_code), so no search of the zones runs: the same events, revealed and shown zones as the
    built-ins given the zones themselves; a none index still fails, located."""
    from interp.engine import builtins, match as engine
    from interp.spec.compiler import load_game
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 5)
    st.vars["declarer"] = 1
    written, given = st.copy(), st.copy()
    ids = given.zone_ids
    FUNCTIONS["reveal"].impl(given, given.zones[ids["hand"][1]])
    FUNCTIONS["show_to"].impl(given, given.zones[ids["talon"][0]], 2)
    FUNCTIONS["hide"].impl(given, given.zones[ids["won"][1]])
    run = compile_stmts("reveal(hand[declarer]); show_to(talon, left(declarer)); hide(won[declarer])", game.scope)

    def no_search(ctx, zone):
        raise AssertionError("the zones were searched")
    monkeypatch.setattr(builtins, "_zone_id", no_search)
    run(written)
    assert written.events == given.events and written.events[-1].kind == "reveal"
    assert written.revealed == given.revealed and written.shown == given.shown == {(ids["talon"][0], 2)}
    written.vars["declarer"] = None
    with pytest.raises(SpecRuntimeError, match=r"'hand\[…\]' is indexed by none here"):
        run(written)


@pytest.mark.parametrize("index", [0, 2, 3, 7, -1, -3, -4])
def test_a_list_read_at_a_constant_index_in_joined_code_is_none_out_of_range(index):
    """`active[k]` with a constant k ≥ 0 is read in place in joined code (a negative one through item_at); the
    value is dslruntime.item_at's either way: the item, counting from the end for a negative k, or none past
    either end (3 seats in play)."""
    from interp.dsl.runtime import item_at
    from interp.engine import match as engine
    from interp.spec.compiler import load_game
    game = load_game("games/preferans.yaml")
    st = engine.new_match(game, 3, 5)
    fn, _ = compile_expr(f"active[{index}]" if index >= 0 else f"active[0 - {-index}]", game.scope)
    assert fn(st) == item_at(st.active, index) and len(st.active) == 3
    assert (fn(st) is None) == (not -3 <= index < 3)
