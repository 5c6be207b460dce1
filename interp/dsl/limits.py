"""The compile-time limits of a DSL expression: how deeply it nests once its defines are inlined (its closures
call each other that deep at run time: a few Python frames a level), how many parts it has, how long a number may
be; and the count of the compile in progress (`_Nesting`) that the compilers check against them."""
from __future__ import annotations

import sys

# A level is an operator or call (brackets and single operands add none); the shipped games nest up to 30 levels
# (defines built on defines). Python's frame limit is raised to fit MAX_NESTING.
MAX_NESTING = 100
PYTHON_FRAMES = 8000
if sys.getrecursionlimit() < PYTHON_FRAMES:
    sys.setrecursionlimit(PYTHON_FRAMES)
MAX_PARTS = 20_000
MAX_DIGITS = 15


class _Nesting:
    """The depth of the compile in progress and the parts compiled since its top-level expression began."""

    depth = 0
    parts = 0
    peak = 0  # the deepest level reached (a shared define's own depth is measured with it)
