"""The package as users get it: games by name, `--version`, `python -m interp`, the metadata, and a built
wheel installed into a fresh virtual environment that validates every shipped game from another folder."""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile

import pytest

import interp
from interp.errors import SpecError
from interp.spec.compiler import load_game
from interp.spec.resources import SCHEMA_PATH, shipped_games, spec_path

from .conftest import ROOT


def pyproject() -> str:
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        return f.read()


def run(*args: str, cwd: str = ROOT, timeout: float = 120, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, input=stdin)


def test_every_spec_file_ships_by_name():
    files = sorted(os.path.splitext(os.path.basename(p))[0] for p in glob.glob(os.path.join(ROOT, "games", "*")))
    assert shipped_games() == files and len(files) >= 19
    assert re.search(r'"interp\.data\.games" = \["\*\.yaml"\]', pyproject())
    assert os.path.samefile(SCHEMA_PATH, os.path.join(ROOT, "schema", "game.schema.json"))


def test_a_game_loads_by_name_as_by_path():
    by_name = load_game("preferans-4")
    by_file = load_game("preferans-4.yaml")
    by_path = load_game(os.path.join("games", "preferans-4.yaml"))
    assert by_name.name == by_file.name == by_path.name == "Russian Preferans (Sochi), 4 players"
    assert os.path.samefile(by_name.path, by_path.path)


def test_an_existing_file_wins_over_a_shipped_name(tmp_path, monkeypatch):
    (tmp_path / "tarot").write_text("name: Local\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert spec_path("tarot") == "tarot"


def test_an_unknown_name_suggests_the_closest_games():
    with pytest.raises(SpecError) as err:
        spec_path("tarrot")
    assert err.value.message == "no such spec file or shipped game: tarrot"
    assert err.value.hint.startswith("did you mean tarot")


def test_cli_takes_names_and_reports_unknown_ones_with_exit_2():
    done = run(sys.executable, "-m", "interp", "rules", "piquet-rubicon")
    assert done.returncode == 0 and "Piquet" in done.stdout
    done = run(sys.executable, "-m", "interp", "validate", "preferans-stalingrad", "mitenn")
    assert done.returncode == 2
    assert done.stdout.startswith("ok  preferans-stalingrad: ")
    assert "no such spec file or shipped game: mitenn" in done.stderr and "did you mean mitten" in done.stderr
    assert "Traceback" not in done.stderr


def test_version_everywhere_agrees():
    declared = re.search(r'^version = "([^"]+)"', pyproject(), re.M).group(1)
    assert interp.__version__ == declared
    done = run(sys.executable, "-m", "interp", "--version")
    assert (done.returncode, done.stdout) == (0, f"interp {declared}\n")


def test_metadata_names_a_license_file_and_typing():
    text = pyproject()
    assert 'license = "MIT"' in text and 'license-files = ["LICENSE"]' in text
    with open(os.path.join(ROOT, "LICENSE"), encoding="utf-8") as f:
        assert f.readline().strip() == "MIT License"
    assert os.path.isfile(os.path.join(ROOT, "interp", "py.typed")) and '"py.typed"' in text
    assert "Typing :: Typed" in text and "example.com" not in text


def _test_extra() -> list:
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11's tomllib")
    from packaging.requirements import Requirement  # pytest's own dependency
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return [Requirement(r) for r in tomllib.load(f)["project"]["optional-dependencies"]["test"]]


@pytest.mark.parametrize("system,machine,python,wheel", [
    ("linux", "x86_64", "3.12", True), ("linux", "aarch64", "3.10", True), ("darwin", "arm64", "3.11", True),
    ("darwin", "x86_64", "3.13", True), ("win32", "AMD64", "3.12", True),
    ("win32", "AMD64", "3.10", False), ("win32", "ARM64", "3.12", False), ("linux", "armv7l", "3.12", False),
    ("linux", "ppc64le", "3.12", False)])
def test_the_test_extra_asks_for_open_spiel_only_where_it_has_wheels(system, machine, python, wheel):
    """open-spiel publishes wheels for glibc Linux x86-64 and aarch64, macOS, and 64-bit Windows from 3.11 (checked
    with `pip download --only-binary=:all: --platform ... --python-version ...`, Nov 2026); elsewhere pip would
    build it from source, so the test extra leaves it out there (its tests skip)."""
    env = {"sys_platform": system, "platform_machine": machine, "python_version": python, "extra": "test"}
    extra = _test_extra()
    (openspiel,) = [r for r in extra if r.extras == {"openspiel"}]
    assert openspiel.marker is not None and openspiel.marker.evaluate(env) is wheel
    assert [r.extras for r in extra if r.marker is None and r.name == "interp"] == [{"pettingzoo", "plot"}]


# -- a wheel in a fresh virtual environment ---------------------------------------------------------------------------
def _setuptools_builds_pep639() -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= 77


def _venv_python(venv: str) -> str:
    return os.path.join(venv, "Scripts" if os.name == "nt" else "bin", "python")


def _build_wheel(tmp: str) -> str:
    """Build from a copy of the sources (pip writes build/ and *.egg-info next to them), offline."""
    src = os.path.join(tmp, "src")
    os.makedirs(src)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(os.path.join(ROOT, name), src)
    for name in ("interp", "games", "schema"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(src, name),
                        ignore=shutil.ignore_patterns("__pycache__"))
    dist = os.path.join(tmp, "dist")
    done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
               "-q", "-w", dist, src)
    assert done.returncode == 0, done.stderr
    (wheel,) = glob.glob(os.path.join(dist, "interp-*.whl"))
    return wheel


