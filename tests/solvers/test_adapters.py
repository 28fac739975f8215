"""The solver adapters: the other layers ask them and never a solver's name; each claim is
checked against the installed solvers (a tiny MILP solved to its known optimum with the
adapter's time-limit option set, LP duals where claimed, availability as Pyomo and cvxpy
themselves report it); a default fit imports neither Pyomo nor cvxpy."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import optirules
from optirules.errors import SolverNotAvailableError
from optirules.solvers import ROUTES, adapter, adapters, capable, solve

PACKAGE = Path(optirules.__file__).parent
INSTALLED = adapters()

#: every solver name the adapters answer to, and the ones the issue lists
SOLVER_NAMES = ({a.name for a in adapters(installed=False)}
                | {alias for a in adapters(installed=False) for alias in a.aliases}
                | {"gurobi", "cplex", "highs", "appsi_highs", "scip", "cbc", "glpk", "xpress",
                   "mosek", "clarabel", "osqp", "ecos", "scs"})


def _strings(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [s for e in node.elts for s in _strings(e)]
    return []


def test_no_solver_name_is_compared_outside_the_solvers_layer():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "solvers":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                words = [s.lower() for part in (node.left, *node.comparators)
                         for s in _strings(part)]
                if any(w in SOLVER_NAMES for w in words):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: "
                                 f"{ast.unparse(node)}")
    assert not found, "ask optirules.solvers (adapter, capable) instead:\n" + "\n".join(found)


def test_the_solvers_layer_names_no_upper_class():
    import optirules.experiments as experiments
    import optirules.learners as learners
    import optirules.models as models

    upper = {n for mod in (models, learners, experiments) for n in mod.__all__
             if n[:1].isupper() and not n.isupper()}
    found = [f"{path.name}: {n}" for path in sorted((PACKAGE / "solvers").glob("*.py"))
             for n in upper if n in path.read_text()]
    assert not found, found


def test_the_registry_answers_by_name_alias_and_case():
    highs = adapter("HiGHS")
    assert highs is adapter("appsi_highs") and highs.name == "highs"
    assert capable("highs", "milp", "highspy") and capable(" HIGHS ", "duals")
    assert not capable("clarabel", "milp") and capable("clarabel", "exp_cone", "cvxpy")
    assert not capable("no-such-solver", "lp") and not capable(None, "lp")
    assert highs.time_limit_option == "time_limit" and highs.seed_option == "random_seed"
    with pytest.raises(SolverNotAvailableError, match="Did you mean 'highs'"):
        adapter("higs")


@pytest.mark.parametrize("found", INSTALLED, ids=[a.name for a in INSTALLED])
def test_availability_is_what_pyomo_and_cvxpy_report(found):
    """The adapters look modules up without importing them; Pyomo and cvxpy, asked
    themselves, agree, and cvxpy's own capability table gives the adapter's claims."""
    from optirules.solvers._adapters import cvxpy_solvers
    from optirules.solvers._pyomo_backend import pyomo_solver_available

    if "pyomo" in found.routes:
        assert found.available("pyomo") == pyomo_solver_available(found.name)
    by_cvxpy = cvxpy_solvers()
    cvxpy_name = (found.cvxpy_name or "").lower()
    assert found.available("cvxpy") == (cvxpy_name in by_cvxpy)
    if found.available("cvxpy"):
        assert found.capabilities_for("cvxpy") == by_cvxpy[cvxpy_name]


def _milp_pyomo():
    """max 5x + 4y + 3z st 2x + 3y + z <= 5, 4x + y + 2z <= 11, x, y, z in {0, 1, 2}: 13."""
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x, m.y, m.z = (pyo.Var(within=pyo.NonNegativeIntegers, bounds=(0, 2)) for _ in range(3))
    m.c1 = pyo.Constraint(expr=2 * m.x + 3 * m.y + m.z <= 5)
    m.c2 = pyo.Constraint(expr=4 * m.x + m.y + 2 * m.z <= 11)
    m.obj = pyo.Objective(expr=5 * m.x + 4 * m.y + 3 * m.z, sense=pyo.maximize)
    return m


def _milp_cvxpy():
    import cvxpy as cp
    import numpy as np

    x = cp.Variable(3, integer=True)
    cons = [np.array([[2, 3, 1], [4, 1, 2]]) @ x <= np.array([5, 11]), x >= 0, x <= 2]
    return cp.Problem(cp.Maximize(np.array([5, 4, 3]) @ x), cons)


def _milp_highspy():
    import numpy as np

    from optirules.solvers import new_highs

    h = new_highs()
    inf = 1e30
    for c in (5.0, 4.0, 3.0):
        h.addCol(-c, 0.0, 2.0, 0, np.array([], dtype=np.int32), np.array([]))
    h.addRow(-inf, 5.0, 3, np.array([0, 1, 2], dtype=np.int32), np.array([2.0, 3.0, 1.0]))
    h.addRow(-inf, 11.0, 3, np.array([0, 1, 2], dtype=np.int32), np.array([4.0, 1.0, 2.0]))
    h.changeColsIntegrality(3, np.array([0, 1, 2], dtype=np.int32), np.array([1, 1, 1],
                                                                             dtype=np.uint8))
    return h


CLAIMS = [(a, r) for a in INSTALLED for r in ROUTES
          if a.available(r) and "milp" in a.capabilities_for(r)]


@pytest.mark.parametrize("found,route", CLAIMS, ids=[f"{a.name}-{r}" for a, r in CLAIMS])
def test_every_milp_claim_solves_a_known_milp_under_its_time_limit_option(found, route):
    from optirules.solvers import Status

    # the solver's own option name (HiGHS's is solve()'s own keyword, time_limit); cvxpy's
    # interface spells it otherwise (the adapter's cvxpy_limits), so time_limit there
    key = found.time_limit_option if route != "cvxpy" and found.time_limit_option else \
        "time_limit"
    problem = {"pyomo": _milp_pyomo, "cvxpy": _milp_cvxpy, "highspy": _milp_highspy}[route]()
    result = solve(problem, found.name, **{key: 30.0})
    assert result.status is Status.OPTIMAL
    assert abs(abs(result.objective) - 13.0) < 1e-6  # highspy minimises -objective


def _lp_pyomo():
    """min x + 2y st x + y >= 1 (dual 1), x, y >= 0."""
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x, m.y = pyo.Var(within=pyo.NonNegativeReals), pyo.Var(within=pyo.NonNegativeReals)
    m.c = pyo.Constraint(expr=m.x + m.y >= 1)
    m.obj = pyo.Objective(expr=m.x + 2 * m.y)
    return m


def _lp_cvxpy():
    import cvxpy as cp

    x = cp.Variable(2, nonneg=True)
    return cp.Problem(cp.Minimize(x[0] + 2 * x[1]), [x[0] + x[1] >= 1])


DUALS = [(a, r) for a in INSTALLED for r in ("pyomo", "cvxpy")
         if a.available(r) and "duals" in a.capabilities_for(r)]


@pytest.mark.parametrize("found,route", DUALS, ids=[f"{a.name}-{r}" for a, r in DUALS])
def test_every_duals_claim_returns_the_lp_dual(found, route):
    result = solve({"pyomo": _lp_pyomo, "cvxpy": _lp_cvxpy}[route](), found.name)
    assert result.objective == pytest.approx(1.0, abs=1e-6)
    assert result.duals and abs(abs(float(next(iter(result.duals.values())))) - 1) < 1e-5


def test_a_default_fit_imports_neither_pyomo_nor_cvxpy():
    code = textwrap.dedent("""
        import sys
        from optirules.data import load_dataset
        from optirules.learners import BooleanRuleSetClassifier

        X, y = load_dataset("heart_cleveland")
        BooleanRuleSetClassifier().fit(X, y)
        print(sorted(m for m in ("pyomo", "cvxpy") if m in sys.modules))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr
