"""interp's own DSL parser (interp.dsl.lalr): its shipped tables are what lark's parser does, it builds the trees
lark builds (names, tokens, Nones, where each node starts) on every text it accepts, it leaves every text lark
refuses to lark (whose error is reported), and a parse needs no lark."""
from __future__ import annotations

import marshal
import subprocess
import sys

import lark
import pytest

from interp.dsl import lalr, parse as dslparse, tables
from interp.dsl.cache import encode
from interp.errors import DSLSyntaxError
from interp.spec.loader import load_data
from interp.spec.resources import shipped_games, spec_path

ACCEPTED = [("1 + x * 2", "expr"), ("if a in b then -c.d[1] else [x for x in y if x != 2]", "expr"),
            ("sum(p(c) for c in hand if not c.trump)", "expr"), ("with n = 3: n // 2 >= 1 or false", "expr"),
            ("for s in seats: if s == 1: score[s] += 2; let k = 'a'; add(k)", "stmts"),
            ("(a + b) * -(c)", "expr"), ("[ (x), y ]", "expr"), ("not (a) in b", "expr"), ("f()", "expr"),
            ("[]", "expr"), ("x.if", "expr"), ("a not in b and c or d  # a comment", "expr"),
            ("n(x for x in y)", "expr"), ("f() ; t[1, 2] -= 3", "stmts"), ("  x\n", "expr"), ('"q"', "expr")]
REFUSED = [("1 +", "expr"), ("f(1,, 2)", "expr"), ("x = = 1", "stmts"), ("a $ b", "expr"), ("", "expr"),
           ("if x", "expr"), ("x = 1", "expr"), ("# only a comment", "expr")]


@pytest.fixture(scope="module")
def shipped() -> lalr.Tables:
    found = lalr.load(lalr.GRAMMAR.read_text(encoding="utf-8"), lalr.TABLES)
    assert found is not None, "grammar.lark changed: run python tools/lark_tables.py"
    return found


def test_the_shipped_tables_are_what_the_shipped_lark_parser_does(shipped):
    if tables.load(tables.GRAMMAR.read_text(), tables.TABLES) is None:
        pytest.skip("lark's shipped tables are for another lark: run python tools/lark_tables.py")
    assert lalr.encoded(shipped) == lalr.encoded(tables.lalr_tables(tables.parser()))


@pytest.fixture(scope="module")
def built() -> lark.Lark:
    """lark's parser of grammar.lark, built now (not from any tables), with interp's trees and start positions."""
    return tables.starts_only(lark.Lark(tables.GRAMMAR.read_text(), parser="lalr", tree_class=dslparse.Tree,
                                        **tables.OPTIONS))


@pytest.mark.parametrize("text,start", ACCEPTED)
def test_a_text_parses_to_the_tree_lark_builds(shipped, built, text, start):
    assert encode(lalr.parse(shipped, text, start)) == encode(built.parse(text, start=start))


def _strings(node) -> set:
    """Every text in a spec's data (DSL texts, names, labels…)."""
    if isinstance(node, str):
        return {node}
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return set().union(*(_strings(v) for v in values))


def test_every_text_of_every_shipped_game_parses_or_is_refused_as_lark_does(shipped):
    """Each text of the shipped specs, as an expression and as statements: the same tree from both parsers, or
    refused by both (labels and names are mostly no statements)."""
    texts = set().union(*(_strings(load_data(spec_path(name)).data) for name in shipped_games()))  # each file once
    lark_parser, accepted = tables.parser(), 0
    for text in sorted(texts):
        for start in ("expr", "stmts"):
            try:
                expected = encode(lark_parser.parse(text, start=start))
            except lark.exceptions.UnexpectedInput:
                expected = None
            found = lalr.parse(shipped, text, start)
            assert (None if found is None else encode(found)) == expected, (text, start)
            accepted += expected is not None
    assert len(texts) > 1000 and accepted > 1000  # the shipped games' DSL texts and more


def test_a_keyword_after_a_dot_is_a_name_as_lark_lexes_it_there(shipped):
    assert lalr.parse(shipped, "x.if", "expr").children[1].type == "NAME"
    assert lalr.parse(shipped, "if a then b else c", "expr").data == "cond"


@pytest.mark.parametrize("text,start", REFUSED)
def test_a_text_lark_refuses_is_refused(shipped, text, start):
    with pytest.raises(lark.exceptions.UnexpectedInput):
        tables.parser().parse(text, start=start)
    assert lalr.parse(shipped, text, start) is None


def test_a_refused_text_gets_lark_s_located_error():
    with pytest.raises(DSLSyntaxError) as caught:
        dslparse.parse("f(1,, 2)", "expr")
    assert caught.value.message == "unexpected ','"


@pytest.mark.parametrize("damage", ["a byte changed", "another grammar", "missing"])
def test_tables_not_for_the_grammar_are_not_used(tmp_path, damage):
    data = bytearray(lalr.TABLES.read_bytes())
    copy = tmp_path / "grammar.lalr"
    if damage == "a byte changed":
        data[-50] ^= 1
        copy.write_bytes(bytes(data))
    elif damage == "another grammar":
        head, digest, payload = marshal.loads(bytes(data))
        copy.write_bytes(marshal.dumps((lalr.header("start: NAME"), digest, payload)))
    assert lalr.load(lalr.GRAMMAR.read_text(), copy) is None


def test_parsing_a_text_imports_no_lark():
    code = ("import sys; from interp.dsl.parse import parse; parse('for c in h: if c.x > 1: n += 1', 'stmts'); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'lark'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
