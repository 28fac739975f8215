"""The documentation site builds with warnings as errors (Sphinx, pydata theme, numpydoc,
myst-nb), and has a page for every public name.

The notebooks are rendered without being executed here (``OPTIRULES_DOCS_EXECUTE=off``):
``tests/test_notebooks.py`` executes every one of them already, and the site build that
executes them is ``sphinx-build -b html docs docs/_build/html`` (README).  Skipped when the
``docs`` extra is not installed.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("pydata_sphinx_theme")
pytest.importorskip("numpydoc")
pytest.importorskip("myst_nb")

ROOT = Path(__file__).resolve().parents[1]
MODULES = ("solvers", "models", "learners", "experiments", "data", "weak", "errors",
           "plotting")


class _Text(HTMLParser):
    """The visible text of the article of a built page."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.parts.append(data.strip())


def _text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return " ".join(parser.parts)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("html")
    env = dict(os.environ, OPTIRULES_DOCS_EXECUTE="off", MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
         str(ROOT / "docs"), str(out), "-d", str(out / ".doctrees")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, f"sphinx-build failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}"
    return out


def test_every_public_name_has_an_api_page(site):
    missing = []
    for name in MODULES:
        module = importlib.import_module(f"optirules.{name}")
        for public in module.__all__:
            obj = getattr(module, public)
            page = site / "api" / "generated" / f"optirules.{name}.{public}.html"
            if callable(obj) and not isinstance(obj, type(tuple[int])) and not page.exists():
                missing.append(f"optirules.{name}.{public}")
            elif not callable(obj) and public not in _text(site / "api" / f"optirules.{name}.html"):
                missing.append(f"optirules.{name}.{public}")
    assert not missing, f"no API entry for {missing}"


def test_api_page_of_the_rule_set_shows_its_parameters(site):
    text = _text(site / "api" / "generated" / "optirules.learners.BooleanRuleSetClassifier.html")
    for word in ("BooleanRuleSetClassifier", "Parameters", "Attributes", "max_degree",
                 "history_", "lp_bound_"):
        assert word in text, word


def test_user_guide_papers_and_notebooks_are_pages(site):
    for page in ("index", "install", "vocabulary", "user_guide/solvers", "user_guide/models",
                 "user_guide/learners", "user_guide/experiments",
                 "papers/dro_rule_ensembles", "papers/decision_lists",
                 "papers/boosting_parities", "papers/smooth_boosting", "papers/qmm_pruning"):
        assert (site / f"{page}.html").exists(), page
    notebooks = sorted((ROOT / "notebooks").glob("[0-9]*.py"))  # jupytext sources
    assert len(notebooks) >= 8
    for nb in notebooks:
        assert (site / "notebooks" / f"{nb.stem}.html").exists(), nb.name
    assert "Reyzin" in _text(site / "papers" / "boosting_parities.html")
