"""The public packages export their names lazily (``optirules._lazy``: a fresh ``import
optirules.learners`` loads neither Pyomo nor CVXPY), and each ``__init__`` repeats the same
names in an ``if TYPE_CHECKING:`` block of plain imports, which IDEs and type checkers read
for the signatures.  These tests hold that block equal to the lazy exports (same names, same
modules, same objects) and ask mypy what it sees."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the packages whose ``__init__`` exports lazily
LAZY = sorted(p.parent.name for p in (ROOT / "optirules").glob("*/__init__.py")
              if "lazy_exports(" in p.read_text())


def _literal(tree: ast.Module, name: str) -> dict[str, str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [name]:
            return ast.literal_eval(node.value)
    return {}


def _type_checking_block(tree: ast.Module) -> tuple[dict[str, str], dict[str, str]]:
    """(name -> module of each ``from MODULE import name as name``, name -> module of each
    ``from . import name as name`` or ``name = _module`` after ``from . import _module``) of
    the ``if TYPE_CHECKING:`` block."""
    blocks = [n for n in tree.body if isinstance(n, ast.If)
              and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"]
    assert len(blocks) == 1, "one `if TYPE_CHECKING:` block of the exported names"
    names, modules, submodules = {}, {}, set()
    for node in blocks[0].body:
        if isinstance(node, ast.ImportFrom) and node.module is None:  # from . import ...
            for alias in node.names:
                if alias.asname == alias.name:  # a public module: options as options
                    modules[alias.name] = "." + alias.name
                else:  # a private one, named below: parity = _parity
                    submodules.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                assert alias.asname == alias.name, (
                    f"write `{alias.name} as {alias.name}` (an explicit re-export for mypy)")
                names[alias.name] = "." * node.level + node.module
        elif isinstance(node, ast.Assign):
            (target,) = node.targets
            assert isinstance(node.value, ast.Name) and node.value.id in submodules
            modules[target.id] = "." + node.value.id
        else:
            raise AssertionError(f"unexpected statement in the block: {ast.dump(node)}")
    return names, modules


@pytest.mark.parametrize("package", LAZY)
def test_the_type_checking_block_lists_the_lazy_exports(package):
    tree = ast.parse((ROOT / "optirules" / package / "__init__.py").read_text())
    names, modules = _type_checking_block(tree)
    assert names == _literal(tree, "_EXPORTS"), (
        f"optirules/{package}/__init__.py: the `if TYPE_CHECKING:` imports differ from "
        "_EXPORTS (a name added to one goes in the other, from the same module)")
    assert modules == _literal(tree, "_MODULES")
    pkg = importlib.import_module(f"optirules.{package}")
    assert sorted(pkg.__all__) == sorted([*names, *modules]) == sorted(dir(pkg))
    for name, module in names.items():
        assert getattr(pkg, name) is getattr(importlib.import_module(module, pkg.__name__), name)
    for name, module in modules.items():
        assert getattr(pkg, name) is importlib.import_module(module, pkg.__name__)


def test_importing_the_packages_loads_no_pyomo_or_cvxpy():
    code = ("import sys, optirules, " + ", ".join(f"optirules.{p}" for p in LAZY) +
            "; print(sorted(m for m in ('pyomo', 'cvxpy', 'highspy') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_mypy_sees_every_export_with_its_real_type(tmp_path):
    """Every exported name imports under ``mypy --strict`` (an explicit re-export) and has
    its own type, not the ``Any`` the lazy ``__getattr__`` would give."""
    pytest.importorskip("mypy", reason="mypy comes with the test extra")
    lines, names = [], []
    for package in LAZY:
        tree = ast.parse((ROOT / "optirules" / package / "__init__.py").read_text())
        exported = sorted([*_literal(tree, "_EXPORTS"), *_literal(tree, "_MODULES")])
        alias = {n: f"{package}_{n}" for n in exported}
        lines.append(f"from optirules.{package} import " +
                     ", ".join(f"{n} as {alias[n]}" for n in exported))
        names += [(f"optirules.{package}.{n}", alias[n]) for n in exported]
    lines += [f"reveal_type({a})" for _, a in names]
    lines.append("from optirules.learners import BooleanRuleSetClassifier")
    lines.append("BooleanRuleSetClassifier(complexity='ten')")  # a wrong argument type
    snippet = tmp_path / "snippet.py"
    snippet.write_text("\n".join(lines) + "\n")
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), str(snippet)],
                          capture_output=True, text=True, cwd=tmp_path, env=env)
    out = [line for line in proc.stdout.splitlines() if line.startswith("snippet.py:")]
    revealed = [line.split("Revealed type is ", 1)[1] for line in out if "Revealed type" in line]
    errors = [line for line in out if ": error:" in line]
    assert len(revealed) == len(names), proc.stdout + proc.stderr
    untyped = [name for (name, _), r in zip(names, revealed) if r.strip('"') == "Any"]
    assert not untyped, f"mypy sees these exports as Any: {untyped}"
    assert len(errors) == 1 and "complexity" in errors[0] and "str" in errors[0], "\n".join(errors)
