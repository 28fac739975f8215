"""The optional solvers of the ``solvers`` extra (SCIP, CBC, Gurobi, CPLEX): option checks,
limits, honest capability claims and licence refusals.  Each test is skipped, with the
reason, when its solver is not installed."""

from __future__ import annotations

import numpy as np
import pytest

from optirules.errors import SolverError, SolverNotAvailableError, SolverOptionError
from optirules.solvers import Status, available_solvers, solve

from .instances import LP_OPT, cvxpy_knapsack, cvxpy_lp, knapsack_optimum, pyomo_hard_milp, pyomo_lp


def _info(name):
    return next((s for s in available_solvers() if s.name == name), None)


def _need(name: str, interface: str):
    info = _info(name)
    if info is None or interface not in info.interfaces:
        extra = "commercial" if name in ("gurobi", "cplex") else "solvers"
        pytest.skip(f"{name} is not installed for {interface} problems "
                    f"(pip install -e '.[{extra}]')")
    return info


# (solver, interface, misspelled options, options with a value out of range)
BAD_OPTIONS = [
    ("scip", "pyomo", {"limits/tim": 5}, {"limits/gap": -1}),
    ("scip", "cvxpy", {"scip_params": {"limits/tim": 5}}, {"scip_params": {"limits/gap": -1}}),
    ("gurobi", "pyomo", {"TimeLimt": 5}, {"Threads": -5}),
    ("gurobi", "cvxpy", {"TimeLimt": 5}, {"Threads": -5}),
    ("cplex", "pyomo", {"timelimt": 5}, {"timelimit": -3}),
    ("cplex", "cvxpy", {"cplex_params": {"timelimt": 5}}, {"cplex_params": {"timelimit": -3}}),
    ("cbc", "cvxpy", {"maximumSecond": 5}, None),
    ("cbc", "pyomo", {"maximumSecond": 5}, None),
]


@pytest.mark.parametrize("solver,interface,misspelled,out_of_range", BAD_OPTIONS,
                         ids=[f"{s}-{i}" for s, i, *_ in BAD_OPTIONS])
def test_bad_options_raise_before_the_solve(solver, interface, misspelled, out_of_range):
    _need(solver, interface)

    def problem():
        return pyomo_lp() if interface == "pyomo" else cvxpy_lp()[0]

    name = next(iter(misspelled.get("scip_params") or misspelled.get("cplex_params") or misspelled))
    with pytest.raises(SolverOptionError, match=name):
        solve(problem(), solver, **misspelled)
    if out_of_range is not None:
        with pytest.raises(SolverOptionError, match="refused value"):
            solve(problem(), solver, **out_of_range)


def test_cplex_through_cvxpy_wants_cplex_params():
    _need("cplex", "cvxpy")
    with pytest.raises(SolverOptionError, match="cplex_params"):
        solve(cvxpy_lp()[0], "cplex", timelimit=5)


@pytest.mark.parametrize("solver,option", [("scip", {"limits/nodes": 1}),
                                           ("gurobi", {"NodeLimit": 1})])
def test_native_options_reach_the_solver(solver, option):
    """A node limit of 1 stops branch and bound on the market-split instance at the root:
    the status says so, which it could not if the option were dropped."""
    _need(solver, "pyomo")
    res = solve(pyomo_hard_milp(), solver, **option)
    assert res.status is Status.ITERATION_LIMIT


def test_valid_scip_options_keep_the_optimum():
    _need("scip", "pyomo")
    best, _ = knapsack_optimum()
    from .instances import pyomo_knapsack

    res = solve(pyomo_knapsack(), "scip", **{"presolving/maxrounds": 0, "randomization/randomseedshift": 3})
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(best)
    res = solve(cvxpy_knapsack()[0], "scip", scip_params={"presolving/maxrounds": 0})
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(best)


def test_scip_duals_are_claimed_where_they_are_given():
    """SCIP returns LP duals to cvxpy (cvxpy switches presolve off for them) but Pyomo's
    scip_direct interface gives none: the registry says exactly that."""
    info = _need("scip", "pyomo")
    assert info.can("duals", "cvxpy") and not info.can("duals", "pyomo")
    assert not info.can("qp_duals", "cvxpy")
    assert "duals[cvxpy]" in str(info)
    res = solve(pyomo_lp(), "scip")
    assert res.objective == pytest.approx(LP_OPT) and res.duals is None


