"""Every installed backend must reproduce the known optima, duals and statuses."""

from __future__ import annotations

import os
import time

import numpy as np
import pytest

from optirules.errors import (
    InputError,
    SolverError,
    SolverNotAvailableError,
    SolverOptionError,
    SolverStatusError,
)
from optirules.solvers import Status, available_solvers
from optirules.solvers import solve as _solve

from .instances import (
    LP_DUALS,
    LP_OPT,
    LP_X,
    QP_DUAL,
    QP_OPT,
    QP_X,
    cvxpy_infeasible,
    cvxpy_knapsack,
    cvxpy_lp,
    cvxpy_qp,
    cvxpy_unbounded,
    knapsack_optimum,
    pyomo_hard_milp,
    pyomo_infeasible,
    pyomo_knapsack,
    pyomo_lp,
    pyomo_qp,
    pyomo_unbounded,
)


def _names(interface: str, capability: str) -> list[str]:
    return [s.name for s in available_solvers(interface) if s.can(capability, interface)]


def _claims(solver: str, capability: str, interface: str) -> bool:
    return next(s for s in available_solvers(interface) if s.name == solver).can(capability, interface)


def solve(problem, solver="highs", **kwargs):
    """Gurobi and CPLEX from PyPI carry size-limited licences: when a licence refuses an
    instance the test is skipped with the licence's own message."""
    try:
        return _solve(problem, solver, **kwargs)
    except SolverError as exc:
        if "licence of solver" in str(exc):
            pytest.skip(str(exc))
        raise


PYOMO_LP = _names("pyomo", "lp")
PYOMO_MILP = _names("pyomo", "milp")
PYOMO_QP = _names("pyomo", "qp")
CVX_LP = _names("cvxpy", "lp")
CVX_MILP = _names("cvxpy", "milp")
CVX_QP = _names("cvxpy", "qp")
# first-order methods reach these instances only to about 1e-4
TOL = {"scs": 1e-3, "osqp": 1e-3}


class Clocks:
    """Wall-clock and CPU seconds spent in a block.

    CPU time is this process's (every thread) plus that of the child processes it waited
    for (a solver executable).  Other processes on a busy machine stretch the wall clock
    of a solve, not its CPU time, and a solver stops on one of the two (CBC counts CPU
    time, HiGHS and SCIP wall time): a time limit is honoured when the smaller of the two
    stays within the limit plus the model's translation.  A limit that was not passed on
    lets a hard instance run on, and then both clocks grow.
    """

    @staticmethod
    def _cpu() -> float:
        t = os.times()
        return time.process_time() + t.children_user + t.children_system

    def __enter__(self) -> Clocks:
        self._wall, self._cpu0 = time.perf_counter(), self._cpu()
        return self

    def __exit__(self, *exc) -> None:
        self.wall = time.perf_counter() - self._wall
        self.cpu = self._cpu() - self._cpu0

    def within(self, seconds: float) -> bool:
        return min(self.wall, self.cpu) < seconds

    def __repr__(self) -> str:
        return f"Clocks(wall={self.wall:.2f} s, cpu={self.cpu:.2f} s)"


def test_highs_and_clarabel_are_installed():
    names = {s.name for s in available_solvers()}
    assert {"highs", "clarabel"} <= names
    highs = next(s for s in available_solvers() if s.name == "highs")
    assert set(highs.interfaces) >= {"pyomo", "cvxpy", "highspy"}
    assert highs.capabilities >= {"lp", "milp", "duals"}
    clarabel = next(s for s in available_solvers() if s.name == "clarabel")
    assert clarabel.capabilities >= {"lp", "qp", "socp", "exp_cone"}
    assert "milp" not in clarabel.capabilities


# ------------------------------------------------------------------ Pyomo models
@pytest.mark.parametrize("solver", PYOMO_LP)
def test_pyomo_lp_primal_and_dual(solver):
    import pyomo.environ as pyo

    m = pyomo_lp()
    m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
    res = solve(m, solver)
    assert res.status is Status.OPTIMAL and res.has_solution
    assert res.objective == pytest.approx(LP_OPT, abs=1e-8)
    assert res.bound == pytest.approx(LP_OPT, abs=1e-8) and res.gap == pytest.approx(0, abs=1e-9)
    for k, v in LP_X.items():
        assert pyo.value(m.x[k]) == pytest.approx(v, abs=1e-8)
        assert res.values[f"x[{k}]"] == pytest.approx(v, abs=1e-8)
    if _claims(solver, "duals", "pyomo"):
        for name, dual in LP_DUALS.items():
            assert res.duals[name] == pytest.approx(dual, abs=1e-8)
            assert m.dual[m.component(name)] == pytest.approx(dual, abs=1e-8)
    else:  # the registry says this route gives no duals: none are made up
        assert res.duals is None and len(m.dual) == 0
    assert res.solver == solver and res.solver_version and res.wall_time > 0


