"""The examples in the package's docstrings run and give what they show."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import interpreter

OPTIONAL = {"interpreter.adapters.openspiel": "pyspiel", "interpreter.adapters.pettingzoo": "pettingzoo"}
MODULES = sorted(m.name for m in pkgutil.walk_packages(interpreter.__path__, "interpreter."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name in OPTIONAL:  # an adapter runs only with its extra installed
        pytest.importorskip(OPTIONAL[name], reason=f"{name} needs the {OPTIONAL[name]} extra")
    module = importlib.import_module(name)
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
