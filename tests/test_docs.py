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


_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}


@pytest.mark.parametrize("page", ["README.md", "docs/index.md", "docs/tutorials.md",
                                  "notebooks/README.md"])
def test_pages_count_the_notebooks_there_are(page):
    """Every 'N (teaching) notebooks' of the front pages is the number of notebooks in
    notebooks/ (the site's toctree takes them all, so a page's count is the only place it
    can be wrong)."""
    import re

    n = len(sorted((ROOT / "notebooks").glob("[0-9]*.py")))
    text = (ROOT / page).read_text(encoding="utf-8")
    counts = re.findall(r"\b(\w+) (?:teaching )?notebooks\b", text, flags=re.IGNORECASE)
    counts = [c.lower() for c in counts if c.lower() in _NUMBER_WORDS or c.isdigit()]
    if page != "notebooks/README.md":
        assert counts, f"{page} does not count the notebooks"
    for c in counts:
        assert _NUMBER_WORDS.get(c, None) == n or c == str(n), (
            f"{page} counts {c} notebooks, notebooks/ holds {n}")


def test_readme_boosting_paragraph_names_the_default_weak_learner():
    """The README's paragraph on boosting's defaults says which weak learner
    BoostingClassifier() uses before it describes the CART option."""
    from optirules.learners import BoostingClassifier

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    paragraph = text[text.index("Boosting defaults"):].split("\n\n")[0]
    default = BoostingClassifier().weak_learner
    assert f'`weak_learner="{default}"`' in paragraph
    assert paragraph.index(f'"{default}"') < paragraph.index("CartLearner(size=16")
