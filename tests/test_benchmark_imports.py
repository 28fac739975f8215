"""The benchmarks use optirules through its public API only: no benchmark imports a private
module of the package (a name starting with ``_`` in the module path) or a private name
from a public one, so a benchmark measures what a user can run and a module split inside
the package never breaks one."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _private_imports(path: Path):
    """(line, what) of every import of a private optirules module or name in ``path``."""
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and not node.level:
            parts = (node.module or "").split(".")
            if parts[0] != "optirules":
                continue
            if any(p.startswith("_") for p in parts):
                yield node.lineno, f"from {node.module} import ..."
            for alias in node.names:
                if alias.name.startswith("_"):
                    yield node.lineno, f"from {node.module} import {alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "optirules" and any(p.startswith("_") for p in parts):
                    yield node.lineno, f"import {alias.name}"


def test_the_scan_sees_every_form_of_private_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import optirules.models._qmm as q\n"
                      "from optirules.learners._scores import PRIOR_STRENGTH\n"
                      "from optirules.models import _pricing\n"
                      "def f():\n    from optirules.weak._parity import best_parity\n"
                      "from optirules.learners import BoostingClassifier\n"
                      "from _synthetic_master import make\n")
    assert [line for line, _ in _private_imports(sample)] == [1, 2, 3, 5]


def test_benchmarks_import_only_public_optirules_names():
    scripts = sorted(BENCHMARKS.glob("*.py"))
    assert scripts
    hits = [f"{path.relative_to(BENCHMARKS.parent)}:{line}: {what}"
            for path in scripts for line, what in _private_imports(path)]
    assert not hits, ("benchmarks use the public API (optirules.learners, .models, .data, "
                      ".solvers, .weak, .experiments, ...):\n" + "\n".join(hits))
