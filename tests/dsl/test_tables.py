"""The DSL parser's tables shipped with the package (interp.dsl.tables): used when they are for the grammar and lark
in use, ignored (and the parser built) when grammar.lark was edited or the file is damaged, and parsing exactly as
a parser built from grammar.lark does."""
from __future__ import annotations

import marshal

import lark
import pytest
from lark.parse_tree_builder import PropagatePositions

from interp.dsl import parse as dslparse, tables
from interp.dsl.nodes import Tree

TEXTS = [("1 + x * 2", "expr"), ("if a in b then -c.d[1] else [x for x in y if x != 2]", "expr"),
         ("sum(p(c) for c in hand if not c.trump)", "expr"), ("with n = 3: n // 2 >= 1 or false", "expr"),
         ("for s in seats: if s == 1: score[s] += 2; let k = 'a'; add(k)", "stmts")]
BROKEN = [("1 +", "expr"), ("f(1,, 2)", "expr"), ("x = = 1", "stmts"), ("a $ b", "expr")]


@pytest.fixture
def builds(monkeypatch):
    """The number of parsers lark builds from a grammar (rather than loads from tables) during the test; no load
    cache to fall back on."""
    monkeypatch.setenv("INTERP_NO_CACHE", "1")
    built: list = []
    init = lark.Lark.__init__

    def counted(self, *args, **kwargs):
        built.append(1)
        init(self, *args, **kwargs)
    monkeypatch.setattr(lark.Lark, "__init__", counted)
    return built


def shipped_header() -> tuple:
    return marshal.loads(tables.TABLES.read_bytes())[0]


def test_the_shipped_tables_are_for_grammar_lark_and_the_parser_options():
    expected = tables.header(tables.GRAMMAR.read_text(encoding="utf-8"))
    assert shipped_header()[:3] == expected[:3], "grammar.lark changed: run python tools/lark_tables.py"


def test_an_edited_grammar_is_noticed_and_its_parser_built(builds, monkeypatch, tmp_path):
    edited = tmp_path / "grammar.lark"
    edited.write_text(tables.GRAMMAR.read_text().replace('MUL_OP: "*"', 'MUL_OP: "^" | "*"'))
    monkeypatch.setattr(tables, "GRAMMAR", edited)  # beside the shipped tables, made for the unedited grammar
    assert tables.load(edited.read_text(), tables.TABLES) is None
    parser = tables.parser()
    assert builds == [1]
    assert parser.parse("2 ^ 3", start="expr").children[1] == "^"  # the stale tables would refuse '^'


@pytest.mark.parametrize("damage", ["truncated", "a byte changed", "not marshal", "empty"])
def test_damaged_tables_are_ignored_and_the_parser_built(builds, monkeypatch, tmp_path, damage):
    data = bytearray(tables.TABLES.read_bytes())
    if damage == "truncated":
        data = data[:len(data) // 2]
    elif damage == "a byte changed":
        data[-100] ^= 1
    elif damage == "not marshal":
        data = bytearray(b"\xff" * 64)
    else:
        data = bytearray()
    copy = tmp_path / "grammar.tables"
    copy.write_bytes(bytes(data))
    monkeypatch.setattr(tables, "TABLES", copy)
    parser = tables.parser()
    assert builds == [1]
    assert parser.parse("1 + x", start="expr").data == "arith"


def test_the_shipped_tables_parse_and_refuse_as_the_grammar_built_now(builds):
    shipped = tables.load(tables.GRAMMAR.read_text(), tables.TABLES)
    if shipped is None:
        pytest.skip("the shipped tables are for another lark: run python tools/lark_tables.py")
    built = lark.Lark(tables.GRAMMAR.read_text(), parser="lalr", tree_class=Tree, **tables.OPTIONS)
    for text, start in TEXTS:
        assert shipped.parse(text, start=start) == built.parse(text, start=start), text
    for text, start in BROKEN:
        errors = []
        for parser in (shipped, built):
            with pytest.raises(lark.exceptions.UnexpectedInput) as caught:
                parser.parse(text, start=start)
            exc = caught.value
            errors.append((type(exc), exc.pos_in_stream, sorted(getattr(exc, "expected", ()))))
        assert errors[0] == errors[1], text


def test_a_new_process_loads_the_shipped_tables_instead_of_building_them(builds):
    if shipped_header()[3] != lark.__version__:
        pytest.skip(f"tables made with lark {shipped_header()[3]}, lark {lark.__version__} installed: "
                    "run python tools/lark_tables.py")
    dslparse._parser.cache_clear()  # as in a new process
    try:
        assert dslparse._parser().parse("x", start="expr").data == "name"
        assert builds == []
    finally:
        dslparse._parser.cache_clear()


def starts(node) -> list:
    """Each node of a tree (interp's or lark's), in order, with where lark's position tracking or interp's says it
    starts."""
    if isinstance(node, str) or node is None:
        return []
    return [(str(node.data), node.meta.start_pos)] + [s for child in node.children for s in starts(child)]


def test_the_dsl_parser_keeps_where_each_node_starts_as_lark_does():
    """interp's parser tracks only where a node starts (tables.StartPositions); lark's full tracking (on its own
    trees) agrees on every node, brackets and inlined levels included."""
    full = lark.Lark(tables.GRAMMAR.read_text(), parser="lalr", **tables.OPTIONS)
    light = tables.parser()
    assert all(type(c) is not PropagatePositions for c in light._callbacks.values())
    for text, start in TEXTS + [("(a + b) * -(c)", "expr"), ("[ (x), y ]", "expr"), ("not (a) in b", "expr")]:
        assert starts(light.parse(text, start=start)) == starts(full.parse(text, start=start)), text
    assert light.parse("(a + b) * c", start="expr").meta.start_pos == 0  # at the bracket, as lark says
