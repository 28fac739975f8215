"""The bound and gap rules of make_result, the one place every backend builds results."""

import math

import pytest

from optirules.solvers import Status
from optirules.solvers._result import make_result


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
