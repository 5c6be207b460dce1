"""What loading a spec costs a new process: `python tools/coldload.py [FILES...] [--rounds 5] [--against REV]`.

Each spec file (default: every games/*.yaml) is loaded, schema-checked and compiled (what `load_game` does) in a
new Python process with the load cache switched off (`INTERP_NO_CACHE=1`), as the first run after an edit or on a
new machine does; the child measures, in CPU time, `import interp.spec.compiler` and then each stage of the load:
reading the YAML (with the files it `extends:`), the schema check, and the compile (parsing the DSL texts
included), whose sum is the load. Python's own
bytecode cache is on, in a temporary folder (`PYTHONPYCACHEPREFIX`, filled by a first run that is not counted), as
an installed package has its `.pyc` files: without one every module of interp would be compiled from source at
every start (as with `PYTHONDONTWRITEBYTECODE=1`, `--no-bytecode`). Printed: per file the median load over
rounds and its spread (min–max), and the median of each stage; then the import's median and its cost by package,
from `python -X importtime` (self times, wall clock, median over rounds).

`--against REV` (a git revision, or a folder holding another copy of the source) measures that copy in the same
run, round by round alternating with this one, so that both see the same load on the machine: the figures are
printed side by side, with the machine's load average before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOAL_LOAD_MS = 100
GOAL_IMPORT_MS = 80

CHILD = """
import json, sys, time
started = time.process_time()
import interp.spec.compiler
imported = time.process_time()
from interp.spec.loader import load_spec
from interp.spec.resources import spec_path
from interp.spec.schema import check_schema
doc = load_spec(spec_path(sys.argv[1]))
read = time.process_time()
check_schema(doc)
checked = time.process_time()
interp.spec.compiler.compile_spec(doc)
loaded = time.process_time()
print(json.dumps({"import_ms": 1000 * (imported - started), "load_ms": 1000 * (loaded - imported),
                  "stages": {"read": 1000 * (read - imported), "schema": 1000 * (checked - read),
                             "compile": 1000 * (loaded - checked)},
                  "package": interp.__file__}))
"""
STAGES = ("read", "schema", "compile")
GROUPS = ("interp.engine", "interp.dsl", "interp.spec", "interp", "lark", "yaml", "jsonschema")


def environment(tree: Path, pycache: Path | None) -> dict:
    """A child's environment: the source in `tree` first on the path, no load cache, bytecode in `pycache`."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env.update(INTERP_NO_CACHE="1", PYTHONPATH=str(tree))
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    return env


def measure(tree: Path, spec: str, env: dict) -> dict:
    """One new process loading `spec` from the source in `tree`: {import_ms, load_ms}."""
    done = subprocess.run([sys.executable, "-c", CHILD, spec], env=env, cwd=tree, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"loading {spec} from {tree} failed:\n{done.stderr}")
    row = json.loads(done.stdout.strip().splitlines()[-1])
    if not Path(row["package"]).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"the child imported interp from {row['package']}, not from {tree}")
    return row


