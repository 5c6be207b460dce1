"""The examples in the package's docstrings run and give what they show."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import interp

OPTIONAL = {"interp.adapters.openspiel": "pyspiel", "interp.adapters.pettingzoo": "pettingzoo",
            "interp.adapters.gymnasium": "gymnasium"}
MODULES = ["interp", *sorted(m.name for m in pkgutil.walk_packages(interp.__path__, "interp."))]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name in OPTIONAL:  # an adapter runs only with its extra installed
        pytest.importorskip(OPTIONAL[name], reason=f"{name} needs the {OPTIONAL[name]} extra")
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0


def test_the_api_page_examples_run():
    failures, tried = doctest.testfile("../docs/api.md", optionflags=doctest.ELLIPSIS)
    assert failures == 0 and tried >= 8
