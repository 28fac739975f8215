"""The import graph of the package: layers one way down (cli -> experiments -> plotting ->
learners -> models -> solvers, with data and weak beside), and a layer used only through its
public ``__init__`` (no import of another layer's private module)."""

from __future__ import annotations

import ast
from pathlib import Path

import optirules

PACKAGE = Path(optirules.__file__).parent
LAYERS = ("solvers", "models", "data", "weak", "learners", "plotting", "experiments", "cli")
#: what each layer may import (errors and _lazy are shared by all)
ALLOWED = {
    "solvers": set(),
    "models": {"solvers"},
    "data": set(),
    "weak": {"data"},
    "learners": {"models", "solvers", "data", "weak"},
    # the plots draw what learners and models fitted (read by duck typing, so in fact it
    # imports none of them); the experiments and the command line draw with them
    "plotting": {"learners", "models", "solvers", "data", "weak"},
    "experiments": {"plotting", "learners", "models", "solvers", "data", "weak"},
    "cli": {"experiments", "plotting", "learners", "models", "solvers", "data", "weak"},
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


def _module_of(parts: list[str]) -> str | None:
    """The module (dotted name) that ``parts`` names, if it is a file of the package."""
    path = PACKAGE.parent.joinpath(*parts)
    if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
        return ".".join(parts)
    return None


def _edges(path: Path):
    """The optirules modules ``path`` imports, at any depth (function-level imports too)."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    package = list(parts[:-1]) if parts[-1] != "__init__" else list(parts[:-1])
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = base + (node.module.split(".") if node.module else [])
            else:
                target = (node.module or "").split(".")
            if target[:1] != ["optirules"]:
                continue
            for alias in node.names:  # a submodule by name, else the module itself
                module = _module_of(target + [alias.name]) or _module_of(target)
                if module:
                    yield module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "optirules" and _module_of(alias.name.split(".")):
                    yield alias.name


def test_no_import_circle_anywhere():
    """No module imports, directly or through others, a module that imports it back (a
    package's own ``__init__`` included; function-level imports count)."""
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[name] = {m for m in _edges(path) if m != name}
    # Tarjan's strongly connected components: a component of two or more modules is a circle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not circles, f"import circles: {circles}"


def test_the_models_options_live_in_one_namespace():
    """Choice values and switch thresholds are read from optirules.models.options, and the
    models layer no longer exports them one by one."""
    import optirules.models as models
    from optirules.models import options

    for name in options.__all__:
        assert name not in models.__all__, name
    assert models.options is options
    assert options.PRICING == ("auto", "exact", "beam")


def test_learners_ask_a_model_what_it_is_not_which_attributes_it_has():
    """The functions over fitted models (text, SQL, JSON, tables, explain) read a learner's
    ``_model_kind`` and its fit's own attributes (``vars``) instead of probing attributes
    with ``hasattr``; ``hasattr`` is left for foreign objects only (scikit-learn
    ensembles, cross-validation splitters, binarizers, array-likes): at most 15 calls, none
    on our own estimators (named ``self``, ``est``, ``model``, ``best``, ``e``,
    ``inner``)."""
    own = {"self", "est", "model", "best", "e", "inner", "estimator_", "part"}
    calls, on_ours = 0, []
    for path in sorted((Path(optirules.__file__).parent / "learners").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "hasattr"):
                calls += 1
                first = node.args[0]
                if isinstance(first, ast.Name) and first.id in own:
                    on_ours.append(f"{path.name}:{node.lineno}")
    assert calls <= 15, calls
    assert not on_ours, on_ours


#: the scikit-learn estimators, whose constructors keep scikit-learn's explicit keyword
#: parameters (one per hyperparameter, for get_params, set_params and clone)
ESTIMATORS = {"BooleanRuleSetClassifier", "DRORuleEnsembleClassifier", "QMMPruner",
              "KappaPruner", "DREPPruner", "BooleanRuleSetCV", "BoostingClassifier",
              "DecisionListClassifier", "DecisionListCV", "ResampledAdaBoostClassifier"}


def test_no_function_takes_more_than_ten_parameters():
    """Issue 39: no function outside the estimators' constructors takes more than 10
    parameters (``self``/``cls`` not counted); the values that travel together go whole
    (a :class:`~optirules.models.RuleSetProblem`, a :class:`~optirules.models.PricingDuals`,
    a settings dataclass) instead."""
    too_many = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        estimator_inits = {id(n) for c in ast.walk(tree)
                           if isinstance(c, ast.ClassDef) and c.name in ESTIMATORS
                           for n in c.body
                           if isinstance(n, ast.FunctionDef) and n.name == "__init__"}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            k = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
            if a.args and a.args[0].arg in ("self", "cls"):
                k -= 1
            if k > 10 and id(node) not in estimator_inits:
                too_many.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({k})")
    assert not too_many, too_many
