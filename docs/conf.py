"""Sphinx configuration of the optirules documentation.

Build it with ``sphinx-build -b html docs docs/_build/html`` (``pip install -e ".[docs]"``
first).  The API reference is generated at build time from each public module's
``__all__`` (one page per public name, written under ``docs/api/generated``), so a name
added to a layer's ``__init__`` gets its page without an edit here.  The nine notebooks
of ``notebooks/`` (linked as ``docs/notebooks``; jupytext percent-format ``.py`` files) are
read through jupytext and executed by myst-nb at every build.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
# the notebooks' kernels inherit this: their figures are rendered inline into the pages
# (a MPLBACKEND=Agg from the caller's shell would draw them nowhere)
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"

import optirules  # noqa: E402

project = "optirules"
author = "optirules developers"
copyright = "optirules developers, BSD-3-Clause"
release = version = optirules.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_nb",
]

# ----------------------------------------------------------------------------- sources
# every .py file under docs/ is read as a notebook (nb_custom_formats below): conf.py (the
# top-level "*.py") is not a page, and .ipynb copies made locally from the notebooks'
# sources would clash with them (two files for one page)
exclude_patterns = ["_build", "notebooks/README.md", "**.ipynb_checkpoints", "Thumbs.db",
                    ".DS_Store", "*.py", "notebooks/*.ipynb"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb"}
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3

# ----------------------------------------------------------------------------- notebooks
# the notebooks are jupytext percent-format .py files (notebooks/README.md), read by jupytext;
# every build runs them (no outputs are stored in the repository)
nb_custom_formats = {".py": ["jupytext.reads", {"fmt": "py:percent"}]}
nb_execution_mode = os.environ.get("OPTIRULES_DOCS_EXECUTE", "force")
nb_execution_timeout = 300
nb_execution_in_temp = True          # their exported .lp/.mps files stay out of the tree
nb_execution_raise_on_error = True
nb_execution_show_tb = True

# ----------------------------------------------------------------------------- API
# every cross-reference must resolve (a ``~optirules...`` role naming a private module path,
# or a renamed name, is a warning, and -W makes it an error)
nitpicky = True
# targets Sphinx cannot resolve without intersphinx (no network at build time): the
# standard library's and third-party packages' names a docstring cites, and the builtin
# types (``GenericAlias``, ``module``) the constants' entries below name as their ``:type:``
nitpick_ignore = [
    ("py:mod", "logging"),
    ("py:func", "time.perf_counter"),
    ("py:func", "numpy.random.default_rng"),
    ("py:func", "sklearn.model_selection.train_test_split"),
    ("py:class", "GenericAlias"),
    ("py:class", "module"),
]
autosummary_generate = True
templates_path = ["_templates"]
autosummary_imported_members = True
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"           # numpydoc's Parameters sections carry the types
numpydoc_show_class_members = False  # the class page lists its members itself
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True
# the checks every public docstring must pass (numpydoc's codes): GL08 it exists, SS01 it
# has a summary line, PR02 no documented parameter is missing from the signature (a stale
# name after a rename), GL06/GL07 its sections are known and in numpydoc's order
numpydoc_validation_checks = {"GL06", "GL07", "GL08", "PR02", "SS01"}
# the weak hypotheses' and learners' fit/predict/describe/columns override the methods of
# WeakLearner and WeakHypothesis, documented there (autodoc shows the base docstring)
numpydoc_validation_exclude = {r"^optirules\.weak\.\w+\.(fit|predict|describe|columns)$"}

#: the public modules and a one-line description of each
API_MODULES = {
    "optirules.solvers": "One solver interface over Pyomo, CVXPY and highspy.",
    "optirules.models": "The formulations: declarative Pyomo or CVXPY models.",
    "optirules.learners": "scikit-learn estimators that compose the models.",
    "optirules.experiments": "The grid runner and the papers' reproductions.",
    "optirules.data": "The FeatureBinarizer and the bundled datasets.",
    "optirules.weak": "Weak learners for boosting.",
    "optirules.errors": "The exception hierarchy.",
    "optirules.plotting": "Plots of fitted models, each returning a matplotlib Axes.",
}


def public_names(module_name: str) -> list[str]:
    """The module's ``__all__``, in order (the name list every API page is made from)."""
    module = importlib.import_module(module_name)
    return list(module.__all__)


def _is_data(obj) -> bool:
    """A constant or a type alias (no page of its own: listed on the module page)."""
    return not callable(obj) or isinstance(obj, types.GenericAlias)


def _data_entry(module_name: str, name: str, obj) -> list[str]:
    value = repr(obj)
    if len(value) > 300:
        value = value[:297] + "..."
    return [f".. py:data:: {name}", f"   :module: {module_name}",
            f"   :type: {type(obj).__name__}", "", "   ``" + value.replace("`", "'") + "``",
            ""]


def write_api_pages(app=None) -> None:
    """One rst page per public module: an autosummary (one page per public class and
    function) of its ``__all__``, and its constants and type aliases with their values."""
    out = HERE / "api"
    out.mkdir(exist_ok=True)
    index = ["API reference", "=============", "",
             "Every public name of optirules, module by module (each module's ``__all__``).",
             "", ".. toctree::", "   :maxdepth: 1", ""]
    for name, blurb in API_MODULES.items():
        index.append(f"   {name}")
        module = importlib.import_module(name)
        objects = {n: getattr(module, n) for n in public_names(name)}
        lines = [name, "=" * len(name), "", blurb, "", f".. automodule:: {name}",
                 "   :no-members:", "", f".. currentmodule:: {name}", "",
                 ".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {n}" for n, obj in objects.items() if not _is_data(obj)]
        data = [(n, obj) for n, obj in objects.items() if _is_data(obj)]
        if data:
            lines += ["", "Constants and type aliases", "--------------------------", ""]
            for n, obj in data:
                lines += _data_entry(name, n, obj)
        text = "\n".join(lines) + "\n"
        page = out / f"{name}.rst"
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
    text = "\n".join(index) + "\n"
    if not (out / "index.rst").exists() or (out / "index.rst").read_text() != text:
        (out / "index.rst").write_text(text)


def _skip_member(app, what, name, obj, skip, options):
    """scikit-learn's generated ``set_*_request`` methods are not ours to document."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_member)


write_api_pages()

# ----------------------------------------------------------------------------- HTML
html_theme = "pydata_sphinx_theme"
html_title = f"optirules {version}"
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "navbar_align": "left",
}
html_static_path: list[str] = []
html_show_sourcelink = False