@pytest.mark.parametrize("solver", PYOMO_MILP)
def test_pyomo_milp_matches_enumeration(solver):
    best, best_x = knapsack_optimum()
    m = pyomo_knapsack()
    res = solve(m, solver)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(best, abs=1e-6)
    assert res.bound == pytest.approx(best, rel=1e-4)
    assert res.duals is None  # an integer program has no duals
    x = np.array([m.x[j].value for j in m.J])
    np.testing.assert_allclose(x, best_x, atol=1e-6)


@pytest.mark.parametrize("solver", PYOMO_QP)
def test_pyomo_qp(solver):
    m = pyomo_qp()
    res = solve(m, solver)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(QP_OPT, abs=1e-6)
    for k, v in QP_X.items():
        assert m.x[k].value == pytest.approx(v, abs=1e-5)
    if _claims(solver, "qp_duals", "pyomo"):
        assert res.duals["cap"] == pytest.approx(QP_DUAL, abs=1e-5)
    else:
        assert res.duals is None


@pytest.mark.parametrize("solver", PYOMO_LP)
def test_pyomo_infeasible_and_unbounded(solver):
    res = solve(pyomo_infeasible(), solver)
    assert res.status in (Status.INFEASIBLE, Status.INFEASIBLE_OR_UNBOUNDED)
    assert not res.has_solution and np.isnan(res.objective)
    with pytest.raises(SolverStatusError, match="infeasible"):
        res.raise_for_status()
    res = solve(pyomo_unbounded(), solver)
    assert res.status in (Status.UNBOUNDED, Status.INFEASIBLE_OR_UNBOUNDED)
    with pytest.raises(SolverStatusError, match="unbounded"):
        res.raise_for_status()


@pytest.mark.parametrize("solver", PYOMO_MILP)
def test_pyomo_time_limit_returns_incumbent(solver):
    solve(pyomo_knapsack(), solver)  # the solver's imports are not part of the solve timed
    m = pyomo_hard_milp()
    with Clocks() as clocks:
        res = solve(m, solver, time_limit=1.0)
    assert res.status is Status.TIME_LIMIT
    assert res.time_limit_reached
    # the limit is honoured, on the clock the solver stops on (translation included)
    assert clocks.within(1.0 + 2.5), clocks
    assert res.has_solution and np.isfinite(res.objective)
    # the incumbent is a feasible point of the model
    import pyomo.environ as pyo

    for j in range(40):
        assert abs(m.x[j].value - round(m.x[j].value)) < 1e-6
    assert res.objective == pytest.approx(pyo.value(m.obj), rel=1e-6)
    assert res.bound <= res.objective and res.gap > 0
    with pytest.raises(SolverStatusError, match="time limit"):
        res.raise_for_status()
    assert res.raise_for_status(allow_limit=True) is res


# ------------------------------------------------------------------ cvxpy problems
@pytest.mark.parametrize("solver", CVX_LP)
def test_cvxpy_lp_primal_and_dual(solver):
    prob, (a, b) = cvxpy_lp()
    res = solve(prob, solver)
    tol = TOL.get(solver, 1e-6)
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert res.objective == pytest.approx(LP_OPT, abs=tol)
    assert a.value == pytest.approx(LP_X["a"], abs=tol) and b.value == pytest.approx(LP_X["b"], abs=tol)
    if res.status is Status.OPTIMAL and _claims(solver, "duals", "cvxpy"):
        # cvxpy's convention: a non-negative multiplier for every inequality of a minimization
        assert res.duals["constraint_0"] == pytest.approx(abs(LP_DUALS["cover"]), abs=tol)
        assert res.duals["constraint_1"] == pytest.approx(abs(LP_DUALS["balance"]), abs=tol)
    elif not _claims(solver, "duals", "cvxpy"):
        assert res.duals is None or all(v is None for v in res.duals.values())


@pytest.mark.parametrize("solver", CVX_QP)
def test_cvxpy_qp(solver):
    prob, (x, y) = cvxpy_qp()
    res = solve(prob, solver)
    tol = TOL.get(solver, 1e-5)
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert res.objective == pytest.approx(QP_OPT, abs=tol)
    assert x.value == pytest.approx(QP_X["x"], abs=tol) and y.value == pytest.approx(QP_X["y"], abs=tol)
    if _claims(solver, "qp_duals", "cvxpy"):
        assert res.duals["constraint_0"] == pytest.approx(-QP_DUAL, abs=tol)
    else:
        assert res.duals is None or res.duals["constraint_0"] is None


@pytest.mark.parametrize("solver", CVX_MILP)
def test_cvxpy_milp_matches_enumeration(solver):
    best, best_x = knapsack_optimum()
    prob, x = cvxpy_knapsack()
    res = solve(prob, solver)
    assert res.status is Status.OPTIMAL
    assert res.objective == pytest.approx(best, abs=1e-6)
    np.testing.assert_allclose(x.value, best_x, atol=1e-6)


@pytest.mark.parametrize("solver", CVX_LP)
def test_cvxpy_infeasible_and_unbounded(solver):
    res = solve(cvxpy_infeasible(), solver)
    assert res.status in (Status.INFEASIBLE, Status.INFEASIBLE_OR_UNBOUNDED)
    assert not res.has_solution
    res = solve(cvxpy_unbounded(), solver)
    assert res.status in (Status.UNBOUNDED, Status.INFEASIBLE_OR_UNBOUNDED)
    assert not res.has_solution


