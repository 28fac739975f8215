"""solve() calls a failure of a solver library a SolverError and lets optirules' own
programming errors surface; the cvxpy export reads the objective's constant exactly."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from optirules.errors import SolverError
from optirules.solvers import read_model, solve, write_model
from tests.internals import _objective_offset, raised_by_a_solver


def _raised(call) -> BaseException:
    try:
        call()
    except Exception as exc:  # noqa: BLE001 - the test inspects what was raised
        return exc
    raise AssertionError("nothing was raised")


def test_a_solver_library_failure_is_a_solver_error():
    import pyomo.environ as pyo

    m = pyo.ConcreteModel()
    m.x = pyo.Var(bounds=(0.1, 2.0))
    m.o = pyo.Objective(expr=pyo.exp(m.x) * pyo.sin(m.x))   # not a QP: HiGHS cannot take it
    with pytest.raises(SolverError, match="solver 'highs' failed on this pyomo problem"):
        solve(m, "highs")


def test_exceptions_of_the_libraries_are_told_from_our_own():
    import cvxpy as cp
    import pyomo.environ as pyo

    x = cp.Variable()
    dcp = _raised(lambda: cp.Problem(cp.Maximize(cp.square(x))).solve())
    assert type(dcp).__module__.startswith("cvxpy") and raised_by_a_solver(dcp)
    m = pyo.ConcreteModel()
    m.x = pyo.Var()
    builtin_in_pyomo = _raised(lambda: pyo.value(m.x))          # a ValueError raised by Pyomo
    assert type(builtin_in_pyomo) is ValueError and raised_by_a_solver(builtin_in_pyomo)
    # raised by optirules' code itself, or by numpy called from it: programming errors
    own = _raised(lambda: _objective_offset(object()))
    assert type(own) is AttributeError and not raised_by_a_solver(own)
    via_numpy = _raised(lambda: _objective_offset(SimpleNamespace(q=["a", "b"])))
    assert type(via_numpy) is ValueError and not raised_by_a_solver(via_numpy)


def test_objective_offset_is_the_constant_of_the_stuffed_objective():
    import cvxpy as cp

    x = cp.Variable(3)
    for constant in (0.0, 5.25, -2.0):
        prob = cp.Problem(cp.Minimize(cp.sum(x) + constant), [x >= 1])
        data, _, _ = prob.get_problem_data(cp.HIGHS)
        assert _objective_offset(data["param_prob"]) == constant
    assert _objective_offset(SimpleNamespace(q=np.array([1.0, 2.0, 7.5]))) == 7.5
    assert _objective_offset(SimpleNamespace(q=np.zeros((0, 1)))) == 0.0


def test_exported_cvxpy_lp_keeps_its_constant(tmp_path):
    import cvxpy as cp

    a, b = cp.Variable(name="a"), cp.Variable(name="b")
    prob = cp.Problem(cp.Minimize(2 * a + 3 * b + 4.5), [a + b >= 1, a - b <= 0.5, a >= 0,
                                                         b >= 0])
    path = write_model(prob, tmp_path / "lp.lp")
    # by hand: b = 0.25, a = 0.75 gives 2.25; plus the constant 4.5
    assert read_model(path).objective == pytest.approx(6.75)
    assert prob.solve(solver=cp.HIGHS) == pytest.approx(6.75)