def test_cbc_takes_pyomo_models_through_cylp():
    """Pyomo's standard-form compiler feeds CLP/CBC: a maximized LP with a ranged row, a
    constant in the objective and a free variable gets the same optimum, values and duals
    (d objective / d rhs) as HiGHS; a quadratic model is refused by name."""
    import pyomo.environ as pyo

    info = _need("cbc", "pyomo")
    assert info.can("milp", "pyomo") and info.can("duals", "pyomo")
    assert not info.can("duals", "cvxpy")  # cvxpy's CBC interface returns primal values only

    def build():
        m = pyo.ConcreteModel()
        m.x = pyo.Var(within=pyo.NonNegativeReals)
        m.y = pyo.Var()  # free
        m.band = pyo.Constraint(expr=pyo.inequality(1, m.x + 2 * m.y, 4))
        m.cap = pyo.Constraint(expr=3 * m.x - m.y <= 6)
        m.floor = pyo.Constraint(expr=m.y >= -1)
        m.obj = pyo.Objective(expr=2 * m.x + m.y + 5, sense=pyo.maximize)
        m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
        return m

    ref, ours = build(), build()
    r_ref, r = solve(ref, "highs"), solve(ours, "cbc")
    assert r.status is Status.OPTIMAL and r.objective == pytest.approx(r_ref.objective, abs=1e-9)
    assert r.objective == pytest.approx(pyo.value(ours.obj), abs=1e-9)
    for v in ("x", "y"):
        assert r.values[v] == pytest.approx(r_ref.values[v], abs=1e-9)
    for con in ("band", "cap", "floor"):
        assert r.duals[con] == pytest.approx(r_ref.duals[con], abs=1e-9)
        assert ours.dual[ours.component(con)] == pytest.approx(r.duals[con], abs=1e-9)
    q = build()
    q.obj.deactivate()
    q.qobj = pyo.Objective(expr=(q.x - 1) ** 2)
    with pytest.raises(SolverError, match="linear Pyomo models only"):
        solve(q, "cbc")


def test_cbc_lp_time_limit_is_refused_not_ignored():
    """cvxpy and cylp hand an LP to CLP without any time limit: asking for one is an error."""
    info = _need("cbc", "cvxpy")
    with pytest.raises(SolverError, match="no time limit"):
        solve(cvxpy_lp()[0], "cbc", time_limit=5)
    if "pyomo" in info.interfaces:
        with pytest.raises(SolverError, match="no time limit"):
            solve(pyomo_lp(), "cbc", time_limit=5)
    res = solve(cvxpy_lp()[0], "cbc")
    assert res.objective == pytest.approx(LP_OPT)


def _big_lp(n: int):
    """min sum_i c_i x_i, sum x >= n/2, 0 <= x <= 1: the optimum takes the n/2 cheapest."""
    import pyomo.environ as pyo

    c = 1.0 + np.arange(n) % 7
    m = pyo.ConcreteModel()
    m.x = pyo.Var(range(n), bounds=(0, 1))
    m.c = pyo.Constraint(expr=sum(m.x[i] for i in range(n)) >= n // 2)
    m.obj = pyo.Objective(expr=sum(float(c[i]) * m.x[i] for i in range(n)))
    return m, float(np.sort(c)[: n // 2].sum())


@pytest.mark.parametrize("solver", ["gurobi", "cplex"])
def test_size_limited_licence_is_named(solver):
    """2,500 variables exceed both PyPI licences (Gurobi: 2,000; CPLEX Community: 1,000):
    with such a licence the error quotes it; with a full licence the optimum is right."""
    _need(solver, "pyomo")
    m, optimum = _big_lp(2500)
    try:
        res = solve(m, solver)
    except SolverError as exc:
        assert f"licence of solver {solver!r} refused" in str(exc)
        assert "Model too large" in str(exc) or "Error  1016" in str(exc)  # their own words
        return
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(optimum)


def test_gurobi_licence_line_stays_off_stdout():
    """gurobipy prints "Restricted license ..." through sys.stdout whenever an environment
    starts; on ``optirules predict``'s stdout it would corrupt the CSV.  Fresh process."""
    import subprocess
    import sys

    _need("gurobi", "pyomo")
    code = """
import cvxpy as cp, pyomo.environ as pyo
from optirules.solvers import solve
m = pyo.ConcreteModel(); m.x = pyo.Var(bounds=(0, 1)); m.o = pyo.Objective(expr=m.x)
x = cp.Variable(nonneg=True)
print("objective", solve(m, "gurobi").objective,
      solve(cp.Problem(cp.Minimize(x), [x >= 1]), "gurobi").objective)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "objective 0.0 1.0"


def test_interface_mismatch_lists_what_each_fitting_solver_takes():
    from .instances import pyomo_knapsack

    with pytest.raises(SolverNotAvailableError, match="cannot take a Pyomo model") as err:
        solve(pyomo_knapsack(), "clarabel")
    choices = str(err.value).split("choose one of:")[1]
    assert "highs (lp, milp, qp)" in choices
    for info in available_solvers("pyomo"):
        assert f"{info.name} (" in choices
