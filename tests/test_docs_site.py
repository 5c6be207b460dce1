"""The docs site builds from docs/ with `mkdocs build --strict` (any warning fails: a broken link, a missing page,
a docstring the API reference cannot render), and the pages load nothing from other hosts."""
from __future__ import annotations

import glob
import os
import re
import subprocess
import sys

import pytest

from .conftest import ROOT


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> str:
    for module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs site needs mkdocs, mkdocs-material and mkdocstrings[python] "
                                           "(the test extra)")
    out = str(tmp_path_factory.mktemp("site"))
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", out],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_site_builds_strictly_with_every_page_of_the_nav(site):
    for page in ("getting-started", "players", "spec-language", "bots", "actions", "adapters", "api", "runs",
                 "server", "reference"):
        assert os.path.isfile(os.path.join(site, page, "index.html")), page


def test_the_api_reference_is_made_from_the_docstrings(site):
    with open(os.path.join(site, "reference", "index.html"), encoding="utf-8") as f:
        page = f.read()
    assert "Load, schema-check and compile a spec file" in page  # load_game's docstring
    assert 'id="interp.runs.summary.RunTally"' in page


def test_no_page_loads_anything_from_another_host(site):
    """No Google fonts, no CDN: a stylesheet, script, font or image is always one of the site's own files."""
    loads = re.compile(r'<(?:link|script|img)\b[^>]*\b(?:href|src)="(?:https?:)?//', re.I)
    pages = glob.glob(os.path.join(site, "**", "*.html"), recursive=True)
    assert len(pages) >= 11
    for page in pages:
        with open(page, encoding="utf-8") as f:
            text = f.read()
        assert not loads.search(text), page
