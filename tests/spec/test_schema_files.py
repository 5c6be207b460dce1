"""schema/game.schema.json, read by a standard JSON Schema validator (as an editor would), accepts every file
that ships — variants included: their required keys apply to the merged spec, not to the variant's own file."""
from __future__ import annotations

import glob
import json

import jsonschema
import pytest
import yaml

SHIPPED = sorted(glob.glob("games/*.yaml") + glob.glob("docs/examples/*.yaml"))


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    with open("schema/game.schema.json", encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(validator, text: str) -> list[str]:
    return sorted(e.message for e in validator.iter_errors(yaml.safe_load(text)))


def test_there_are_variants_among_the_shipped_files():
    variants = [f for f in SHIPPED if "extends" in yaml.safe_load(open(f, encoding="utf-8"))]
    assert len(SHIPPED) >= 20 and len(variants) >= 10


@pytest.mark.parametrize("path", SHIPPED)
def test_shipped_file_is_valid(validator, path):
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    assert [e.message for e in validator.iter_errors(data)] == []


def test_a_whole_spec_still_needs_its_required_keys(validator):
    assert errors(validator, "name: x\nphases: [{id: deal}]\n") == [
        "'deck' is a required property", "'type' is a required property"]
    assert errors(validator, "name: x\ndeck: {suits: [S]}\nphases: [{id: deal}]\n") == [
        "'ranks' is a required property", "'type' is a required property"]


def test_a_variant_may_leave_them_to_its_base(validator):
    variant = "extends: base.yaml\ndeck: {ranks: [A, K]}\nphases: [{id: declarations, categories: []}]\n"
    assert errors(validator, variant) == []


def test_a_variant_is_still_checked_for_shape(validator):
    assert errors(validator, "extends: base.yaml\ndeck: {rank: [A]}\n") == [
        "Additional properties are not allowed ('rank' was unexpected)"]
    assert errors(validator, "extends: base.yaml\nplayers: {default: three}\n") == ["'three' is not of type 'integer'"]
    assert errors(validator, "extends: base.yaml\nphases: [{categories: []}]\n") == ["'id' is a required property"]
