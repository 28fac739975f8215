"""The import graph of the package: layers one way down (cli -> experiments -> learners ->
models -> solvers, with data and weak beside), and a layer used only through its public
``__init__`` (no import of another layer's private module)."""

from __future__ import annotations

import ast
from pathlib import Path

import optirules

PACKAGE = Path(optirules.__file__).parent
LAYERS = ("solvers", "models", "data", "weak", "learners", "experiments", "cli")
#: what each layer may import (errors and _lazy are shared by all)
ALLOWED = {
    "solvers": set(),
    "models": {"solvers"},
    "data": set(),
    "weak": {"data"},
    "learners": {"models", "solvers", "data", "weak"},
    "experiments": {"learners", "models", "solvers", "data", "weak"},
    "cli": {"experiments", "learners", "models", "solvers", "data", "weak"},
}


def _imports(path: Path):
    """(target layer, module path inside it or '', line) for every optirules import."""
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    package = ["optirules", *parts[:-1]]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            names = [a.name for a in node.names]
            if target[:1] != ["optirules"]:
                continue
            if len(target) == 1:  # from optirules import x / from . import x
                for n in names:
                    yield n, "", node.lineno
            else:
                yield target[1], ".".join(target[2:]), node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                t = alias.name.split(".")
                if t[0] == "optirules" and len(t) > 1:
                    yield t[1], ".".join(t[2:]), node.lineno


def _layer(path: Path) -> str | None:
    first = path.relative_to(PACKAGE).parts[0]
    name = first.removesuffix(".py")
    return name if name in LAYERS else None


def test_layers_import_one_way_down_and_only_public_names():
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        own = _layer(path)
        if own is None:
            continue
        for target, inner, line in _imports(path):
            if target not in LAYERS or target == own:
                continue
            where = f"{path.relative_to(PACKAGE)}:{line}"
            if target not in ALLOWED[own]:
                problems.append(f"{where}: {own} imports the layer {target}")
            if inner.split(".")[0].startswith("_"):
                problems.append(f"{where}: imports the private module {target}.{inner}")
    assert not problems, "\n".join(problems)
