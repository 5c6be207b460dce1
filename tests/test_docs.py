"""docs/spec-language.md stays complete and true: every built-in, phase type and schema key is documented, the
built-in table matches interp.engine.builtins.FUNCTIONS, its examples compile, and the examples in the text
(docs/examples/tiny.yaml, the variant, the error message) behave as the page says.

`python tests/test_docs.py` prints the built-in table rows as FUNCTIONS describes them (to paste after a change).
"""
from __future__ import annotations

import json
import os
import random
import re

import pytest
import yaml

from interp.cli import main
from interp.dsl import types as T
from interp.dsl.compile import compile_expr, compile_stmts
from interp.engine import match as engine
from interp.engine.builtins import FUNCTIONS
from interp.spec.compiler import PHASE_TYPES, load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC_PATH = os.path.join(ROOT, "docs", "spec-language.md")
TINY = os.path.join(ROOT, "docs", "examples", "tiny.yaml")
SCHEMA = os.path.join(ROOT, "schema", "game.schema.json")
COMMON_PHASE_KEYS = ("id", "type", "when", "label", "goto", "insert_before", "insert_after")
DOCUMENTED_ELSEWHERE = {"turns"}  # phase types whose keys are documented with their game (turns: Mitten)


def doc_text() -> str:
    with open(DOC_PATH, encoding="utf-8") as fh:
        return fh.read()


def schema() -> dict:
    with open(SCHEMA, encoding="utf-8") as fh:
        return json.load(fh)