def import_times(code: str, tree: Path, env: dict) -> dict:
    """`python -X importtime -c code`: {module: self milliseconds}."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], env=env, cwd=tree, capture_output=True,
                          text=True)
    times = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].split()[-1].isdigit():
            times[parts[2].strip()] = int(parts[0].split()[-1]) / 1000
    return times


def import_costs(tree: Path, env: dict) -> dict:
    """What `import interp.spec.compiler` imports beyond Python's start (`site` …): self milliseconds by package
    group ("other": the standard library and the rest)."""
    started = import_times("pass", tree, env)
    costs = dict.fromkeys(GROUPS + ("other",), 0.0)
    for module, ms in import_times("import interp.spec.compiler", tree, env).items():
        if module not in started:
            costs[next((g for g in GROUPS if module == g or module.startswith(g + ".")), "other")] += ms
    return costs


def source_tree(against: str, scratch: Path) -> Path:
    """The folder of another copy of the source: `against` itself if it holds interp/, else that git revision of
    this repository unpacked into `scratch`."""
    if (Path(against) / "interp").is_dir():
        return Path(against)
    archive = subprocess.run(["git", "archive", against], cwd=ROOT, capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"--against {against}: neither a source folder nor a git revision "
                         f"({archive.stderr.decode().strip()})")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(scratch, filter="data")
    return scratch


def spread(values: list) -> str:
    """`median (min–max)` of milliseconds."""
    return f"{statistics.median(values):6.1f} ({min(values):5.1f}–{max(values):5.1f})"


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="spec files, relative to the repository (default: games/*.yaml)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", help="a git revision or a source folder to measure in the same run")
    parser.add_argument("--no-bytecode", action="store_true", help="no .pyc files: every module compiled at start")
    args = parser.parse_args(argv)
    files = args.files or sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.yaml"))
    with tempfile.TemporaryDirectory(prefix="coldload-") as scratch:
        trees = {"this": ROOT}
        if args.against:
            trees = {args.against: source_tree(args.against, Path(scratch) / "against"), **trees}
        envs = {name: environment(tree, None if args.no_bytecode else Path(scratch) / f"pyc-{i}")
                for i, (name, tree) in enumerate(trees.items())}
        load_before = os.getloadavg()
        for name, tree in trees.items():  # fills the bytecode caches; not counted
            measure(tree, str(ROOT / files[0]), envs[name])
        loads: dict = {(name, f): [] for name in trees for f in files}
        stages: dict = {(name, f): [] for name in trees for f in files}
        imports: dict = {name: [] for name in trees}
        costs: dict = {name: [] for name in trees}
        for _ in range(args.rounds):
            for f in files:
                for name, tree in trees.items():
                    row = measure(tree, str(ROOT / f), envs[name])
                    loads[name, f].append(row["load_ms"])
                    stages[name, f].append(row["stages"])
                    imports[name].append(row["import_ms"])
            for name, tree in trees.items():
                costs[name].append(import_costs(tree, envs[name]))
        load_after = os.getloadavg()
    report(trees, files, loads, imports, costs, args.rounds, (load_before, load_after))
    report_stages(trees, files, stages)
    return 0


def report(trees: dict, files: list, loads: dict, imports: dict, costs: dict, rounds: int, load: tuple) -> None:
    names = list(trees)
    print(f"cold load + validate + compile, new process, INTERP_NO_CACHE=1: CPU ms, median (min–max) of {rounds} "
          f"rounds; load average {' '.join(f'{x:.2f}' for x in load[0])} before, "
          f"{' '.join(f'{x:.2f}' for x in load[1])} after ({os.cpu_count()} cores)")
    width = max(len(f) for f in files)
    print(f"{'file':{width}}  " + "  ".join(f"{n[:24]:>24}" for n in names))
    for f in files:
        print(f"{f:{width}}  " + "  ".join(f"{spread(loads[n, f]):>24}" for n in names))
    for n in names:
        medians = [statistics.median(loads[n, f]) for f in files]
        under = sum(m < GOAL_LOAD_MS for m in medians)
        print(f"{n}: medians {min(medians):.1f}–{max(medians):.1f} ms, {under} of {len(files)} files under "
              f"{GOAL_LOAD_MS} ms")
    print(f"\nimport interp.spec.compiler: CPU ms, median (min–max) of {len(files) * rounds} processes "
          f"(goal ≤ {GOAL_IMPORT_MS})")
    for n in names:
        print(f"{n[:24]:>24}: {spread(imports[n])}")
    print("by package, -X importtime self times (wall ms), median of rounds:")
    groups = list(costs[names[0]][0])
    print(f"{'':>24}  " + " ".join(f"{g:>13}" for g in groups))
    for n in names:
        print(f"{n[:24]:>24}  " + " ".join(f"{statistics.median(c[g] for c in costs[n]):13.1f}" for g in groups))


def report_stages(trees: dict, files: list, stages: dict) -> None:
    """Per file and tree, the median CPU ms of each stage of the load (read, schema, compile)."""
    names = list(trees)
    print(f"\nby stage, CPU ms, median of rounds: {' / '.join(STAGES)}")
    width = max(len(f) for f in files)
    print(f"{'file':{width}}  " + "  ".join(f"{n[:24]:>24}" for n in names))
    for f in files:
        cells = [" / ".join(f"{statistics.median(r[s] for r in stages[n, f]):5.1f}" for s in STAGES) for n in names]
        print(f"{f:{width}}  " + "  ".join(f"{c:>24}" for c in cells))


if __name__ == "__main__":
    sys.exit(main())
