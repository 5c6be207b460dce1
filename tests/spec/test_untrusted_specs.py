"""Hostile or careless spec files (issue 10): every one is refused with `file:line:column` and exit 2, or stopped
at run time by a located limit naming the phase or the expression — never a traceback, a hang or a blow-up.

One test (or one parametrised table) per class. The specs are small variants of docs/examples/tiny.yaml.
"""
from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from interp.cli import main
from interp.dsl.runtime import BUDGET, MAX_LOOP_STEPS
from interp.engine import match as engine
from interp.errors import Location, SpecError, SpecRuntimeError
from interp.spec.compiler import load_game, load_referenced_game
from interp.spec.loader import load_spec, referenced_path
from interp.spec.located import MAX_FILE_BYTES

TINY = os.path.abspath("docs/examples/tiny.yaml")
TINY_TEXT = Path(TINY).read_text(encoding="utf-8")


def run(capsys, *argv) -> tuple:
    """`interp …` in-process: (exit code, stderr), timed so a hang fails the test rather than the suite."""
    started = time.perf_counter()
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    assert time.perf_counter() - started < 20, "took too long"
    return code, err


def located(err: str, path, line: int | None = None) -> re.Match:
    """The `file:line:col:` head of the error, checked to name `path` (and `line`); no traceback."""
    assert "Traceback" not in err
    m = re.match(rf"{re.escape(str(path))}:(\d+):(\d+): ", err)
    assert m, err
    if line is not None:
        assert int(m.group(1)) == line, err
    return m