def section(text: str, heading: str) -> str:
    """The text under a heading line (starting with `heading`) up to the next heading of the same or higher level."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    level = len(heading) - len(heading.lstrip("#"))
    out = []
    for line in lines[start + 1:]:
        m = re.match(r"^(#+) ", line)
        if m and len(m.group(1)) <= level:
            break
        out.append(line)
    return "\n".join(out)


def between(text: str, begin: str, end: str) -> str:
    i = text.index(begin)
    return text[text.index("\n", i) + 1:text.index(end, i)]


# -- the built-in table ------------------------------------------------------------------------------------------
def signature(fn) -> tuple:
    """(call signature, result type) of a built-in as the table shows them: `left(seat, int?)`, `seat`."""
    low = len(fn.params) if fn.min_args is None else fn.min_args
    params = [("zone" if i in fn.zone_args else p) + ("?" if i >= low else "") for i, p in enumerate(fn.params)]
    if callable(fn.returns):
        as_int = fn.result([T.INT if p == T.NUM else p for p in fn.params])
        as_num = fn.result(list(fn.params))
        result = as_int if as_int == as_num else f"{as_int} or {as_num}"
    else:
        result = fn.returns
    return f"{fn.name}({', '.join(params)})", result


def table_rows() -> dict:
    """name -> [signature, result, what it does, example] from the built-in table of the page."""
    body = between(doc_text(), "<!-- begin functions", "<!-- end functions -->")
    rows = {}
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[0].startswith("`"):
            continue
        sig = cells[0].strip("`")
        rows[sig.split("(")[0]] = [sig, cells[1], cells[2], cells[3].strip("`")]
    return rows


def expected_row(fn) -> str:
    sig, result = signature(fn)
    return f"| `{sig}` | {result} | {fn.doc} |"


def test_every_builtin_is_in_the_table_as_functions_describes_it():
    rows = table_rows()
    missing = sorted(set(FUNCTIONS) - set(rows))
    assert not missing, f"built-ins missing from docs/spec-language.md §4.8: {missing}\n" + \
        "\n".join(expected_row(FUNCTIONS[n]) + " `example` |" for n in missing)
    unknown = sorted(set(rows) - set(FUNCTIONS))
    assert not unknown, f"the table lists functions that do not exist: {unknown}"
    for name, fn in FUNCTIONS.items():
        sig, result = signature(fn)
        assert rows[name][:3] == [sig, result, fn.doc], f"stale row for {name}; expected:\n{expected_row(fn)}"


def test_every_builtin_name_is_mentioned():
    text = doc_text()
    for name in FUNCTIONS:
        assert f"`{name}(" in text, f"built-in {name} is not mentioned in docs/spec-language.md"


def test_builtin_examples_compile_against_preferans(preferans):
    me = {"me": (T.SEAT, None)}
    for name, (_, _, _, example) in table_rows().items():
        assert re.search(rf"\b{name}\(", example), f"the example for {name} does not call it: {example}"
        if FUNCTIONS[name].effect:
            compile_stmts(example, preferans.scope, locals_=me)
        else:
            compile_expr(example, preferans.scope, locals_=me)


# -- phases and keys ---------------------------------------------------------------------------------------------
def test_every_phase_type_has_a_section():
    text = doc_text()
    for kind in PHASE_TYPES:
        assert f"\n### `{kind}`\n" in text, f"phase type {kind} has no '### `{kind}`' section"


def test_every_phase_key_of_the_schema_is_documented():
    text = doc_text()
    common = section(text, "## 3. Phases").split("\n### ")[0]
    for key in COMMON_PHASE_KEYS:
        assert f"`{key}`" in common, f"common phase key {key} is not in the table of §3"
    defs = schema()["$defs"]
    for kind in PHASE_TYPES:
        spec = defs.get(f"phase_{kind}")
        if spec is None or kind in DOCUMENTED_ELSEWHERE:
            continue
        body = section(text, f"### `{kind}`")
        for key in spec.get("properties", {}):
            if key in COMMON_PHASE_KEYS:
                continue
            assert f"`{key}`" in body, f"key {key!r} of phase type {kind} is not documented in its section"


def test_every_top_level_key_has_a_section():
    text = doc_text()
    keys_part = section(text, "## 2. Top-level keys")
    headings = [line for line in keys_part.splitlines() if line.startswith("### ")]
    for key in schema()["properties"]:
        assert any(f"`{key}`" in h for h in headings), f"top-level key {key} has no heading in §2"
        assert f"`{key}`" in text


def test_the_keys_inside_each_top_level_section_are_documented():
    text = doc_text()
    keys_part = section(text, "## 2. Top-level keys")
    for key, spec in schema()["properties"].items():
        inner = spec.get("properties") or (spec.get("additionalProperties") or {}).get("properties") or {}
        if not inner or key == "phases":
            continue
        heading = next(line for line in keys_part.splitlines() if line.startswith("### ") and f"`{key}`" in line)
        body = section(keys_part, heading)
        for sub in inner:
            assert re.search(rf"\b{re.escape(sub)}\b", body), f"{key}.{sub} is not documented under {heading!r}"


# -- the examples ------------------------------------------------------------------------------------------------
def test_the_tour_shows_tiny_yaml_verbatim():
    block = between(doc_text(), "<!-- begin tiny.yaml", "<!-- end tiny.yaml -->")
    with open(TINY, encoding="utf-8") as fh:
        assert block == "```yaml\n" + fh.read() + "```\n"


def test_tiny_validates(capsys):
    assert main(["validate", TINY]) == 0
    assert "ok  " in capsys.readouterr().out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tiny_plays_a_random_deal_to_the_end(seed):
    game = load_game(TINY)
    assert [p.type_name for p in game.phases] == ["deal", "tricks", "effects"]
    st = engine.new_match(game, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not st.deal_over:
        legal = engine.legal_moves(st)
        assert legal and engine.to_move(st) in st.active
        engine.apply(st, rng.choice(legal))
        moves += 1
    assert moves == 24  # every card is played once
    assert sum(st.sheet["score"]) == 120  # all card points are taken
    assert st.deals[-1]["facts"]["taken"] == st.sheet["score"]
    assert sum(engine.results(st)) == 0


def test_every_yaml_block_of_the_page_is_yaml():
    for block in re.findall(r"```yaml\n(.*?)```", doc_text(), re.S):
        yaml.safe_load(block)


def test_the_variant_example_validates(tmp_path, capsys):
    text = doc_text()
    i = text.index("# games/preferans-rostov.yaml")
    with open(os.path.join(ROOT, "games", "preferans.yaml"), encoding="utf-8") as fh:
        (tmp_path / "preferans.yaml").write_text(fh.read(), encoding="utf-8")
    (tmp_path / "preferans-rostov.yaml").write_text(text[i:text.index("```", i)], encoding="utf-8")
    game = load_game(str(tmp_path / "preferans-rostov.yaml"))
    assert game.phases[-1].id == "bonus" and game.options["pool_target"]["default"] == 20
    assert next(p for p in game.phases if p.id == "auction").jumps
    assert "doc" in game.options["pool_target"]
    assert main(["validate", str(tmp_path / "preferans-rostov.yaml")]) == 0


def test_the_error_example_is_what_validate_prints(tmp_path, monkeypatch, capsys):
    block = between(doc_text(), "$ interp validate tiny-typo.yaml", "```")
    with open(TINY, encoding="utf-8") as fh:
        source = fh.read()
    typo = source.replace(">= target for s in seats", ">= targt for s in seats")
    assert typo != source
    (tmp_path / "tiny-typo.yaml").write_text(typo, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["validate", "tiny-typo.yaml"]) == 2
    assert capsys.readouterr().err.rstrip("\n") == block.rstrip("\n")


if __name__ == "__main__":  # pragma: no cover
    for f in FUNCTIONS.values():
        print(expected_row(f))
