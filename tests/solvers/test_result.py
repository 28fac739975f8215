"""The bound and gap rules of make_result, the one place every backend builds results."""

import math

import pytest

from optirules.solvers import Status
from tests.internals import make_result


def test_continuous_optimum_has_its_objective_as_bound():
    r = make_result(status=Status.OPTIMAL, objective=3.5, bound=None, is_mip=False)
    assert r.bound == 3.5 and r.gap == 0.0


def test_mip_limit_gap_is_relative_to_the_incumbent():
    r = make_result(status=Status.TIME_LIMIT, objective=10.0, bound=8.0, is_mip=True)
    assert r.bound == 8.0 and r.gap == pytest.approx(0.2)


def test_unknown_values_stay_unknown():
    r = make_result(status=Status.TIME_LIMIT, objective=10.0, bound=float("-inf"), is_mip=True)
    assert math.isnan(r.bound) and math.isnan(r.gap)
    r = make_result(status=Status.INFEASIBLE, objective=None, bound=None, is_mip=True)
    assert math.isnan(r.objective) and r.gap == math.inf
    # a proven-optimal MIP whose solver gave no bound is closed at its objective
    r = make_result(status=Status.OPTIMAL, objective=7.0, bound=None, is_mip=True)
    assert r.bound == 7.0 and r.gap == 0.0


def test_not_fitted_error_is_scikit_learns_and_ours():
    """``except sklearn.exceptions.NotFittedError`` and ``except OptirulesError`` both catch it,
    and importing optirules.errors alone does not import scikit-learn."""
    import subprocess
    import sys

    from sklearn.exceptions import NotFittedError as SklearnNotFittedError

    from optirules.errors import NotFittedError, OptirulesError

    assert issubclass(NotFittedError, SklearnNotFittedError)
    assert issubclass(NotFittedError, OptirulesError)
    assert NotFittedError.__module__ == "optirules.errors"
    code = "import sys, optirules.errors, optirules.solvers; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_solve_and_write_model_take_any_object_with_the_protocol(tmp_path):
    """solve() and write_model() dispatch on two methods an object provides, not on the models
    layer's classes: a formulation of a user's own that gives them is solved and written."""
    import pyomo.environ as pyo

    from optirules.solvers import read_model, solve, write_model

    class Cover:
        def __init__(self):
            m = pyo.ConcreteModel()
            m.x = pyo.Var(["a", "b"], within=pyo.NonNegativeReals)
            m.cover = pyo.Constraint(expr=m.x["a"] + m.x["b"] >= 1)
            m.obj = pyo.Objective(expr=2 * m.x["a"] + 3 * m.x["b"])
            self.m = m
            self.read_back = None

        def __optirules_model__(self):
            return self.m

        def __optirules_solve__(self, solver, **kwargs):
            result = solve(self.m, solver, **kwargs)
            self.read_back = result.values["x[a]"]
            return result

    c = Cover()
    result = solve(c, "highs", time_limit=5)
    assert result.objective == pytest.approx(2.0) and c.read_back == pytest.approx(1.0)
    path = write_model(c, tmp_path / "cover.lp")
    assert read_model(path).objective == pytest.approx(2.0)


def test_the_solvers_layer_imports_no_higher_layer():
    """solvers is the bottom layer: none of its modules imports models, learners, weak, data,
    experiments or the command line (checked on the source, every import statement)."""
    import ast
    from pathlib import Path

    import optirules.solvers

    higher = {"models", "learners", "weak", "data", "experiments", "cli"}
    for path in Path(optirules.solvers.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                parts = (node.module or "").split(".")
                top = parts[0] if node.level == 2 else (parts[1] if parts[0] == "optirules"
                                                         and len(parts) > 1 else None)
                assert top not in higher, f"{path.name} imports {node.module} (level {node.level})"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = alias.name.split(".")
                    assert not (parts[0] == "optirules" and len(parts) > 1
                                and parts[1] in higher), f"{path.name} imports {alias.name}"