def write(tmp_path, text: str, name: str = "v.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def variant(tmp_path, text: str) -> Path:
    """A variant of the tiny game; its own lines start at line 3."""
    return write(tmp_path, f"extends: {TINY}\nname: v\n{text}")


# -- YAML -----------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("char", ["\x07", "\x00", "\ufffe", "\x1b", "\x9b", "\u202e"])
def test_control_characters_in_the_file_are_refused_where_they_are(tmp_path, capsys, char):
    path = write(tmp_path, f"name: Tiny\ndescription: a{char}b\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    assert err.startswith(f"{path}:2:15: control character U+{ord(char):04X}"), err


@pytest.mark.parametrize("escape", ["\\e[2J", "\\x07", "\\0", "\\u009b", "\\u202e"])
def test_escaped_control_characters_in_spec_text_are_refused(tmp_path, capsys, escape):
    """`name: "\\e]0;pwned\\a"` would retitle the window or clear the screen wherever the name is shown."""
    path = variant(tmp_path, f'description: "ok {escape}"\n')
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 3)
    assert m.group(2) == "18" and "control character" in err


def test_deep_nesting_is_refused(tmp_path, capsys):
    path = variant(tmp_path, "stats:\n  x: " + "[" * 500 + "]" * 500 + "\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "nested more than" in err


@pytest.mark.parametrize("value", ["!!timestamp 2001-12-14", "!!float abc", "!!int '7'", "!!omap [a, b]",
                                   "!!set {a}", "!!python/object:os.system x", "!!str ok", "!custom x"])
def test_every_tag_is_refused_with_its_location(tmp_path, capsys, value):
    path = variant(tmp_path, f"description: {value}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 3)
    assert m.group(2) == "14" and "YAML tag" in err and "hint:" in err


def test_an_unquoted_date_is_refused(tmp_path, capsys):
    path = variant(tmp_path, "description: 2001-12-14\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 3)
    assert "quote it" in err


def test_an_alias_bomb_is_refused_quickly(tmp_path, capsys):
    rows = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    rows += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 9)]
    path = variant(tmp_path, "stats_notes:\n" + "".join(f"  {r}\n" for r in rows))
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path)
    assert "more than" in err


def test_too_many_aliases_are_refused(tmp_path, capsys):
    path = variant(tmp_path, "x: &x 1\ny: [" + ", ".join(["*x"] * 200) + "]\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "aliases" in err


@pytest.mark.parametrize("text,column", [("rec: &r [*r]", 10), ("rec: &r {a: *r}", 13),
                                         ("rec: &r {a: [1, {b: *r}]}", 21), ("a: &r {b: &s [1, *s]}", 18)])
def test_an_alias_inside_its_own_anchor_is_refused(tmp_path, capsys, text, column):
    """Issue 25: `rec: &r [*r]` made a value that contains itself, and loading it ended in a RecursionError."""
    path = variant(tmp_path, text + "\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    assert int(located(err, path, 3).group(2)) == column
    assert "inside the value its anchor" in err


def test_a_huge_file_is_refused_without_reading_it_all(tmp_path, capsys):
    path = write(tmp_path, "name: big\ndescription: '" + "x" * (MAX_FILE_BYTES + 10) + "'\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    assert err.startswith(f"{path}:1:1: the file is larger than")


@pytest.mark.parametrize("value,words", [("9" * 5000, "more than 15 digits"), ("-" + "9" * 30, "more than 15 digits"),
                                         (".inf", "not a finite number"), ("-.inf", "not a finite number"),
                                         (".nan", "not a finite number"), ("1.0e+400", "not a finite number")],
                         ids=["5000-digits", "30-digits", "inf", "-inf", "nan", "1e400"])
def test_numbers_out_of_range_are_located_at_the_value(tmp_path, capsys, value, words):
    path = variant(tmp_path, f"options:\n  target: {{default: {value}}}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 4)
    assert m.group(2) == "21" and words in err


def test_a_control_character_in_a_key_is_refused(tmp_path, capsys):
    path = variant(tmp_path, 'options:\n  "ta\\ergt": {default: 1}\n')
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "in a key" in err


# -- DSL ------------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["-" * 400 + "1", "not " * 400 + "true", "(-" * 150 + "1" + ")" * 150,
                                  "if true then 1 else " * 300 + "0",
                                  "sum(" * 120 + "1" + " for i in seats)" * 120])
def test_deeply_nested_expressions_are_refused_at_validate(tmp_path, capsys, text):
    path = variant(tmp_path, f"stats:\n  deep: \"{text}\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "nests more than" in err and "RecursionError" not in err


def test_brackets_alone_do_not_nest(tmp_path, capsys):
    """400 brackets around a number group it, and add no level of nesting (no closure, no Python frame)."""
    path = variant(tmp_path, f"stats:\n  deep: \"{'(' * 400}1{')' * 400}\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 0, err


def test_a_flat_thousand_term_sum_validates_and_runs(tmp_path, capsys):
    """A chain of 1,000 terms compiles to one loop, not 1,000 nested closures (which overflowed Python's stack)."""
    terms = " + ".join(["t"] * 1000)
    path = variant(tmp_path, f"define:\n  opponent(s): left(s)\n  many(t): \"{terms}\"\n"
                             "stats:\n  big: \"many(taken[active[0]]) > 0\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 0, err
    code, err = run(capsys, "simulate", path, "-n", "3", "--json")
    assert code == 0, err
    game = load_game(str(path))
    st = engine.new_match(game, 2, 0)
    st.vars["taken"] = [2, 3]
    assert game.stats["big"](st) is True


@pytest.mark.parametrize("text", ["(" * 200_000 + "1" + ")" * 200_000, " + ".join(["1"] * 200_000)],
                         ids=["deep", "flat"])
def test_an_expression_text_that_is_too_long_is_refused_before_parsing(tmp_path, capsys, text):
    path = variant(tmp_path, f"stats:\n  big: \"{text}\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "longer than 10,000 characters" in err


def test_an_expression_with_too_many_parts_is_refused(tmp_path, capsys):
    """Short texts, but 4 defines each using the previous 10 times inline 10^4 uses of the first."""
    lines = ["  e0: \"taken[dealer]\""] + [f"  e{i}: \"" + " + ".join([f"e{i - 1}"] * 10) + "\"" for i in range(1, 5)]
    path = variant(tmp_path, "define:\n  opponent(s): left(s)\n" + "\n".join(lines) + "\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path)
    assert "parts" in err


def test_a_long_number_literal_is_refused(tmp_path, capsys):
    path = variant(tmp_path, "stats:\n  big: \"taken[dealer] > " + "7" * 5000 + "\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 4)
    assert m.group(2) == "25" and "digits" in err


# -- blow-ups in valid-looking specs ------------------------------------------------------------------------------
def test_defines_that_double_each_other_are_refused(tmp_path, capsys):
    """25 defines each using the previous twice would inline 2^25 parts."""
    lines = ["  d0: \"taken[dealer]\""] + [f"  d{i}: \"d{i - 1} + d{i - 1}\"" for i in range(1, 26)]
    path = variant(tmp_path, "define:\n  opponent(s): left(s)\n" + "\n".join(lines) + "\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path)
    assert "once defines are inlined" in err


def test_a_literal_packet_repeat_beyond_any_deck_is_refused(tmp_path, capsys):
    path = variant(tmp_path, "phases:\n  - id: deal\n    packets: [{each: 3, repeat: 1000000000}]\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 5)
    assert "repeat: 1000000000" in err and m.group(2) == "33"


def test_a_computed_packet_repeat_stops_at_the_cards(tmp_path, capsys):
    """The packets are counted as they are built, not after a billion of them exist."""
    path = variant(tmp_path, "phases:\n  - id: deal\n    packets: [{each: 0, repeat: \"1000000000\"}]\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "packets" in err


def test_a_bid_ladder_cross_product_is_refused(tmp_path, capsys):
    levels = list(range(1, 101))
    path = variant(tmp_path, "bids:\n  fields: {a: int, b: int}\n  ladder:\n"
                             f"    - each: {{a: {levels}, b: {levels}}}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 6)
    assert "10,000 bids" in err


def test_a_goto_loop_that_grows_a_value_is_stopped(tmp_path, capsys):
    path = variant(tmp_path, "vars:\n  grow: {type: 'list[int]', default: [1]}\nphases:\n"
                             "  - id: count\n    do: \"grow = grow + grow\"\n"
                             "    goto: {phase: count, when: \"true\"}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 7)
    assert "more than 10,000 items" in err


def test_nested_aggregates_in_stats_stop_at_the_loop_limit(tmp_path, capsys):
    """16^6 iterations per deal: simulate stops with the expression's location, at once."""
    deck = "[" + ", ".join(["1"] * 16) + "]"
    text = "sum(" * 6 + "1" + "".join(f" for x{i} in {deck})" for i in range(6)) + " > 0"
    path = variant(tmp_path, f"stats:\n  slow: \"{text}\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 0, err
    code, err = run(capsys, "simulate", path, "-n", "2")
    assert code == 2
    located(err, path, 4)
    assert "1,000,000 steps" in err


@pytest.mark.parametrize("text,words", [
    ("len(subsets(range(10000))) > 0", "10,000 items have about 10^3010 subsets; the limit is 10,000 lists"),
    ("len(subsets(range(20), 5)) > 0", "20 items have more than 10,000 subsets of at most 5;"),  # 21,699 of 1-5
    ("len(combinations(range(10000), 5000)) > 0", "10,000 items give about 10^3008 combinations of 5,000;"),
])
def test_too_many_subsets_are_refused_from_their_number_alone(tmp_path, capsys, text, words):
    """Issue 25: subsets(range(10000)) took 7 s to refuse and printed a 3,011-digit number."""
    path = variant(tmp_path, f"stats:\n  many: \"{text}\"\n")
    started = time.perf_counter()
    code, err = run(capsys, "simulate", path, "-n", "1")
    assert code == 2 and time.perf_counter() - started < 5
    located(err, path, 4)
    assert words in err and len(err) < 400, err


def test_subsets_within_the_limit_are_all_made():
    from interp.engine.builtins import _subsets
    assert len(_subsets(None, list(range(13)))) == 2 ** 13 - 1 == 8191
    assert len(_subsets(None, list(range(20)), 4)) == 20 + 190 + 1140 + 4845


@pytest.mark.parametrize("text,words", [
    # the sum of 1/2 … 1/1998 needs a denominator of ~860 digits: refused where it passes 307
    ("sum(sum(1 / (x + y) for x in range(1, 1000)) for y in range(1, 1000)) > 0", "more than 307 digits"),
    # each inner sum's denominator is ~220 digits (11 words of 64 bits, 121 steps an addition): the budget is
    # spent after ~8,000 additions, where 998,000 small ones would fit
    ("sum(sum(1 / (x + 3) for x in range(1, 500)) for y in range(1, 2000)) > 0", "1,000,000 steps"),
])
def test_big_exact_fractions_are_bounded(tmp_path, capsys, text, words):
    """Issue 25: nested sums over exact fractions stayed under the step limit and ran for minutes."""
    path = variant(tmp_path, f"stats:\n  harmonic: \"{text}\"\n")
    started = time.perf_counter()
    code, err = run(capsys, "simulate", path, "-n", "1")
    assert code == 2 and time.perf_counter() - started < 8
    located(err, path, 4)
    assert words in err, err


def test_sums_of_small_fractions_are_exact():
    from fractions import Fraction

    from interp.dsl.runtime import exact_sum
    assert exact_sum([Fraction(1, k) for k in range(1, 41)]) == sum(Fraction(1, k) for k in range(1, 41))


def test_the_loop_budget_is_per_evaluation_not_per_match():
    """Loops anywhere in a long simulation never add up to the limit: each evaluation and engine call starts anew."""
    game = load_game("games/mitten.yaml")
    st = engine.new_match(game, 2, 0)
    rng = random.Random(0)
    while not st.deal_over:
        BUDGET.steps = MAX_LOOP_STEPS  # as if a million steps were spent before
        engine.apply(st, rng.choice(engine.legal_moves(st)))
    assert st.deals


def test_a_phase_no_move_ends_is_stopped_naming_it(tmp_path, capsys):
    """A turns phase whose only action never ends it: validate's sample deal stops at the move limit."""
    path = variant(tmp_path, "phases:\n  - id: dither\n    type: turns\n    until: \"false\"\n"
                             "    actions:\n      - {name: wait, do: \"taken[me] += 0\"}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert f"{engine.MAX_DEAL_MOVES:,} moves" in err and "'dither'" in err


# -- extends: and other file references ---------------------------------------------------------------------------
def test_extends_a_device_is_refused(tmp_path, capsys):
    path = write(tmp_path, "extends: /dev/zero\nname: v\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    assert err.startswith(f"{path}:1:10: extends: /dev/zero is not a regular file"), err


def test_extends_a_folder_is_refused(tmp_path, capsys):
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, "extends: sub\nname: v\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 1)


def test_another_file_that_is_not_a_spec_is_never_quoted(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    for base in ("secret.txt", str(secret)):
        path = write(tmp_path, f"extends: {base}\nname: v\n")
        code, err = run(capsys, "validate", path)
        assert code == 2
        located(err, path, 1)
        assert "hunter2" not in err and "not a spec" in err


def test_extends_is_relative_to_the_file_not_the_working_directory(tmp_path, capsys, monkeypatch):
    (tmp_path / "base.yaml").write_text(TINY_TEXT, encoding="utf-8")
    path = write(tmp_path, "extends: base.yaml\nname: v\n")
    monkeypatch.chdir("/")
    code, err = run(capsys, "validate", path)
    assert code == 0, err


def test_referenced_path_is_the_checked_loader_for_other_readers(tmp_path):
    """What a scenario's `spec:` uses: relative to the scenario, a regular file, located errors."""
    (tmp_path / "g.yaml").write_text(TINY_TEXT, encoding="utf-8")
    doc = load_spec(str(write(tmp_path, "spec: g.yaml\nother: /dev/null\nmissing: nope.yaml\n", "s.yaml")))
    assert referenced_path(doc, ("spec",)) == str(tmp_path / "g.yaml")
    for key, words in (("other", "not a regular file"), ("missing", "no such file")):
        with pytest.raises(SpecError, match=words) as info:
            referenced_path(doc, (key,))
        assert info.value.location.line in (2, 3)
    assert load_referenced_game(doc, ("spec",)).name == "Tiny Tricks"


# -- run time after a clean validate ------------------------------------------------------------------------------
def test_indexing_by_a_none_seat_is_a_located_run_time_error(tmp_path):
    path = variant(tmp_path, "vars:\n  nobody: {type: seat}\n"
                             "stats:\n  held: \"len(hand[nobody]) > 0\"\n  points: \"taken[nobody] > 0\"\n")
    game = load_game(str(path))
    st = engine.new_match(game, 2, 0)
    for name, line in (("held", 6), ("points", 7)):
        with pytest.raises(SpecRuntimeError, match="indexed by none") as info:
            game.stats[name](st)
        assert (info.value.location.file, info.value.location.line) == (str(path), line)


def test_a_stats_expression_that_fails_at_run_time_is_located(tmp_path, capsys):
    """`max(…)` of nothing is none; adding to it used to crash simulate with a traceback."""
    path = variant(tmp_path, "stats:\n  best: \"max(points(c) for c in hand[dealer]) + 1\"\n")
    code, err = run(capsys, "validate", path)
    assert code == 0, err
    code, err = run(capsys, "simulate", path, "-n", "2")
    assert code == 2
    located(err, path, 4)
    assert "failed while the game ran" in err


def test_a_seat_var_with_a_text_default_is_refused(tmp_path, capsys):
    """`default: none` is the text 'none' in YAML: a seat var holding it crashed mid-deal."""
    path = variant(tmp_path, "vars:\n  nobody: {type: seat, default: none}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    located(err, path, 4)
    assert "leave out default" in err


def test_a_located_error_survives_pickling():
    """Errors raised in a worker process reach the user with their location."""
    import pickle
    error = SpecRuntimeError("boom", Location("g.yaml", 3, 7), "a hint", "line text")
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is SpecRuntimeError and back.format() == error.format()


def test_a_var_whose_values_are_not_plain_is_refused(tmp_path, capsys):
    """Found by the fuzz test: a mapping among a var's values crashed the compiler (unhashable)."""
    path = variant(tmp_path, "vars:\n  mode: {type: str, values: [a, {x: 1}], default: {x: 1}}\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    m = located(err, path, 4)
    assert m.group(2) == "33" and "is not a str" in err


# -- located messages ---------------------------------------------------------------------------------------------
def test_two_unknown_keys_point_at_the_first(tmp_path, capsys):
    path = variant(tmp_path, "phases:\n  - id: play\n    bogus_one: 1\n    bogus_two: 2\n")
    code, err = run(capsys, "validate", path)
    assert code == 2
    assert err.startswith(f"{path}:5:5: unknown key 'bogus_one' in phase 'play' (also 'bogus_two')"), err