def _fresh_venv(tmp: str, wheel: str) -> str:
    """A new venv with the wheel installed offline; the dependencies are the running environment's own,
    reached through a .pth file written after the install (so pip sees no other copy of interp)."""
    venv = os.path.join(tmp, "venv")
    done = run(sys.executable, "-m", "venv", venv)
    assert done.returncode == 0, done.stderr
    python = _venv_python(venv)
    done = run(python, "-m", "pip", "install", "-q", "--no-index", "--no-deps", wheel)
    assert done.returncode == 0, done.stderr
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    with open(os.path.join(site, "parent-deps.pth"), "w", encoding="utf-8") as f:
        f.write("\n".join(sorted(ours)) + "\n")
    return venv


@pytest.mark.slow
@pytest.mark.skipif(not _setuptools_builds_pep639(), reason="building offline needs setuptools>=77 (the test extra)")
def test_wheel_installs_into_a_fresh_venv_and_plays_every_game(tmp_path):
    wheel = _build_wheel(str(tmp_path))
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
        page = {name for name in archive.namelist() if name.startswith("interp/table/static/")}
        parser_tables = {name for name in archive.namelist() if name.startswith("interp/dsl/grammar.")}
    assert {os.path.basename(name) for name in page} == set(os.listdir("interp/table/static"))  # the table server's page
    assert {top for top in tops if not top.endswith(".dist-info")} == {"interp"}  # no `interpreter` package
    assert parser_tables == {f"interp/dsl/grammar.{ext}" for ext in ("lark", "tables", "lalr")}  # parsing needs no build
    venv = _fresh_venv(str(tmp_path), wheel)
    python, elsewhere = _venv_python(venv), str(tmp_path)
    command = os.path.join(os.path.dirname(python), "interp")

    done = run(command, "--version", cwd=elsewhere)
    assert done.stdout == f"interp {interp.__version__}\n"
    names = shipped_games()
    done = run(command, "validate", *names, cwd=elsewhere, timeout=200)
    assert done.returncode == 0, done.stderr
    assert [line.split(":")[0] for line in done.stdout.splitlines()] == [f"ok  {name}" for name in names]

    probe = ("import interp, os; from interp.spec.compiler import load_game; "
             "from interp.spec.resources import SCHEMA_PATH; g = load_game('preferans-4'); "
             "print(os.path.dirname(interp.__file__)); print(g.path); print(SCHEMA_PATH)")
    package, game_path, schema_path = run(python, "-c", probe, cwd=elsewhere).stdout.split()
    assert package.startswith(venv) and game_path.startswith(package) and schema_path.startswith(package)
    assert os.path.isfile(os.path.join(package, "py.typed"))

    done = run(python, "-m", "interp", "simulate", "tarot", "-n", "3", "--seed", "1", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    done = run(command, "play", "preferans", "--seed", "5", "-o", "pool_target=1", cwd=elsewhere, stdin="1\n" * 4000)
    assert done.returncode == 0 and "The match is over." in done.stdout, done.stderr
    assert os.path.isfile(os.path.join(elsewhere, "saves", "preferans-5.json"))


# -- the source distribution runs its own tests ----------------------------------------------------------------------
def _build_sdist(tmp: str) -> str:
    """The sdist of a copy of the tracked files (setuptools writes *.egg-info next to them), built offline."""
    src, dist = os.path.join(tmp, "src"), os.path.join(tmp, "dist")
    tracked = run("git", "ls-files", "-z").stdout.split("\0")
    if not any(tracked):
        pytest.skip("not a git checkout (an unpacked sdist tests itself)")
    for name in filter(None, tracked):
        if os.path.isfile(os.path.join(ROOT, name)):
            os.makedirs(os.path.dirname(os.path.join(src, name)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, name), os.path.join(src, name))
    done = run(sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({dist!r})", cwd=src)
    assert done.returncode == 0, done.stderr
    (sdist,) = glob.glob(os.path.join(dist, "interp-*.tar.gz"))
    return sdist


@pytest.mark.slow
@pytest.mark.skipif(not _setuptools_builds_pep639(), reason="building offline needs setuptools>=77 (the test extra)")
@pytest.mark.skipif(shutil.which("git") is None, reason="the sdist is built from the tracked files (git ls-files)")
def test_the_unpacked_sdist_collects_every_test_and_passes_those_reading_its_data(tmp_path):
    import tarfile

    sdist = _build_sdist(str(tmp_path))
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp_path / "unpacked", filter="data") if sys.version_info >= (3, 12) \
            else archive.extractall(tmp_path / "unpacked")
    (top,) = os.listdir(tmp_path / "unpacked")
    unpacked = str(tmp_path / "unpacked" / top)
    for needed in ("tests/conftest.py", "tests/golden", "tests/scenarios", "docs/examples/tiny.yaml", "CHANGELOG.md",
                   "CONTRIBUTING.md", "mkdocs.yml"):
        assert os.path.exists(os.path.join(unpacked, needed)), needed
    assert not glob.glob(os.path.join(unpacked, "**", "__pycache__"), recursive=True)

    pytest_here = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    done = run(*pytest_here, "--collect-only", cwd=unpacked, timeout=300)
    assert done.returncode == 0 and "error" not in done.stdout.splitlines()[-1], done.stdout[-3000:]
    # tests reading each kind of data (a game's golden playthroughs and scenarios, the docs and their example spec),
    # run from there; the whole suite would double its time
    done = run(*pytest_here, "-x", "tests/test_golden.py", "tests/runs/test_scenarios.py", "tests/test_docs.py",
               "-k", "mitten or test_docs", cwd=unpacked, timeout=300)
    assert re.search(r"^([4-9]\d|\d{3,}) passed", done.stdout.splitlines()[-1]), done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    probe = run(sys.executable, "-c", "import interp; print(interp.__file__)", cwd=unpacked).stdout.strip()
    assert probe.startswith(unpacked)  # the unpacked copy was under test, not this checkout
