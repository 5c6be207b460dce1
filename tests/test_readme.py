"""The README is tested: its Python example runs, its commands name real subcommands, and `.ci/run` runs
exactly the README's test command."""
from __future__ import annotations

import re

from interp.cli.parser import build_parser


def readme() -> str:
    return open("README.md", encoding="utf-8").read()


def test_python_example_runs():
    block = re.search(r"```python\n(.*?)```", readme(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "README.md", "exec"), namespace)
    assert namespace["st"].deal_over


def test_ci_runs_the_readme_test_command():
    blocks = re.findall(r"```sh\n(.*?)```", readme(), re.S)
    test_command = next(b.strip() for b in blocks if "pytest" in b)
    ci = open(".ci/run", encoding="utf-8").read()
    assert test_command in ci.splitlines()


def test_documented_subcommands_exist():
    documented = set(re.findall(r"`interp (\w+)", readme()))
    actions = build_parser()._subparsers._group_actions[0].choices
    assert documented <= set(actions), documented - set(actions)