@pytest.mark.parametrize("solver", CVX_MILP)
def test_cvxpy_milp_time_limit(solver):
    """Every cvxpy MILP solver gets the limit under its own name: HiGHS and Gurobi directly,
    SciPy's milp in scipy_options, SCIP in scip_params, CPLEX in cplex_params, CBC as
    maximumSeconds."""
    import cvxpy as cp

    rng = np.random.default_rng(0)
    n, k = 40, 4
    A = rng.integers(0, 100, (k, n)).astype(float)
    b = np.floor(A.sum(axis=1) / 2)
    x = cp.Variable(n, boolean=True)
    s = cp.Variable(k)
    prob = cp.Problem(cp.Minimize(cp.norm1(s) + 0.001 * np.arange(n) @ x), [A @ x + s == b])
    solve(cvxpy_knapsack()[0], solver)  # the solver's imports are not part of the solve timed
    with Clocks() as clocks:
        res = solve(prob, solver, time_limit=1.0, mip_gap=1e-9)
    assert res.status is Status.TIME_LIMIT
    assert clocks.within(1.0 + 3.0), clocks  # on the clock the solver stops on (see Clocks)


# ------------------------------------------------------------------ errors
def test_unknown_solver_lists_installed():
    with pytest.raises(SolverNotAvailableError, match="highs") as err:
        solve(pyomo_lp(), "gurobbi")
    assert "Installed solvers" in str(err.value)
    with pytest.raises(SolverNotAvailableError, match="Did you mean 'highs'"):
        solve(pyomo_lp(), "higs")


def test_interface_mismatch_is_explained():
    with pytest.raises(SolverNotAvailableError, match="cannot take a Pyomo model"):
        solve(pyomo_lp(), "clarabel")


def test_misspelled_options_raise():
    with pytest.raises(SolverOptionError, match="presolv"):
        solve(pyomo_lp(), "highs", presolv="off")
    prob, _ = cvxpy_qp()
    with pytest.raises(SolverOptionError, match="max_iters"):
        solve(prob, "clarabel", max_iters=5)
    prob, _ = cvxpy_qp()
    with pytest.raises(SolverOptionError):
        solve(prob, "osqp", no_such_setting=1)


@pytest.mark.parametrize("options", [
    {"mip_rel_gap": -5}, {"threads": "abc"}, {"presolve": "maybe"}, {"simplex_strategy": 99},
])
def test_highs_option_values_are_checked_on_every_route(options):
    """HiGHS's own option table decides: a value of the wrong type or out of range is refused
    before the solve, on the Pyomo, cvxpy and highspy routes alike."""
    import highspy

    name = next(iter(options))
    prob, _ = cvxpy_qp()
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    for problem in (pyomo_lp(), prob, h):
        with pytest.raises(SolverOptionError, match=f"value .* for option {name!r}"):
            solve(problem, "highs", **options)


def test_highs_option_values_in_range_are_applied():
    result = solve(pyomo_lp(), "highs", presolve="off", random_seed=3, mip_rel_gap=0.01)
    assert result.status is Status.OPTIMAL
    assert result.objective == pytest.approx(LP_OPT)


def test_capability_mismatch_is_explained():
    import cvxpy as cp

    from optirules.errors import SolverError

    x = cp.Variable(2)
    prob = cp.Problem(cp.Minimize(cp.norm(x, 2)), [cp.sum(x) >= 1])
    with pytest.raises(SolverError, match="cannot take this problem"):
        solve(prob, "osqp")


def test_bad_limits_and_problem_type():
    with pytest.raises(InputError, match="time_limit"):
        solve(pyomo_lp(), time_limit=-1)
    with pytest.raises(InputError, match="mip_gap"):
        solve(pyomo_lp(), mip_gap=2)
    with pytest.raises(InputError, match="Pyomo model"):
        solve("not a model")


def test_options_are_passed_through():
    """Native options reach HiGHS on the Pyomo route: its captured log shows presolve off."""
    best, _ = knapsack_optimum()
    off = solve(pyomo_knapsack(), "highs", presolve="off", random_seed=3)
    assert off.status is Status.OPTIMAL and off.objective == pytest.approx(best)
    assert "Presolve is switched off" in off.log and "Presolving model" not in off.log
    default = solve(pyomo_knapsack(), "highs")
    assert "Presolving model" in default.log


def test_cvxpy_iteration_limit_is_not_a_time_limit():
    import cvxpy as cp

    rng = np.random.default_rng(0)
    x = cp.Variable(30)
    A = rng.standard_normal((20, 30))
    prob = cp.Problem(cp.Minimize(cp.sum_squares(A @ x - 1) + cp.norm1(x)), [x >= -1, x <= 1])
    res = solve(prob, "clarabel", max_iter=2)
    assert res.status is Status.ITERATION_LIMIT
    with pytest.raises(SolverStatusError, match="iteration limit"):
        res.raise_for_status()
